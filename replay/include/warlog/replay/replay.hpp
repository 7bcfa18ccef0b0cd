#pragma once
// The replay facade: what the CLI and the viewer share. Opens a store,
// imports notation, lists games, folds them (audit), seeks, verifies.
// Front ends hold no rule logic: they call this and show what it returns.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warlog/core/catalog.hpp"
#include "warlog/core/error.hpp"
#include "warlog/core/event.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/core/fold.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/ruleset.hpp"
#include "warlog/core/state.hpp"
#include "warlog/replay/corrections.hpp"

namespace warlog::store {
class Store;
class SnapshotCache;
}

namespace warlog::replay {

// The store path a verb uses: the flag, else $WARLOG_STORE, else
// ".warlog/store" under the current directory.
[[nodiscard]] std::string default_store_path();

// One game as the game list shows it.
struct GameSummary {
  core::GameId id = 0;
  std::string title;
  std::string date;
  std::vector<core::SeatSetup> seats;
  core::Seq events = 0;
  std::string ruleset_hash;
  std::string catalog_hash;
};

// A finding with where it happened, for a person.
struct LocatedFinding {
  core::Finding finding;
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;
  std::string_view citation;  // from the rule registry
};

// The recorded time of one part of a game, for slow-play claims (audit
// --times): a turn's start (its Morale Check), or one seat's part of a phase.
// Times are the events' recorded_at_ms; the fold never reads them.
struct PartTime {
  std::uint16_t turn = 0;
  core::Phase phase = core::Phase::Setup;
  core::Seat seat = core::kNoSeat;  // the part's seat; kNoSeat for setup and a turn's start
  core::Seq first = 0;              // its first and last events
  core::Seq last = 0;
  std::int64_t start_ms = 0;        // its first recorded time; 0 = none recorded
  std::int64_t end_ms = 0;          // the next part's first time, else its own last; 0 = none
  friend bool operator==(const PartTime&, const PartTime&) = default;
};

// Which earlier violations a finding or the result rests on (audit
// --rests-on; rests_on.hpp says how it is computed).
struct RestsOn {
  // The seqs of the events whose violations were tried, ascending.
  std::vector<core::Seq> tried;
  // Per finding of the audit (same order): the seqs of the tried
  // violations it rests on, ascending; empty for most.
  std::vector<std::vector<core::Seq>> findings;
  // The violations the derived result rests on.
  std::vector<core::Seq> result;
  // What it cost: folds started (the first included) and events applied.
  std::size_t folds = 0;
  std::size_t events_applied = 0;
};

struct VerifyResult {
  core::GameId game = 0;
  bool ok = false;
  std::optional<core::Seq> first_bad_seq;  // the first broken link
  std::string detail;                      // what is wrong there, or "chain intact (N events)"
  // Events or annotations are stored under the id, but it has no game record
  // (a deleted record): nothing to check them against (detail says which).
  bool no_record = false;
};

struct GameAudit {
  GameSummary game;
  std::vector<LocatedFinding> findings;
  core::GameState final_state;
  std::string ruleset_name;    // what it was audited under
  std::string ruleset_hash;
  std::string catalog_hash;
  std::vector<StruckEvent> struck;  // events the fold skips (corrections); empty for most games
  std::vector<PartTime> times;      // per part of the game; empty when no event has a recorded time
  std::optional<RestsOn> rests_on;  // AuditOptions::rests_on only
  // What Archive::verify says of the game, checked by the same walk that
  // folded it: the events are intact, but a break after them (the identity
  // index, a blob, the annotation chain, the record) is said here.
  VerifyResult verified;
  [[nodiscard]] std::size_t violations() const noexcept;
  // core::digest(final_state): BLAKE2b of the state as text, 64 hex digits.
  // Computed when asked (about 120,000 instructions, a tenth of auditing a
  // generated game: callgrind, 200 games), for the JSON report and goldens;
  // after drop_state(true), the digest it kept.
  [[nodiscard]] std::string digest() const;
  // Frees final_state (a report over many games keeps only the findings).
  // keep_digest: first computes the digest, which digest() then returns;
  // otherwise digest() is that of an empty state.
  void drop_state(bool keep_digest);

 private:
  std::string kept_digest_;
};

// Overrides for audit: by default a game is audited under the exact ruleset
// and catalog it recorded (stored by content hash at import).
struct AuditOptions {
  std::optional<core::Ruleset> ruleset;
  std::optional<core::Catalog> catalog;
  // Also compute GameAudit::rests_on: up to 17 more folds of the game
  // (audit --rests-on; docs/performance.md › rests_on).
  bool rests_on = false;
};

struct ImportOptions {
  // Used when the game file has no [Catalog]/[Ruleset] tag; tag paths are
  // resolved relative to the game file.
  std::optional<std::string> catalog_path;
  std::optional<std::string> ruleset_path;
};

struct ImportResult {
  core::GameId id = 0;
  std::size_t events = 0;
  bool already_imported = false;  // the identical game was stored as `id` before; nothing written
};

// Import failed because the notation has errors: every error, nothing written.
struct ImportFailure {
  Error error;
  std::vector<core::NotationError> notation_errors;
};

// A moment of a game: the state after event `seq` and what that event found.
struct Moment {
  core::Seq seq = 0;
  core::Event event;
  core::GameState state;
  std::vector<core::Finding> findings;  // of this event only
};

class Archive {
 public:
  // ReadWrite holds the store's owner lock shared, Serve exclusively, for
  // the Archive's life (store/owner_lock.hpp): a local writer is refused
  // while `warlog serve` owns the store, and a server cannot start while a
  // local writer has it open. ReadOnly takes no lock.
  enum class Mode { ReadOnly, ReadWrite, Serve };

  // Opens (ReadWrite, Serve: creates) the store at `path`. Errors: NotFound
  // for a missing store opened ReadOnly; Conflict "warlog serve (pid P) owns
  // this store: use --server HOST:PORT" (the owner lock); IoError,
  // Unsupported (newer format).
  [[nodiscard]] static Expected<Archive> open(const std::string& path, Mode mode);

  Archive(Archive&&) noexcept;
  Archive& operator=(Archive&&) noexcept;
  ~Archive();

  // Parses a .wlog file and appends it as a new game, all or nothing.
  // Errors: the notation's errors (file:line:col each), Conflict when the
  // same game was imported before, NotFound for a missing file.
  [[nodiscard]] tl::expected<ImportResult, ImportFailure> import_file(const std::string& path,
                                                                      const ImportOptions& options);

  // Imports many .wlog files in one store transaction (Store::import_games):
  // one result per path, in order. Each file is all or nothing, as
  // import_file: a file with notation errors, a missing catalog or a
  // Conflict is refused alone and the others are imported. A store error
  // fails every file that had parsed, with nothing of them written. All the
  // parsed games are held in memory: give a few hundred at a time.
  [[nodiscard]] std::vector<tl::expected<ImportResult, ImportFailure>> import_files(
      std::span<const std::string> paths, const ImportOptions& options);

  // Every game in id order. Errors: the store's, and the first record that
  // does not decode fails the whole list (game_list() does not).
  [[nodiscard]] Expected<std::vector<GameSummary>> games() const;
  // Every game id in order, from the record keys alone (a game whose record
  // does not decode still has its id); with orphans, also the ids of events
  // or annotations stored with no record (a deleted record: verify reports
  // those broken, and reading one is DataLoss "game N: events with no game
  // record ...").
  [[nodiscard]] Expected<std::vector<core::GameId>> game_ids(bool orphans = false) const;
  // Every game in id order, each its summary or why its record cannot be
  // read ("game N: ...": DataLoss, it does not decode; Unsupported, a newer
  // warlog wrote it), so one bad record hides no other game. Errors: only
  // the store's.
  [[nodiscard]] Expected<std::vector<Expected<GameSummary>>> game_list() const;
  // Errors: NotFound "game N does not exist".
  [[nodiscard]] Expected<GameSummary> game(core::GameId id) const;

  // All events of a game, in order. Errors: NotFound, DataLoss.
  [[nodiscard]] Expected<std::vector<core::Event>> events(core::GameId id) const;

  // Folds a game from the store and collects every finding (Audit:
  // ../shared/rules, every document). Streams the events: memory is the
  // state, not the log. Errors: NotFound, DataLoss (undecodable event or
  // missing catalog/ruleset blob).
  [[nodiscard]] Expected<GameAudit> audit(core::GameId id, const AuditOptions& options = {}) const;

  // The catalog and ruleset the game recorded (by content hash).
  [[nodiscard]] Expected<core::Catalog> catalog_of(core::GameId id) const;
  [[nodiscard]] Expected<core::Ruleset> ruleset_of(core::GameId id) const;

  // Walks the game's hash chain. Errors only for I/O; a broken chain is a
  // VerifyResult with ok == false.
  [[nodiscard]] Expected<VerifyResult> verify(core::GameId id) const;

  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  [[nodiscard]] store::Store& store() const noexcept { return *store_; }

  // The snapshot cache seeks read and write (seek.hpp): the user's own, not
  // the store's, so a read-only archive writes it too. Opened on first use
  // at store::default_cache_location() ($WARLOG_CACHE_DIR, else the XDG
  // cache directory) unless use_snapshot_cache named another place first
  // (tests give each their own). An error (an unwritable directory, a key
  // others can read) is kept and returned again: seeks then fold from the
  // start. Thread-safe.
  void use_snapshot_cache(const std::string& dir, const std::string& key_file);
  [[nodiscard]] Expected<std::shared_ptr<store::SnapshotCache>> snapshot_cache() const;

  // Appends a game built in memory (core::generate_game) as a new game, with
  // the catalog and ruleset texts it was played under stored as blobs; their
  // content hashes must be GameCreated's. `bulk`: a relaxed commit for batch
  // imports (store().sync() after the batch). Errors: InvalidArgument for a
  // hash mismatch or a stream not starting with GameCreated, Conflict when the
  // same game was imported before, as import_file otherwise.
  [[nodiscard]] Expected<ImportResult> import_events(std::span<const core::Event> events,
                                                     std::string_view catalog_text, std::string_view ruleset_text,
                                                     bool bulk = false);

  // As import_events for many games played under one catalog and ruleset,
  // in one store transaction (Store::import_games): each game is all or
  // nothing, and a refused game (a hash mismatch, Conflict) is skipped with
  // its error in its slot while the others are imported. Fails whole, with
  // nothing of the batch written, only on a store error.
  [[nodiscard]] Expected<std::vector<Expected<ImportResult>>> import_events_batch(
      std::span<const std::vector<core::Event>> games, std::string_view catalog_text,
      std::string_view ruleset_text, bool bulk = false);

  // The parsed catalog / ruleset stored under a content hash (hex), parsed
  // once and shared: an archive audit reads the same few thousands of times.
  // Thread-safe. Errors: DataLoss when missing or unparsable.
  [[nodiscard]] Expected<std::shared_ptr<const core::Catalog>> catalog_by_hash(const std::string& hex) const;
  [[nodiscard]] Expected<std::shared_ptr<const core::Ruleset>> ruleset_by_hash(const std::string& hex) const;
  // The same, from the bytes themselves (import, record): parsed once per
  // Archive and kept under their content hash, so importing a thousand files
  // that name one catalog parses it once. Thread-safe. Errors: as
  // core::parse_catalog_csv / parse_ruleset_toml.
  [[nodiscard]] Expected<std::shared_ptr<const core::Catalog>> catalog_from(std::string_view bytes) const;
  [[nodiscard]] Expected<std::shared_ptr<const core::Ruleset>> ruleset_from(std::string_view bytes) const;

 private:
  struct Cache;
  struct Prepared;
  Archive(std::string path, std::unique_ptr<store::Store> store);
  [[nodiscard]] tl::expected<Prepared, ImportFailure> prepare_file(const std::string& path,
                                                                   const ImportOptions& options) const;
  [[nodiscard]] Expected<void> put_blobs_of(const Prepared& p);
  std::string path_;
  std::unique_ptr<store::Store> store_;
  std::unique_ptr<Cache> cache_;
};

// Folds `events` under ctx up to and including `seq` (clamped to the last
// event): the refold from the start that tests hold seeks to. Front ends
// seek instead (seek.hpp).
[[nodiscard]] Moment moment_at(const core::Context& ctx, const std::vector<core::Event>& events, core::Seq seq);

}  // namespace warlog::replay
