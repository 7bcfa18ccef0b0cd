// Disputes over the store's append-only annotations (disputes.hpp).

#include "warlog/replay/disputes.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "warlog/core/finding.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::vector<core::Citation> citations_of(const std::vector<std::string>& texts,
                                         const std::vector<std::string>& free_texts) {
  std::vector<core::Citation> out;
  for (const auto& t : texts) {
    if (!blank(t)) out.push_back(make_citation(t));
  }
  for (const auto& t : free_texts) {
    if (!blank(t)) out.push_back(core::Citation{core::Citation::Kind::Text, t});
  }
  return out;
}

// Folds annotation records (game, then chain order) into disputes: the N-th
// DisputeRaised about (game, seq) is dispute game:seq:N, and a ruling is
// appended after the dispute it names, so one pass sees each dispute before
// its rulings.
std::vector<Dispute> fold(const std::vector<store::AnnotationRecord>& records) {
  std::vector<Dispute> out;
  std::map<std::pair<core::GameId, core::Seq>, std::uint32_t> raised_at;
  for (const auto& r : records) {
    if (const auto* raised = std::get_if<core::DisputeRaised>(&r.value)) {
      out.push_back(Dispute{DisputeId{r.game, r.seq, raised_at[{r.game, r.seq}]++}, *raised, {}});
    } else if (const auto* ruled = std::get_if<core::DisputeRuled>(&r.value)) {
      const DisputeId target{r.game, r.seq, ruled->dispute};
      for (auto it = out.rbegin(); it != out.rend(); ++it) {
        if (it->id == target) {
          it->rulings.push_back(*ruled);
          break;
        }
      }
    }
  }
  return out;
}

}  // namespace

std::string to_string(const DisputeId& id) { return fmt::format("{}:{}:{}", id.game, id.seq, id.n); }

std::optional<DisputeId> parse_dispute_id(std::string_view text) noexcept {
  DisputeId id;
  const char* p = text.data();
  const char* end = text.data() + text.size();
  auto number = [&](auto& out, bool last) {
    auto r = std::from_chars(p, end, out);
    if (r.ec != std::errc{} || r.ptr == p) return false;
    p = r.ptr;
    if (last) return p == end;
    if (p == end || *p != ':') return false;
    ++p;
    return true;
  };
  if (!number(id.game, false) || !number(id.seq, false) || !number(id.n, true)) return std::nullopt;
  return id;
}

core::DisputeStatus Dispute::status() const noexcept {
  return rulings.empty() ? core::DisputeStatus::Open : rulings.back().status;
}

const core::DisputeRuled* Dispute::in_force() const noexcept { return rulings.empty() ? nullptr : &rulings.back(); }

std::string citation_words(const core::Citation& c) {
  if (c.kind == core::Citation::Kind::Rule) {
    if (const core::Rule* r = core::find_rule(c.text)) return fmt::format("{} ({})", c.text, r->citation);
  }
  return c.text;
}

std::string expectation_words(const core::Expectation& e, core::Seq seq) {
  return e.present ? fmt::format("the audit reports {} at seq {}", e.rule_id, seq)
                   : fmt::format("the audit reports no {} at seq {}", e.rule_id, seq);
}

core::Citation make_citation(std::string_view text) {
  // A renamed rule's old id is recorded as the id it has now.
  if (const core::Rule* r = core::find_rule(text)) return core::Citation{core::Citation::Kind::Rule, std::string(r->id)};
  return core::Citation{core::Citation::Kind::Text, std::string(text)};
}

namespace {

// The game's annotations: the records to fold and the count an append expects.
struct History {
  std::vector<Dispute> disputes;
  std::uint64_t count = 0;
};
Expected<History> history(const Archive& archive, core::GameId game) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  if (auto m = reader->game(game); !m) return tl::unexpected(m.error());
  auto records = reader->annotations(game);
  if (!records) return tl::unexpected(records.error());
  return History{fold(*records), records->size()};
}

}  // namespace

Expected<DisputeId> add_dispute(const Archive& archive, const NewDispute& d, bool* already) {
  if (blank(d.claim)) return make_error(ErrorCode::InvalidArgument, "a dispute needs a claim (--claim)");
  if (blank(d.raised_by)) return make_error(ErrorCode::InvalidArgument, "a dispute needs who raises it (--by)");
  core::DisputeRaised raised{d.claim, d.raised_by, citations_of(d.citations, d.text_citations), d.created_at};
  auto h = history(archive, d.game);
  if (!h) return tl::unexpected(h.error());
  for (const Dispute& old : h->disputes) {
    if (old.id.seq == d.seq && old.raised.claim == raised.claim && old.raised.raised_by == raised.raised_by &&
        old.raised.citations == raised.citations) {
      if (already != nullptr) *already = true;
      return old.id;
    }
  }
  if (already != nullptr) *already = false;
  std::uint32_t n = 0;
  for (const Dispute& old : h->disputes) n += old.id.seq == d.seq ? 1 : 0;
  // Expecting the history read: a dispute raised in between by another
  // writer would change this one's N, so it is a Conflict, never a wrong id.
  auto appended = archive.store().append_annotation(d.game, d.seq, raised, h->count);
  if (!appended) return tl::unexpected(appended.error());
  return DisputeId{d.game, d.seq, n};
}

Expected<std::vector<Dispute>> list_disputes(const Archive& archive, std::optional<core::GameId> game) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  if (game) {
    // An unknown game is an error, not an empty list: a typo should say so.
    if (auto m = reader->game(*game); !m) return tl::unexpected(m.error());
  }
  auto records = reader->annotations(game);
  if (!records) return tl::unexpected(records.error());
  return fold(*records);
}

Expected<std::vector<GameDisputes>> disputes_by_game(const Archive& archive) {
  auto ids = archive.game_ids(/*orphans=*/true);
  if (!ids) return tl::unexpected(ids.error());
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<GameDisputes> out;
  out.reserve(ids->size());
  for (const core::GameId id : *ids) {
    auto records = reader->annotations(id);
    if (records) {
      out.push_back(GameDisputes{id, fold(*records)});
    } else if (records.error().code == ErrorCode::DataLoss || records.error().code == ErrorCode::Unsupported) {
      out.push_back(GameDisputes{id, tl::unexpected(records.error())});
    } else {
      return tl::unexpected(records.error());
    }
  }
  return out;
}

Expected<Dispute> find_dispute(const Archive& archive, const DisputeId& id) {
  auto h = history(archive, id.game);
  if (!h && h.error().code == ErrorCode::NotFound) {
    return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
  }
  if (!h) return tl::unexpected(h.error());
  for (auto& d : h->disputes) {
    if (d.id == id) return std::move(d);
  }
  return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
}

Expected<Dispute> resolve_dispute(const Archive& archive, const DisputeId& id, const NewRuling& r, bool* already) {
  if (blank(r.ruling)) return make_error(ErrorCode::InvalidArgument, "a ruling needs its text (--ruling)");
  if (blank(r.ruled_by)) return make_error(ErrorCode::InvalidArgument, "a ruling needs who rules (--by)");
  if (r.expectation && core::find_rule(r.expectation->rule_id) == nullptr) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("no rule '{}' (warlog rules lists them)", r.expectation->rule_id));
  }
  // Read the history, then append expecting it unchanged: a ruling made in
  // between by another judge is a Conflict, never silently superseded.
  auto h = history(archive, id.game);
  if (!h && h.error().code == ErrorCode::NotFound) {
    return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
  }
  if (!h) return tl::unexpected(h.error());
  auto found = std::find_if(h->disputes.begin(), h->disputes.end(), [&](const Dispute& d) { return d.id == id; });
  if (found == h->disputes.end()) return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
  Dispute dispute = std::move(*found);

  core::DisputeRuled ruled;
  ruled.dispute = id.n;
  ruled.status = core::DisputeStatus::Resolved;
  ruled.ruling = r.ruling;
  ruled.ruled_by = r.ruled_by;
  ruled.citations = citations_of(r.citations, r.text_citations);
  ruled.expectation = r.expectation;
  // Recorded under the rule's id now, should the judge have typed an old one.
  if (ruled.expectation) ruled.expectation->rule_id = std::string(core::find_rule(ruled.expectation->rule_id)->id);
  ruled.ruled_at = r.ruled_at;
  if (const core::DisputeRuled* was = dispute.in_force()) {
    const bool same = was->status == ruled.status && was->ruling == ruled.ruling && was->ruled_by == ruled.ruled_by &&
                      was->citations == ruled.citations && was->expectation == ruled.expectation;
    if (same) {
      if (already != nullptr) *already = true;
      return dispute;
    }
  }
  if (already != nullptr) *already = false;
  if (dispute.status() == core::DisputeStatus::Resolved && !r.supersede) {
    const core::DisputeRuled& was = *dispute.in_force();
    return make_error(ErrorCode::Conflict,
                      fmt::format("dispute {} was resolved by {}{}; to rule again (an appeal), pass --supersede",
                                  to_string(id), was.ruled_by, was.ruled_at.empty() ? "" : " at " + was.ruled_at));
  }
  if (r.key) {
    auto reader = archive.store().reader();
    if (!reader) return tl::unexpected(reader.error());
    auto meta = reader->game(id.game);
    if (!meta) return tl::unexpected(meta.error());
    if (auto s = store::sign_ruling(ruled, id.seq, meta->identity, *r.key, r.signed_at_ms); !s) {
      return tl::unexpected(s.error());
    }
  }
  auto n = archive.store().append_annotation(id.game, id.seq, ruled, h->count);
  if (!n) return tl::unexpected(n.error());
  dispute.rulings.push_back(std::move(ruled));
  return dispute;
}

std::string_view status_word(core::DisputeStatus s) noexcept {
  return s == core::DisputeStatus::Open ? "open" : "resolved";
}

namespace {

nlohmann::json citations_json(const std::vector<core::Citation>& cs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : cs) {
    out.push_back({{"kind", c.kind == core::Citation::Kind::Rule ? "rule" : "text"}, {"text", c.text}});
  }
  return out;
}

}  // namespace

nlohmann::json dispute_json(const Dispute& d, const std::string& title) {
  nlohmann::json rulings = nlohmann::json::array();
  for (const auto& r : d.rulings) {
    nlohmann::json e = nullptr;
    if (r.expectation) e = {{"rule", r.expectation->rule_id}, {"present", r.expectation->present}};
    rulings.push_back({{"status", status_word(r.status)},
                       {"ruling", r.ruling},
                       {"ruled_by", r.ruled_by},
                       {"ruled_at", r.ruled_at},
                       {"citations", citations_json(r.citations)},
                       {"expectation", e},
                       {"signed_by_key", r.signature ? nlohmann::json(store::key_id_hex(r.signature->key_id))
                                                     : nlohmann::json(nullptr)}});
  }
  return {{"id", to_string(d.id)},          {"game", d.id.game},
          {"title", title},
          {"seq", d.id.seq},                         {"status", status_word(d.status())},
          {"claim", d.raised.claim},                 {"raised_by", d.raised.raised_by},
          {"created_at", d.raised.created_at},       {"citations", citations_json(d.raised.citations)},
          {"rulings", rulings}};
}


}  // namespace warlog::replay
