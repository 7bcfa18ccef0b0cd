#include "warlog/replay/rule_diff_summary.hpp"
#include "warlog/replay/report.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace warlog::replay {

DiffTally tally_of(const GameDiff& d) {
  DiffTally t;
  t.game = d.game.id;
  t.title = d.game.title;
  t.klass = d.klass();
  t.first_turn = d.first ? d.first->turn : 0;
  for (const auto& f : d.added) ++t.rules[std::string(f.finding.rule_id)].first;
  for (const auto& f : d.removed) ++t.rules[std::string(f.finding.rule_id)].second;
  if (t.klass == DiffClass::Outcome) t.flip = flip_words(d);
  return t;
}

std::string to_line(const DiffTally& t) {
  nlohmann::json rules = nlohmann::json::object();
  for (const auto& [id, n] : t.rules) rules[id] = {n.first, n.second};
  return nlohmann::json{{"g", t.game}, {"t", t.title}, {"c", static_cast<int>(t.klass)}, {"f", t.first_turn},
                        {"r", rules}, {"x", t.flip}}
      .dump();
}

std::optional<DiffTally> tally_from_line(std::string_view line) {
  const auto j = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object()) return std::nullopt;
  DiffTally t;
  try {
    t.game = j.at("g").get<core::GameId>();
    t.title = j.at("t").get<std::string>();
    const int c = j.at("c").get<int>();
    if (c < 0 || c > 3) return std::nullopt;
    t.klass = static_cast<DiffClass>(c);
    t.first_turn = j.at("f").get<std::uint16_t>();
    for (const auto& [id, n] : j.at("r").items()) t.rules[id] = {n.at(0).get<int>(), n.at(1).get<int>()};
    t.flip = j.at("x").get<std::string>();
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
  return t;
}

bool DiffFilter::selects(const DiffTally& t) const {
  if (!any()) return true;
  if (t.klass == DiffClass::Unchanged) return false;
  if (only && t.klass != *only) return false;
  return rule.empty() || t.rules.contains(rule);
}

bool DiffFilter::admits(DiffClass c) const noexcept {
  if (!any()) return true;
  return c != DiffClass::Unchanged && (!only || c == *only);
}

std::string DiffFilter::words() const {
  std::string s;
  if (only) s += fmt::format("in class {}", to_string(*only));
  if (!rule.empty()) s += fmt::format("{}whose {} findings change", s.empty() ? "" : ", ", rule);
  return s;
}

bool shown(const DiffTally& t, const DiffFilter& filter) {
  return t.klass != DiffClass::Unchanged && filter.selects(t);
}

void DiffSummary::add(const DiffTally& t) {
  ++compared_;
  if (t.klass != DiffClass::Unchanged) ++compared_changed_;
  if (!filter_.selects(t)) return;
  ++counts_[static_cast<std::size_t>(t.klass)];
  if (t.first_turn != 0 || t.klass != DiffClass::Unchanged) ++turns_[t.first_turn];
  for (const auto& [id, n] : t.rules) {
    RuleCount& r = rules_[id];
    ++r.games;
    r.added += static_cast<std::size_t>(n.first);
    r.removed += static_cast<std::size_t>(n.second);
    added_ += static_cast<std::size_t>(n.first);
    removed_ += static_cast<std::size_t>(n.second);
  }
  if (t.klass == DiffClass::Outcome && flips_.size() < kFlips) flips_.push_back(Flip{t.game, t.title, t.flip});
}

std::size_t DiffSummary::games() const noexcept {
  std::size_t n = errors_;
  for (std::size_t c : counts_) n += c;
  return n;
}

std::vector<std::pair<std::string, DiffSummary::RuleCount>> DiffSummary::top_rules() const {
  std::vector<std::pair<std::string, RuleCount>> out(rules_.begin(), rules_.end());
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second.games != b.second.games ? a.second.games > b.second.games
                                            : a.second.added + a.second.removed > b.second.added + b.second.removed;
  });
  return out;
}

std::string fit(std::string_view text, std::size_t columns) {
  std::size_t points = 0, cut = text.size(), keep = text.size();
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue;  // a continuation byte
    if (points == columns - 3) keep = i;
    if (points == columns) {
      cut = i;
      break;
    }
    ++points;
  }
  if (cut == text.size()) return std::string(text);
  return std::string(text.substr(0, keep)) + "...";
}

namespace {

// What each class means, by DiffClass, for the text and the page alike. A
// "findings" game diverges (its findings, or only its state) and keeps its outcome.
constexpr const char* kClassMeaning[] = {"the same at every event", "diverges (findings or state), the same outcome",
                                         "the outcome changes", "not followable from some event on"};

}  // namespace

std::string DiffSummary::games_words() const {
  const std::size_t n = games();
  if (!filter_.any()) return fmt::format("{} game{}", n, n == 1 ? "" : "s");
  return fmt::format("{} of {} game{}", n, compared(), compared() == 1 ? "" : "s");
}

std::string DiffSummary::text(std::string_view against) const {
  std::string out;
  auto line = [&out](std::string s) { out += fit(s, 80) + "\n"; };
  // Which ruleset or card list is never cut short: a long one goes on a line of its own, whole.
  const std::string header = fmt::format("rule-diff: {} under {}", games_words(), against);
  if (header.size() <= 80) {
    line(header);
  } else {
    line(fmt::format("rule-diff: {} under", games_words()));
    out += fmt::format("  {}\n", against);
  }
  // What the filter selected ("3 of 14 games" above): every count below is of those games.
  if (filter_.any()) line(fmt::format("selected: the changed games {}", filter_.words()));
  for (DiffClass c : {DiffClass::Unchanged, DiffClass::Findings, DiffClass::Outcome, DiffClass::Undetermined}) {
    if (!filter_.admits(c)) continue;
    line(fmt::format("  {:<13}{:>8}  {}", to_string(c), count(c), kClassMeaning[static_cast<int>(c)]));
  }
  if (errors_) line(fmt::format("  {:<13}{:>8}  could not be compared (see stderr)", "errors", errors_));
  const auto rules = top_rules();
  if (rules.empty()) {
    line("findings: none new, none gone");
  } else {
    line(fmt::format("findings: {} new, {} gone, under {} rule{}; most games first:", added_, removed_, rules.size(),
                     rules.size() == 1 ? "" : "s"));
    for (std::size_t i = 0; i < std::min(rules.size(), kTopRules); ++i) {
      const auto& [id, r] = rules[i];
      line(fmt::format("  {:<26}{:>8} game{} {:>8} new {:>8} gone", id, r.games, r.games == 1 ? " " : "s", r.added,
                       r.removed));
    }
    if (rules.size() > kTopRules) {
      line(fmt::format("  and {} more rule{} (--format csv or html lists them all)", rules.size() - kTopRules,
                       rules.size() - kTopRules == 1 ? "" : "s"));
    }
  }
  if (!turns_.empty()) {
    // The earliest turn first (where the change first shows), then the busiest.
    std::vector<std::pair<std::uint16_t, std::size_t>> by(turns_.begin(), turns_.end());
    const auto earliest = *std::min_element(by.begin(), by.end());
    std::stable_sort(by.begin(), by.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    // The earliest turn is named once: as the most frequent too when it is.
    const bool earliest_most = by.front() == earliest;
    std::erase(by, earliest);
    std::string s = earliest_most
                        ? fmt::format("first divergence: most often turn {} ({}), the earliest;", earliest.first,
                                      earliest.second)
                        : fmt::format("first divergence: earliest turn {} ({}); most often", earliest.first,
                                      earliest.second);
    if (by.empty()) s = fmt::format("first divergence: turn {} ({})", earliest.first, earliest.second);
    for (std::size_t i = 0; i < by.size() && i < 8; ++i) {
      const std::string item = fmt::format("{} turn {} ({})", i ? "," : "", by[i].first, by[i].second);
      if (s.size() + item.size() > 80) break;
      s += item;
    }
    line(s);
  }
  if (flips_.empty()) {
    line("outcome flips: none");
  } else {
    line(fmt::format("first outcome flips (of {}):", count(DiffClass::Outcome)));
    // Within the first screen (kFirstScreen lines, the last of them the
    // caller's "per game below"): a flip too wide for one line puts what it
    // replaces on a second, so neither side is cut off.
    const auto used = static_cast<std::size_t>(std::count(out.begin(), out.end(), '\n'));
    std::size_t left = used + 1 < kFirstScreen ? kFirstScreen - 1 - used : 0;
    for (const Flip& f : flips_) {
      const std::string one = fmt::format("  game {}: {}", f.game, f.words);  // the outcome, not the title
      const auto split = f.words.find(" instead of ");
      const bool wide = one.size() > 80 && split != std::string::npos;
      if (left < (wide ? 2u : 1u)) break;
      if (wide) {
        line(fmt::format("  game {}: {}", f.game, f.words.substr(0, split)));
        line(fmt::format("    {}", f.words.substr(split + 1)));
        left -= 2;
      } else {
        line(one);
        --left;
      }
    }
  }
  return out;
}

nlohmann::json DiffSummary::json() const {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& [id, r] : top_rules()) {
    rules.push_back({{"rule", id}, {"games", r.games}, {"added", r.added}, {"removed", r.removed}});
  }
  nlohmann::json turns = nlohmann::json::array();
  for (const auto& [turn, games] : turns_) turns.push_back({{"turn", turn}, {"games", games}});
  nlohmann::json flips = nlohmann::json::array();
  for (const Flip& f : flips_) flips.push_back({{"game", f.game}, {"title", f.title}, {"text", f.words}});
  nlohmann::json selection{{"only", filter_.only ? nlohmann::json(to_string(*filter_.only)) : nlohmann::json(nullptr)},
                           {"rule", filter_.rule.empty() ? nlohmann::json(nullptr) : nlohmann::json(filter_.rule)},
                           {"compared_games", compared()},
                           {"compared_changed", compared_changed()}};
  return {{"selection", selection},
          {"games", games()},
          {"unchanged", count(DiffClass::Unchanged)},
          {"findings", count(DiffClass::Findings)},
          {"outcome", count(DiffClass::Outcome)},
          {"undetermined", count(DiffClass::Undetermined)},
          {"errors", errors_},
          {"findings_added", added_},
          {"findings_removed", removed_},
          {"rules", rules},
          {"first_divergence_turns", turns},
          {"first_flips", flips}};
}


namespace {

constexpr std::string_view kStyle =
    "body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;margin:0.5em 0 1.5em}"
    "td,th{border:1px solid #ccc;padding:0.2em 0.6em;text-align:left;vertical-align:top}td.n{text-align:right}"
    "tr.outcome td:first-child{border-left:4px solid #c33}tr.undetermined td:first-child{border-left:4px solid #e90}"
    "tr.findings td:first-child{border-left:4px solid #39c}ul{margin:0;padding-left:1.2em}";

// Bars of games per first-divergence turn, as inline SVG.
std::string turn_chart(const std::map<std::uint16_t, std::size_t>& turns) {
  if (turns.empty()) return "<p>No game diverges.</p>\n";
  const std::uint16_t last = turns.rbegin()->first;
  std::size_t most = 0;
  for (const auto& [turn, n] : turns) most = std::max(most, n);
  const int bar = 18, height = 160, left = 40, bottom = 30;
  const int width = left + (last + 1) * bar + 10;
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" role=\"img\" "
      "aria-label=\"games by the turn they first diverge\">\n",
      width, height + bottom + 10);
  out += fmt::format("<text x=\"0\" y=\"12\" font-size=\"11\">{}</text>\n", most);
  out += fmt::format("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" stroke=\"#333\"/>\n", left, height, width);
  for (const auto& [turn, n] : turns) {
    const int h = static_cast<int>(static_cast<double>(n) / static_cast<double>(most) * (height - 10));
    const int x = left + turn * bar;
    out += fmt::format(
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#39c\"><title>turn {}: {} game{}</title></rect>\n",
        x, height - h, bar - 3, h, turn, n, n == 1 ? "" : "s");
    out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"10\">{}</text>\n", x, height + 14, turn);
  }
  out += fmt::format("<text x=\"{}\" y=\"{}\" font-size=\"11\">turn of the first divergence</text>\n</svg>\n",
                     left, height + bottom);
  return out;
}

}  // namespace

std::string DiffSummary::html_head(std::string_view against) const {
  std::string out = fmt::format(
      "<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
      "<title>warlog rule-diff: {}</title>\n<style>{}</style>\n</head>\n<body>\n<h1>rule-diff: {} under {}</h1>\n",
      xml_escape(against), kStyle, games_words(), xml_escape(against));
  if (filter_.any()) {
    out += fmt::format("<p class=\"selection\">Selected: the changed games {}; the totals count only them.</p>\n",
                       xml_escape(filter_.words()));
  }
  out += "<h2>Games by class</h2>\n<table>\n<tr><th>class</th><th>games</th><th>meaning</th></tr>\n";
  for (DiffClass c : {DiffClass::Unchanged, DiffClass::Findings, DiffClass::Outcome, DiffClass::Undetermined}) {
    if (!filter_.admits(c)) continue;
    out += fmt::format("<tr class=\"{0}\"><td>{0}</td><td class=\"n\">{1}</td><td>{2}</td></tr>\n", to_string(c),
                       count(c), kClassMeaning[static_cast<int>(c)]);
  }
  if (errors_) out += fmt::format("<tr><td>errors</td><td class=\"n\">{}</td><td>could not be compared</td></tr>\n", errors_);
  out += "</table>\n";
  out += fmt::format("<h2>Rules whose findings change</h2>\n<p>{} new, {} gone.</p>\n", added_, removed_);
  out += "<table>\n<tr><th>rule</th><th>games</th><th>new</th><th>gone</th></tr>\n";
  for (const auto& [id, r] : top_rules()) {
    out += fmt::format("<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td></tr>\n",
                       xml_escape(id), r.games, r.added, r.removed);
  }
  out += "</table>\n<h2>Where games first diverge</h2>\n" + turn_chart(turns_);
  if (flips_.empty()) {
    out += "<h2>Outcome flips</h2>\n<p>None.</p>\n";
  } else {
    out += fmt::format("<h2>First outcome flips (of {})</h2>\n", count(DiffClass::Outcome));
    out += "<table>\n<tr><th>game</th><th>title</th><th>outcome</th></tr>\n";
    for (const Flip& f : flips_) {
      out += fmt::format("<tr class=\"outcome\"><td class=\"n\">{}</td><td>{}</td><td>{}</td></tr>\n", f.game,
                         xml_escape(f.title), xml_escape(f.words));
    }
    out += "</table>\n";
  }
  out += "<h2>Changed games</h2>\n<table>\n<tr><th>game</th><th>class</th><th>first divergence</th><th>what differs "
         "there</th><th>not followable from</th><th>outcome</th><th>findings</th></tr>\n";
  return out;
}

std::string DiffSummary::html_tail() { return "</table>\n</body>\n</html>\n"; }

std::string diff_html_row(const GameDiff& d) {
  if (!d.first) return "";
  const std::string k(to_string(d.klass()));
  std::string differences;
  for (const auto& s : d.first->differences) differences += "<li>" + xml_escape(s) + "</li>";
  if (differences.empty()) differences = "<li>the same state; only the findings differ</li>";
  const std::string unfollowable =
      d.undetermined ? xml_escape(moment_words(d.undetermined->at, d.game) + ": " +
                                   std::string(d.undetermined->because.finding.rule_id) + " " +
                                   d.undetermined->because.finding.message)
                     : std::string();
  const std::string outcome = d.undetermined                 ? "as recorded, " + outcome_words(d.base, d.game) + "; under the candidate, undetermined"
                              : d.klass() == DiffClass::Outcome ? flip_words(d)
                                                                : "unchanged: " + outcome_words(d.base, d.game);
  return fmt::format(
      "<tr class=\"{0}\"><td class=\"n\">{1} {2}</td><td>{0}</td><td>{3}</td><td><ul>{4}</ul></td><td>{5}</td>"
      "<td>{6}</td><td class=\"n\">+{7} -{8}</td></tr>\n",
      k, d.game.id, xml_escape(d.game.title), xml_escape(moment_words(*d.first, d.game)), differences, unfollowable,
      xml_escape(outcome), d.added.size(), d.removed.size());
}

}  // namespace warlog::replay
