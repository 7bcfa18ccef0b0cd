// Disputes over the store's append-only annotations (disputes.hpp).

#include "warlog/replay/disputes.hpp"

#include <charconv>
#include <fmt/format.h>

#include "warlog/core/finding.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace {

bool blank(std::string_view s) { return s.find_first_not_of(" \t\r\n") == std::string_view::npos; }

std::vector<core::Citation> citations_of(const std::vector<std::string>& texts) {
  std::vector<core::Citation> out;
  for (const auto& t : texts) {
    if (!blank(t)) out.push_back(make_citation(t));
  }
  return out;
}

// Folds annotation records (key order) into disputes: a ruling is kept at its
// dispute's event, after it, so one pass sees each dispute before its rulings.
std::vector<Dispute> fold(const std::vector<store::AnnotationRecord>& records) {
  std::vector<Dispute> out;
  for (const auto& r : records) {
    if (const auto* raised = std::get_if<core::DisputeRaised>(&r.value)) {
      out.push_back(Dispute{DisputeId{r.game, r.seq, r.n}, *raised, {}});
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

core::Citation make_citation(std::string_view text) {
  // A renamed rule's old id is recorded as the id it has now.
  if (const core::Rule* r = core::find_rule(text)) return core::Citation{core::Citation::Kind::Rule, std::string(r->id)};
  return core::Citation{core::Citation::Kind::Text, std::string(text)};
}

Expected<DisputeId> add_dispute(const Archive& archive, const NewDispute& d) {
  if (blank(d.claim)) return make_error(ErrorCode::InvalidArgument, "a dispute needs a claim (--claim)");
  if (blank(d.raised_by)) return make_error(ErrorCode::InvalidArgument, "a dispute needs who raises it (--by)");
  core::DisputeRaised raised{d.claim, d.raised_by, citations_of(d.citations), d.created_at};
  auto n = archive.store().append_annotation(d.game, d.seq, raised);
  if (!n) return tl::unexpected(n.error());
  return DisputeId{d.game, d.seq, *n};
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

Expected<Dispute> find_dispute(const Archive& archive, const DisputeId& id) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto records = reader->annotations_at(id.game, id.seq);
  if (!records) return tl::unexpected(records.error());
  for (auto& d : fold(*records)) {
    if (d.id == id) return std::move(d);
  }
  return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
}

Expected<Dispute> resolve_dispute(const Archive& archive, const DisputeId& id, const NewRuling& r) {
  if (blank(r.ruling)) return make_error(ErrorCode::InvalidArgument, "a ruling needs its text (--ruling)");
  if (blank(r.ruled_by)) return make_error(ErrorCode::InvalidArgument, "a ruling needs who rules (--by)");
  if (r.expectation && core::find_rule(r.expectation->rule_id) == nullptr) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("no rule '{}' (warlog rules lists them)", r.expectation->rule_id));
  }
  // Read the history, then append expecting it unchanged: a ruling made in
  // between by another judge is a Conflict, never silently superseded.
  std::uint32_t next_n = 0;
  Dispute dispute;
  {
    auto reader = archive.store().reader();
    if (!reader) return tl::unexpected(reader.error());
    auto records = reader->annotations_at(id.game, id.seq);
    if (!records) return tl::unexpected(records.error());
    next_n = static_cast<std::uint32_t>(records->size());
    bool found = false;
    for (auto& d : fold(*records)) {
      if (d.id == id) {
        dispute = std::move(d);
        found = true;
      }
    }
    if (!found) return make_error(ErrorCode::NotFound, fmt::format("no dispute {}", to_string(id)));
  }
  if (dispute.status() == core::DisputeStatus::Resolved && !r.supersede) {
    const core::DisputeRuled& was = *dispute.in_force();
    return make_error(ErrorCode::Conflict,
                      fmt::format("dispute {} was resolved by {}{}; to rule again (an appeal), pass --supersede",
                                  to_string(id), was.ruled_by, was.ruled_at.empty() ? "" : " at " + was.ruled_at));
  }
  core::DisputeRuled ruled;
  ruled.dispute = id.n;
  ruled.status = core::DisputeStatus::Resolved;
  ruled.ruling = r.ruling;
  ruled.ruled_by = r.ruled_by;
  ruled.citations = citations_of(r.citations);
  ruled.expectation = r.expectation;
  // Recorded under the rule's id now, should the judge have typed an old one.
  if (ruled.expectation) ruled.expectation->rule_id = std::string(core::find_rule(ruled.expectation->rule_id)->id);
  ruled.ruled_at = r.ruled_at;
  auto n = archive.store().append_annotation(id.game, id.seq, ruled, next_n);
  if (!n) return tl::unexpected(n.error());
  dispute.rulings.push_back(std::move(ruled));
  return dispute;
}

}  // namespace warlog::replay
