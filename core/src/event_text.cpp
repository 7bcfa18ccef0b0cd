// check_event_text: one overload per payload, no catch-all, so a payload
// added with a text field does not compile until it is checked here.

#include <fmt/format.h>

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "warlog/core/event.hpp"
#include "warlog/core/text.hpp"

namespace warlog::core {

namespace {

class TextChecker {
 public:
  explicit TextChecker(std::string_view payload) : payload_(payload) {}

  // --- Setup
  void operator()(const GameCreated& p) {
    text("title", p.title);
    text("date", p.date);
    text("ruleset_hash", p.ruleset_hash);
    text("catalog_hash", p.catalog_hash);
    for (std::size_t i = 0; i < p.seats.size(); ++i) text("seats", p.seats[i].player, i, ".player");
    for (std::size_t i = 0; i < p.territories.size(); ++i) text("territories", p.territories[i].card, i, ".card");
    text("event", p.event);
  }
  void operator()(const ArmyRegistered& p) {
    counts("army", p.army);
    counts("orders", p.orders);
  }
  // --- Turn frame
  void operator()(const TurnStarted&) {}
  void operator()(const MoraleChecked&) {}
  void operator()(const PhaseStarted&) {}
  void operator()(const GameEnded&) {}
  // --- Muster
  void operator()(const CardsDrawn& p) { names("cards", p.cards); }
  void operator()(const Foraged& p) { text("card", p.card); }
  void operator()(const ReturnedFromHomeland& p) { text("card", p.card); }
  void operator()(const GambitStocked& p) { text("card", p.card); }
  void operator()(const CardPlayed& p) { text("card", p.card); }
  void operator()(const TroopMoved&) {}
  void operator()(const TroopsShifted&) {}
  void operator()(const AbilityUsed& p) { text("ability", p.ability); }
  void operator()(const TroopBurrowed&) {}
  void operator()(const TroopUnburrowed&) {}
  // --- Warfare
  void operator()(const ShotteFired&) {}
  void operator()(const ChargeDeclared&) {}
  void operator()(const ChargeDeclined&) {}
  void operator()(const LocalFavorUsed& p) { text("option", p.option); }
  void operator()(const CombatResolved&) {}
  void operator()(const TroopLost&) {}
  void operator()(const TroopDefeated&) {}
  // --- Attrition
  void operator()(const LostTroopRecovered&) {}
  void operator()(const ProvisionsPaid& p) {
    items("paid", p.paid);
    items("unpaid", p.unpaid);
  }
  void operator()(const CardsDiscarded& p) { names("cards", p.cards); }
  void operator()(const TerritoryControlTaken&) {}
  void operator()(const TroopFled&) {}
  // --- Corrections (a backup's signature is bytes, not text)
  void operator()(const Voided& p) {
    text("reason", p.reason);
    text("by", p.by);
  }
  void operator()(const BackupTo& p) {
    text("reason", p.reason);
    text("by", p.by);
  }

  [[nodiscard]] const std::optional<std::string>& error() const { return error_; }

 private:
  // The field's name is only formatted for a fault: this runs on every
  // event the store takes in.
  void text(std::string_view field, std::string_view value, std::optional<std::size_t> index = std::nullopt,
            std::string_view member = {}) {
    if (error_) return;
    if (const auto fault = check_text(value)) {
      const std::string at = index ? fmt::format("[{}]{}", *index, member) : std::string{};
      error_ = fmt::format("{}.{}{}: {} at byte {}", payload_, field, at, fault->reason, fault->offset);
    }
  }
  void names(std::string_view field, const std::vector<CardName>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) text(field, v[i], i);
  }
  void counts(std::string_view field, const std::vector<CardCount>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) text(field, v[i].card, i, ".card");
  }
  void items(std::string_view field, const std::vector<PaidItem>& v) {
    for (std::size_t i = 0; i < v.size(); ++i) text(field, v[i].card, i, ".card");
  }

  std::string_view payload_;
  std::optional<std::string> error_;
};

}  // namespace

Expected<void> check_event_text(const Event& ev) {
  TextChecker check(payload_name(ev.payload));
  std::visit(check, ev.payload);
  if (check.error()) return make_error(ErrorCode::InvalidArgument, *check.error());
  return {};
}

}  // namespace warlog::core
