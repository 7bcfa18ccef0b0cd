// FindingList: findings as compact rows over one arena of message text.

#include "warlog/replay/finding_list.hpp"

#include <algorithm>
#include <functional>

namespace warlog::replay {

namespace {
constexpr std::uint64_t kMaxLength = (std::uint64_t{1} << 24) - 1;
}

std::string_view FindingList::text_of(std::uint64_t text) const noexcept {
  return std::string_view(arena_).substr(static_cast<std::size_t>(text >> 24),
                                         static_cast<std::size_t>(text & kMaxLength));
}

std::uint64_t FindingList::intern(std::string_view message) {
  message = message.substr(0, static_cast<std::size_t>(kMaxLength));
  if (recent_.empty()) recent_.assign(kRecent, 0);
  std::uint64_t& slot = recent_[std::hash<std::string_view>{}(message) & (kRecent - 1)];
  if (slot != 0 && text_of(slot - 1) == message) return slot - 1;
  const std::uint64_t text = (static_cast<std::uint64_t>(arena_.size()) << 24) | message.size();
  arena_.append(message);
  slot = text + 1;
  return text;
}

void FindingList::push_back(const core::Finding& f, std::uint16_t turn, core::Phase phase, core::Seat seat) {
  const core::Rule* rule = core::find_rule(f.rule_id);
  const auto index = rule != nullptr ? static_cast<std::uint16_t>(rule - core::all_rules().data()) : kUnknownRule;
  if (f.concerns != f.seq) concerns_.push_back(Concern{rows_.size(), f.concerns});
  rows_.push_back(Row{f.seq, f.rule_id, intern(f.message), turn, index, phase, seat, f.severity, f.basis});
}

core::Seq FindingList::concerns(std::size_t i) const noexcept {
  const auto it = std::lower_bound(concerns_.begin(), concerns_.end(), i,
                                   [](const Concern& c, std::size_t row) { return c.row < row; });
  return it != concerns_.end() && it->row == i ? it->seq : rows_[i].seq;
}

FindingView FindingList::at(std::size_t i) const noexcept {
  const Row& r = rows_[i];
  const std::string_view citation = r.rule != kUnknownRule ? core::all_rules()[r.rule].citation : std::string_view{};
  return FindingView{r.seq, r.rule_id, r.severity, r.basis, r.turn, r.phase, r.seat, text_of(r.text), citation};
}

LocatedFinding FindingList::located(std::size_t i) const {
  const FindingView v = at(i);
  LocatedFinding out;
  out.finding = core::Finding{v.seq, v.rule_id, v.severity, v.basis, std::string(v.message), v.seat, concerns(i)};
  out.turn = v.turn;
  out.phase = v.phase;
  out.seat = v.seat;
  out.citation = v.citation;
  return out;
}

std::size_t FindingList::upper_bound(core::Seq seq) const noexcept {
  const auto it =
      std::upper_bound(rows_.begin(), rows_.end(), seq, [](core::Seq s, const Row& r) { return s < r.seq; });
  return static_cast<std::size_t>(it - rows_.begin());
}

std::size_t FindingList::violations() const noexcept {
  return static_cast<std::size_t>(std::count_if(
      rows_.begin(), rows_.end(), [](const Row& r) { return r.severity == core::Severity::Violation; }));
}

void FindingList::truncate(std::size_t n) noexcept {
  if (n >= rows_.size()) return;
  rows_.resize(n);
  while (!concerns_.empty() && concerns_.back().row >= n) concerns_.pop_back();
}

std::size_t FindingList::heap_bytes() const noexcept {
  return rows_.capacity() * sizeof(Row) + concerns_.capacity() * sizeof(Concern) + arena_.capacity() +
         recent_.capacity() * sizeof(std::uint64_t);
}

}  // namespace warlog::replay
