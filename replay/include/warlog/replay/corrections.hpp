#pragma once
// Corrections as front ends show them (core/include/warlog/core/corrections.hpp
// decides what counts): the events a fold skips, struck through with who
// struck them and why, and what a judge's backup would cross.

#include <span>
#include <string>
#include <vector>

#include "warlog/core/corrections.hpp"
#include "warlog/core/error.hpp"

namespace warlog::replay {

// An event the fold skips: voided, or superseded by a backup.
struct StruckEvent {
  core::Seq seq = 0;
  std::string event;  // its payload name, "CardPlayed"
  core::Standing standing = core::Standing::Voided;
  core::Seq by = 0;   // the correction's seq
  std::string who;    // the correction's `by`, "" when unnamed
  std::string reason;
  bool backup_signed = false;  // a backup carries a signature (not checked here)
  friend bool operator==(const StruckEvent&, const StruckEvent&) = default;
};

// Every struck event of `events`, in seq order (empty without corrections).
[[nodiscard]] std::vector<StruckEvent> struck_events(std::span<const core::Event> events);
// "voided at seq 8 by Ana: wrong card typed", "superseded by the backup at
// seq 60 by J. Ruiz (unsigned): appeal": the line audit and the viewer show.
[[nodiscard]] std::string struck_text(const StruckEvent& s);

// What a judge's backup to just before `target` crosses: what happened at the
// table from `target` on (in the line of play that stands: voided and
// already superseded events are left out) and cannot be un-known. Shown
// before the backup is recorded (rulings R-064).
struct Crossed {
  enum class Kind : std::uint8_t {
    Drawn,     // cards drawn into a hand
    Shuffled,  // a deck shuffled (a Lost Troop reshuffled into it)
    Revealed,  // hidden information shown: cards played or discarded from hand,
               // a Burrowed Troop un-Burrowed, a Homeland card taken back
  };
  core::Seq seq = 0;
  core::Seat seat = core::kNoSeat;
  Kind kind = Kind::Drawn;
  std::string what;  // "Ironclaw Lancer, Supply Wagon", "the Troop on c3"
  friend bool operator==(const Crossed&, const Crossed&) = default;
};
[[nodiscard]] std::string_view to_string(Crossed::Kind k) noexcept;

struct BackupCrossing {
  core::Seq target = 0;
  std::size_t events = 0;  // events the backup supersedes: standing from the target on, corrections included
  std::vector<Crossed> crossed;
};
// Errors: InvalidArgument when `target` is not the seq of an event after
// GameCreated (the fold would refuse the backup: LOG.correction).
[[nodiscard]] Expected<BackupCrossing> backup_crossing(std::span<const core::Event> events, core::Seq target);

}  // namespace warlog::replay
