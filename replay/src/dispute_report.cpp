#include "warlog/replay/dispute_report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <variant>

#include "warlog/core/finding.hpp"
#include "warlog/replay/board.hpp"
#include "warlog/replay/event_text.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rests_on.hpp"
#include "warlog/replay/rule_diff.hpp"
#include "warlog/replay/rule_text.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::replay {

namespace {

// What both formats say, gathered once; each format only lays it out.
struct Facts {
  DisputeId id;
  GameSummary game;
  Dispute dispute;
  std::vector<core::Event> around;  // events_before .. events_after around the disputed one
  core::Event disputed;
  std::vector<LocatedFinding> findings;  // at the disputed seq
  std::string audit_error;               // why there are no findings to show, if the audit failed
  std::string result;                    // the game's result as the audit derives it, and what it rests on
  std::vector<std::string> rule_ids_here;  // of the findings at the disputed seq, for the expectation
  Board before;
  Board after;
  std::vector<core::Space> marked;
  std::string ruleset_name;
  std::string chain_line;  // verify's verdict
  bool chain_ok = false;
  std::string trust_line;  // who attests it (assess_game)
  std::vector<std::string> trust_notes;
  Expected<std::filesystem::path> rules_folder = make_error(ErrorCode::NotFound, "not looked for");
};

std::string status_text(const Dispute& d) {
  const core::DisputeRuled* r = d.in_force();
  if (r == nullptr) return "open: no ruling yet";
  // The last ruling is the one in force: its number says how many came before.
  return fmt::format("{}: ruling {} in force, by {}", r->status == core::DisputeStatus::Open ? "reopened" : "resolved",
                     d.rulings.size(), r->ruled_by);
}

// Whether today's audit agrees with what a ruling expects there.
std::string expectation_now(const core::Expectation& e, const std::vector<std::string>& ids_here, bool audited) {
  if (!audited) return "the audit could not run, so whether it holds is unknown";
  const bool found = std::find(ids_here.begin(), ids_here.end(), e.rule_id) != ids_here.end();
  return found == e.present ? "holds today" : "does NOT hold today (the engine disagrees with the ruling)";
}

std::string where_text(const core::Event& ev) {
  return ev.turn == 0 ? std::string("Setup") : fmt::format("turn {}, {}", ev.turn, phase_title(ev.phase));
}

std::string who_text(const core::Event& ev, const std::vector<core::SeatSetup>& seats) {
  return ev.seat == core::kNoSeat ? std::string("table") : fmt::format("{} (seat {})", seat_name(seats, ev.seat), ev.seat + 1);
}

std::string what_text(const core::Event& ev, const std::vector<core::SeatSetup>& seats) {
  std::string out(core::payload_name(ev.payload));
  const std::string detail = payload_detail(ev.payload, seats, ev.seat);
  if (!detail.empty()) out += " " + detail;
  return out;
}

// "Lukas (seat 2): 'Briar Archer' on e3 is Lost ... (concerning seq N)".
std::string finding_line(const LocatedFinding& lf, const std::vector<core::SeatSetup>& seats) {
  const std::string who =
      lf.seat == core::kNoSeat ? std::string("table") : fmt::format("{} (seat {})", seat_name(seats, lf.seat), lf.seat + 1);
  return fmt::format("{}: {}{} ({}, {})", who, lf.finding.message, concerning(lf.finding),
                     core::to_string(lf.finding.basis), core::to_string(lf.finding.severity));
}

std::string signature_text(const core::DisputeRuled& r) {
  if (!r.signature) return {};
  return fmt::format("signed by {} with key {} (warlog verify checks it)", r.ruled_by,
                     store::key_id_hex(r.signature->key_id));
}

Expected<Facts> gather(const Archive& archive, const DisputeId& id, const Keyring& keyring,
                       const DisputeReportOptions& options) {
  Facts f;
  f.id = id;
  auto d = find_dispute(archive, id);
  if (!d) return tl::unexpected(d.error());
  f.dispute = std::move(*d);
  auto game = archive.game(id.game);
  if (!game) return tl::unexpected(game.error());
  f.game = std::move(*game);
  auto events = archive.events(id.game);
  if (!events) return tl::unexpected(events.error());
  if (id.seq >= events->size()) {
    return make_error(ErrorCode::DataLoss, fmt::format("dispute {}: game {} has no event {}", to_string(id), id.game, id.seq));
  }
  f.disputed = (*events)[id.seq];
  const core::Seq from = id.seq > options.events_before ? id.seq - options.events_before : 0;
  const core::Seq to = std::min<core::Seq>(events->size(), id.seq + options.events_after + 1);
  f.around.assign(events->begin() + static_cast<std::ptrdiff_t>(from), events->begin() + static_cast<std::ptrdiff_t>(to));

  auto catalog = archive.catalog_of(id.game);
  if (!catalog) return tl::unexpected(catalog.error());
  auto ruleset = archive.ruleset_of(id.game);
  if (!ruleset) return tl::unexpected(ruleset.error());
  f.ruleset_name = ruleset->name;
  const core::Context ctx{*catalog, *ruleset};
  const core::GameState before = id.seq == 0 ? core::GameState{} : moment_at(ctx, *events, id.seq - 1).state;
  const core::GameState after = moment_at(ctx, *events, id.seq).state;
  f.before = board_of(before, *catalog, *ruleset);
  f.after = board_of(after, *catalog, *ruleset);

  std::optional<VerifyResult> verified;  // the audit's own walk checked the game
  AuditOptions with_rests;
  with_rests.rests_on = true;  // the result, and the violations it rests on
  if (auto audit = archive.audit(id.game, with_rests)) {
    for (const LocatedFinding& lf : audit->findings) {
      if (lf.finding.seq == id.seq) {
        f.findings.push_back(lf);
        f.rule_ids_here.emplace_back(lf.finding.rule_id);
      }
    }
    f.result = describe(outcome_of(audit->final_state), f.game);
    if (audit->rests_on && !audit->rests_on->result.empty()) {
      f.result += " (rests on " + violations_text(audit->rests_on->result) + ")";
    }
    verified = audit->verified;
  } else {
    f.audit_error = audit.error().message;
  }
  // Marked: the spaces the event names, and those of the events its
  // findings concern (a finding of a part's close concerns the event that
  // opened it), as the viewer marks them.
  f.marked = event_spaces(f.disputed.payload);
  for (const LocatedFinding& lf : f.findings) {
    if (lf.finding.concerns >= events->size()) continue;
    add_event_spaces(f.marked, (*events)[lf.finding.concerns].payload);
  }

  if (!verified) {
    auto v = archive.verify(id.game);
    if (!v) return tl::unexpected(v.error());
    verified = std::move(*v);
  }
  f.chain_ok = verified->ok;
  f.chain_line = verified->ok ? verified->detail
                              : fmt::format("BROKEN at seq {}: {} (warlog verify says more)",
                                            verified->first_bad_seq.value_or(0), verified->detail);
  if (auto trust = assess_game(archive, id.game, keyring)) {
    f.trust_line = attestation_line(*trust, f.chain_ok);  // as verify and audit say it
    f.trust_notes = trust->notes;
  } else {
    f.trust_line = "cannot be checked: " + trust.error().message;
  }
  f.rules_folder = find_rules_folder(options.rules);
  return f;
}

// What the two boards show, for a reader who sees a Troop gone at once.
std::string board_note(const Facts& f) {
  std::string note = "Framed: the spaces the event and its findings concern.";
  if (std::holds_alternative<core::CombatResolved>(f.disputed.payload)) {
    note += " The fold removes a Troop brought to 0 Vitality when its combat resolves, so the board after it "
            "shows the defeats already; the TroopDefeated events after it record them.";
  }
  return note;
}

std::string caption(const Facts& f, bool after) {
  return after ? fmt::format("After seq {}: {}", f.id.seq, what_text(f.disputed, f.game.seats))
               : fmt::format("Before seq {}", f.id.seq);
}

// --- HTML (XHTML) --------------------------------------------------------------------

std::string h(std::string_view s) { return xml_escape(s); }

std::string html(const Facts& f, const std::string& title, const std::string& svg_before, const std::string& svg_after) {
  const auto& seats = f.game.seats;
  std::string o;
  o += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE html>\n";
  o += "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n<head>\n";
  o += "<meta charset=\"UTF-8\"/>\n";
  o += fmt::format("<title>{}</title>\n", h(title));
  o += "<style>\n"
       "body{font-family:sans-serif;max-width:62em;margin:1em auto;padding:0 1em;color:#1a1a1a}\n"
       "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #c8c4b8;padding:.2em .5em;text-align:left;"
       "vertical-align:top}\n"
       "tr.disputed{background:#fff3c4;font-weight:bold}\n"
       "blockquote{margin:.5em 0;padding:.3em 1em;border-left:4px solid #c8c4b8;background:#faf8f2}\n"
       "pre.rule{white-space:pre-wrap;font-family:serif;margin:0}\n"
       ".violation{color:#c62828}.warning{color:#8a5a00}\n"
       "figure{margin:.5em 0}figure svg{max-width:100%;height:auto}\n"
       "@media print{figure{page-break-inside:avoid}}\n"
       "</style>\n</head>\n<body>\n";
  o += fmt::format("<h1>{}</h1>\n<p>{}</p>\n", h(title), h(status_text(f.dispute)));

  o += "<h2>The game</h2>\n<table>\n";
  o += fmt::format("<tr><th>Game</th><td>{} \u00b7 {} ({})</td></tr>\n", f.game.id, h(f.game.title), h(f.game.date));
  for (std::size_t i = 0; i < seats.size(); ++i) {
    o += fmt::format("<tr><th>Seat {}</th><td>{} ({})</td></tr>\n", i + 1, h(seats[i].player),
                     h(core::to_string(seats[i].allegiance)));
  }
  o += fmt::format("<tr><th>Events</th><td>{}</td></tr>\n", f.game.events);
  if (!f.result.empty()) o += fmt::format("<tr><th>Result</th><td>{}</td></tr>\n", h(f.result));
  o += fmt::format("<tr><th>Ruleset</th><td>{} ({})</td></tr>\n", h(f.ruleset_name), h(f.game.ruleset_hash.substr(0, 16)));
  o += fmt::format("<tr><th>Catalog</th><td>{}</td></tr>\n</table>\n", h(f.game.catalog_hash.substr(0, 16)));

  o += "<h2>The claim</h2>\n";
  o += fmt::format("<blockquote><p>{}</p></blockquote>\n<p>Raised by {}{} about seq {} ({}, {}).</p>\n",
                   h(f.dispute.raised.claim), h(f.dispute.raised.raised_by),
                   f.dispute.raised.created_at.empty() ? "" : " at " + h(f.dispute.raised.created_at), f.id.seq,
                   h(where_text(f.disputed)), h(who_text(f.disputed, seats)));
  if (!f.dispute.raised.citations.empty()) {
    o += "<ul>\n";
    for (const auto& c : f.dispute.raised.citations) o += fmt::format("<li>cites {}</li>\n", h(citation_words(c)));
    o += "</ul>\n";
  }

  o += "<h2>The events around it</h2>\n<table>\n<tr><th>seq</th><th>when</th><th>who</th><th>event</th></tr>\n";
  for (const core::Event& ev : f.around) {
    o += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                     ev.seq == f.id.seq ? " class=\"disputed\"" : "", ev.seq, h(where_text(ev)), h(who_text(ev, seats)),
                     h(what_text(ev, seats)));
  }
  o += "</table>\n";

  // On a page of its own when printed: the two boards together.
  o += "<h2 style=\"page-break-before: always\">The board before and after</h2>\n";
  o += fmt::format("<p>{}</p>\n", h(board_note(f)));
  o += fmt::format("<figure>\n{}</figure>\n", svg_before);
  o += fmt::format("<figure>\n{}</figure>\n", svg_after);

  o += fmt::format("<h2>What the audit finds at seq {}</h2>\n", f.id.seq);
  if (!f.audit_error.empty()) o += fmt::format("<p>The audit could not run: {}</p>\n", h(f.audit_error));
  if (f.audit_error.empty() && f.findings.empty()) o += fmt::format("<p>Nothing: no finding at seq {}.</p>\n", f.id.seq);
  for (const LocatedFinding& lf : f.findings) {
    const std::string_view sev = core::to_string(lf.finding.severity);
    o += fmt::format("<h3><span class=\"{}\">{} {}</span> ({})</h3>\n<p>{}</p>\n", h(sev), h(lf.finding.rule_id), h(sev),
                     h(lf.citation), h(finding_line(lf, seats)));
    const core::Rule* rule = core::find_rule(lf.finding.rule_id);
    if (rule == nullptr) continue;
    auto section = rule_section(*rule, f.rules_folder);
    if (section) {
      o += fmt::format("<p><i>{}, lines {}\u2013{}:</i></p>\n<blockquote><pre class=\"rule\">{}</pre></blockquote>\n",
                       h(section->document), section->lines.first, section->lines.last, h(section->text));
    } else {
      o += fmt::format("<p><i>The rule's own words cannot be shown: {}</i></p>\n", h(section.error().message));
    }
  }

  o += "<h2>Rulings</h2>\n";
  if (f.dispute.rulings.empty()) o += "<p>None yet.</p>\n";
  for (std::size_t i = 0; i < f.dispute.rulings.size(); ++i) {
    const core::DisputeRuled& r = f.dispute.rulings[i];
    const bool superseded = i + 1 < f.dispute.rulings.size();
    o += fmt::format("<h3>Ruling {}{}</h3>\n<p>By {}{}: {}</p>\n<blockquote><p>{}</p></blockquote>\n", i + 1,
                     superseded ? " (superseded)" : " (in force)", h(r.ruled_by), r.ruled_at.empty() ? "" : " at " + h(r.ruled_at),
                     r.status == core::DisputeStatus::Open ? "reopened" : "resolved", h(r.ruling));
    std::string items;
    if (r.expectation) {
      items += fmt::format("<li>expects: {}; {}</li>\n", h(expectation_words(*r.expectation, f.id.seq)),
                           h(expectation_now(*r.expectation, f.rule_ids_here, f.audit_error.empty())));
    }
    for (const auto& c : r.citations) items += fmt::format("<li>cites {}</li>\n", h(citation_words(c)));
    if (r.signature) items += fmt::format("<li>{}</li>\n", h(signature_text(r)));
    if (!items.empty()) o += "<ul>\n" + items + "</ul>\n";
  }

  o += "<h2>Chain and signatures</h2>\n<table>\n";
  o += fmt::format("<tr><th>Chain</th><td>{}</td></tr>\n", h(f.chain_line));
  o += fmt::format("<tr><th>Signatures</th><td>{}</td></tr>\n</table>\n", h(f.trust_line));
  if (!f.trust_notes.empty()) {
    o += "<ul>\n";
    for (const auto& n : f.trust_notes) o += fmt::format("<li>{}</li>\n", h(n));
    o += "</ul>\n";
  }
  o += "<p><small>Made by warlog from the store as it stood; the chain and signature lines above are what "
       "<code>warlog verify</code> says of it.</small></p>\n";
  o += "</body>\n</html>\n";
  return o;
}

// --- Markdown ------------------------------------------------------------------------

// What a person typed, as Markdown text: '&' and '<' as entities, so that
// no typed "<!--" or tag hides or changes the rest of the file.
std::string md(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else {
      out += c;
    }
  }
  return out;
}

// A fenced block that no run of backticks inside it can close.
std::string fenced(std::string_view text) {
  std::size_t longest = 0;
  std::size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(std::max<std::size_t>(3, longest + 1), '`');
  return fence + "text\n" + std::string(text) + fence + "\n";
}

// A table cell: one line, pipes escaped, typed text as md() has it.
std::string cell(std::string_view typed) {
  const std::string s = md(typed);
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// Quoted lines ("> ..."), every line of `s`.
std::string md_quote(std::string_view s) {
  std::string out;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t nl = s.find('\n', at);
    const std::string_view line = s.substr(at, nl == std::string_view::npos ? std::string_view::npos : nl - at);
    if (!(nl == std::string_view::npos && line.empty())) out += line.empty() ? ">\n" : fmt::format("> {}\n", line);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return out;
}

std::string markdown(const Facts& f, const std::string& title) {
  const auto& seats = f.game.seats;
  std::string o = fmt::format("# {}\n\n{}\n\n", md(title), md(status_text(f.dispute)));
  o += "## The game\n\n| | |\n|---|---|\n";
  o += fmt::format("| Game | {} · {} ({}) |\n", f.game.id, cell(f.game.title), cell(f.game.date));
  for (std::size_t i = 0; i < seats.size(); ++i) {
    o += fmt::format("| Seat {} | {} ({}) |\n", i + 1, cell(seats[i].player), core::to_string(seats[i].allegiance));
  }
  o += fmt::format("| Events | {} |\n", f.game.events);
  if (!f.result.empty()) o += fmt::format("| Result | {} |\n", cell(f.result));
  o += fmt::format("| Ruleset | {} ({}) |\n| Catalog | {} |\n\n", cell(f.ruleset_name), f.game.ruleset_hash.substr(0, 16),
                   f.game.catalog_hash.substr(0, 16));
  o += "## The claim\n\n" + md_quote(md(f.dispute.raised.claim)) + "\n";
  o += fmt::format("Raised by {}{} about seq {} ({}, {}).\n\n", md(f.dispute.raised.raised_by),
                   f.dispute.raised.created_at.empty() ? "" : " at " + md(f.dispute.raised.created_at), f.id.seq,
                   where_text(f.disputed), md(who_text(f.disputed, seats)));
  for (const auto& c : f.dispute.raised.citations) o += fmt::format("- cites {}\n", md(citation_words(c)));
  if (!f.dispute.raised.citations.empty()) o += "\n";
  o += "## The events around it\n\n| seq | when | who | event |\n|---|---|---|---|\n";
  for (const core::Event& ev : f.around) {
    const bool here = ev.seq == f.id.seq;
    o += fmt::format("| {}{}{} | {} | {} | {} |\n", here ? "**" : "", ev.seq, here ? "**" : "", cell(where_text(ev)),
                     cell(who_text(ev, seats)), cell(what_text(ev, seats)));
  }
  o += "\n## The board before and after\n\n" + md(board_note(f)) + "\n\n";
  o += fmt::format("{}:\n\n{}\n", md(caption(f, false)), fenced(board_text(f.before, seats, f.marked)));
  o += fmt::format("{}:\n\n{}\n", md(caption(f, true)), fenced(board_text(f.after, seats, f.marked)));
  o += fmt::format("## What the audit finds at seq {}\n\n", f.id.seq);
  if (!f.audit_error.empty()) o += fmt::format("The audit could not run: {}\n\n", md(f.audit_error));
  if (f.audit_error.empty() && f.findings.empty()) o += fmt::format("Nothing: no finding at seq {}.\n\n", f.id.seq);
  for (const LocatedFinding& lf : f.findings) {
    o += fmt::format("### {} {} ({})\n\n{}\n\n", lf.finding.rule_id, core::to_string(lf.finding.severity), lf.citation,
                     md(finding_line(lf, seats)));
    const core::Rule* rule = core::find_rule(lf.finding.rule_id);
    if (rule == nullptr) continue;
    auto section = rule_section(*rule, f.rules_folder);
    if (section) {
      o += fmt::format("*{}, lines {}–{}:*\n\n{}\n", section->document, section->lines.first, section->lines.last,
                       md_quote(section->text));
    } else {
      o += fmt::format("*The rule's own words cannot be shown: {}*\n\n", section.error().message);
    }
  }
  o += "## Rulings\n\n";
  if (f.dispute.rulings.empty()) o += "None yet.\n\n";
  for (std::size_t i = 0; i < f.dispute.rulings.size(); ++i) {
    const core::DisputeRuled& r = f.dispute.rulings[i];
    const bool superseded = i + 1 < f.dispute.rulings.size();
    o += fmt::format("### Ruling {}{}\n\nBy {}{}: {}\n\n{}\n", i + 1, superseded ? " (superseded)" : " (in force)",
                     md(r.ruled_by), r.ruled_at.empty() ? "" : " at " + md(r.ruled_at),
                     r.status == core::DisputeStatus::Open ? "reopened" : "resolved", md_quote(md(r.ruling)));
    if (r.expectation) {
      o += fmt::format("- expects: {}; {}\n", expectation_words(*r.expectation, f.id.seq),
                       expectation_now(*r.expectation, f.rule_ids_here, f.audit_error.empty()));
    }
    for (const auto& c : r.citations) o += fmt::format("- cites {}\n", md(citation_words(c)));
    if (r.signature) o += fmt::format("- {}\n", md(signature_text(r)));
    o += "\n";
  }
  o += "## Chain and signatures\n\n";
  o += fmt::format("- Chain: {}\n- Signatures: {}\n", md(f.chain_line), md(f.trust_line));
  for (const auto& n : f.trust_notes) o += fmt::format("  - {}\n", md(n));
  o += "\nMade by warlog from the store as it stood; the chain and signature lines above are what `warlog verify` "
       "says of it.\n";
  return o;
}

}  // namespace

Expected<DisputeReport> dispute_report(const Archive& archive, const DisputeId& id, const Keyring& keyring,
                                       const DisputeReportOptions& options) {
  auto f = gather(archive, id, keyring, options);
  if (!f) return tl::unexpected(f.error());
  DisputeReport r;
  r.title = fmt::format("Dispute {}: {}", to_string(id), f->game.title);
  r.board_before = board_svg(f->before, f->game.seats, f->marked, caption(*f, false));
  r.board_after = board_svg(f->after, f->game.seats, f->marked, caption(*f, true));
  r.chain_ok = f->chain_ok;
  r.text = options.format == DisputeReportFormat::Html ? html(*f, r.title, r.board_before, r.board_after)
                                                       : markdown(*f, r.title);
  return r;
}

}  // namespace warlog::replay
