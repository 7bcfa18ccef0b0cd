#include "warlog/replay/replay.hpp"
#include "warlog/replay/times.hpp"

#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <algorithm>
#include <map>
#include <mutex>
#include <set>

#include "warlog/core/corrections.hpp"
#include "warlog/core/fold_log.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/replay/rests_on.hpp"
#include "warlog/replay/seek.hpp"
#include "warlog/store/snapshot_cache.hpp"
#include "warlog/store/store.hpp"
#include "context.hpp"
#include "sources.hpp"
#include "stream.hpp"

namespace warlog::replay {

namespace fs = std::filesystem;

std::string default_store_path() {
  if (const char* env = std::getenv("WARLOG_STORE"); env != nullptr && *env != '\0') return env;
  return ".warlog/store";
}

std::size_t GameAudit::violations() const noexcept {
  std::size_t n = 0;
  for (const auto& f : findings) n += f.finding.severity == core::Severity::Violation;
  return n;
}

std::string GameAudit::digest() const { return kept_digest_.empty() ? core::digest(final_state) : kept_digest_; }

void GameAudit::drop_state(bool keep_digest) {
  kept_digest_ = keep_digest ? core::digest(final_state) : std::string{};
  final_state = {};
}

namespace {

// Every file import reads goes through core's bounded reader: regular files
// only, each kind under its limit (core/text_file.hpp).
Expected<std::string> read_file(const fs::path& path, std::size_t max_bytes, std::string_view what) {
  return core::read_text_file(path.string(), max_bytes, what);
}

// The value of the [Ruleset]/[Catalog] tag, or nullopt when the file has none.
std::optional<std::string> header_tag(const core::NotationRefs& refs, std::string_view tag) {
  const std::string& v = tag == "Ruleset" ? refs.ruleset_ref : refs.catalog_ref;
  if (v.empty()) return std::nullopt;
  return v;
}

Expected<std::string> blob(const store::Store& st, store::BlobKind kind, const std::string& hex, std::string_view what) {
  const auto digest = core::digest_from_hex(hex);
  if (!digest) return make_error(ErrorCode::DataLoss, fmt::format("the game records no valid {} hash", what));
  auto reader = st.reader();
  if (!reader) return tl::unexpected(reader.error());
  auto bytes = reader->get_blob(kind, *digest);
  if (!bytes && bytes.error().code == ErrorCode::NotFound) {
    return make_error(ErrorCode::DataLoss, fmt::format("the {} {} the game was recorded under is missing from the store",
                                                       what, hex.substr(0, 12)));
  }
  if (!bytes) return tl::unexpected(bytes.error());  // "the ruleset blob H does not hash to its name"
  return bytes;
}

}  // namespace

GameSummary summary_of(const store::GameMeta& m) {
  return GameSummary{m.id, m.title, m.date, m.seats, m.event_count, m.ruleset_hash, m.catalog_hash};
}

void locate_all(const std::vector<core::Finding>& found, std::span<const core::Event> events,
                std::vector<LocatedFinding>& out) {
  for (const core::Finding& f : found) {
    std::size_t at = f.seq < events.size() && events[f.seq].seq == f.seq ? f.seq : events.size();
    for (std::size_t p = 0; at == events.size() && p < events.size(); ++p) {
      if (events[p].seq == f.seq) at = p;
    }
    std::vector<core::Finding> one{f};
    if (at < events.size()) {
      locate_findings(one, events[at], out);
    } else {
      core::Event nowhere;
      nowhere.seq = f.seq;
      locate_findings(one, nowhere, out);
    }
  }
}

void locate_findings(std::vector<core::Finding>& found, const core::Event& ev, std::vector<LocatedFinding>& out) {
  for (auto& f : found) {
    const core::Rule* rule = core::find_rule(f.rule_id);
    // The seat that broke the rule, which a finding reported when a part
    // closes names itself (the closing event may be the opponent's).
    const core::Seat seat = f.seat != core::kNoSeat ? f.seat : ev.seat;
    out.push_back(LocatedFinding{std::move(f), ev.turn, ev.phase, seat,
                                 rule != nullptr ? rule->citation : std::string_view{}});
  }
}

Expected<store::GameMeta> read_meta(const Archive& archive, core::GameId id) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  return reader->game(id);
}

Expected<ResolvedContext> resolve_context(const Archive& archive, const store::GameMeta& meta,
                                          const AuditOptions& options) {
  ResolvedContext out;
  if (options.catalog) {
    out.catalog = &*options.catalog;
  } else {
    auto c = archive.catalog_by_hash(meta.catalog_hash);
    if (!c) return tl::unexpected(Error{c.error().code, fmt::format("game {}: {}", meta.id, c.error().message)});
    out.keep_catalog = *c;
    out.catalog = out.keep_catalog.get();
  }
  if (options.ruleset) {
    out.ruleset = &*options.ruleset;
  } else {
    auto r = archive.ruleset_by_hash(meta.ruleset_hash);
    if (!r) return tl::unexpected(Error{r.error().code, fmt::format("game {}: {}", meta.id, r.error().message)});
    out.keep_ruleset = *r;
    out.ruleset = out.keep_ruleset.get();
  }
  return out;
}

struct Archive::Cache {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const core::Catalog>> catalogs;
  std::map<std::string, std::shared_ptr<const core::Ruleset>> rulesets;
  // The snapshot cache: where (nullopt: the default), and once opened, it or why not.
  std::optional<store::CacheLocation> snapshot_where;
  std::shared_ptr<store::SnapshotCache> snapshots;
  std::optional<Error> snapshots_error;
  // Walked-block records from audits (Archive::audit), written many games
  // to a transaction: when kWalkedBatch wait, and the rest at the end.
  static constexpr std::size_t kWalkedBatch = 256;
  std::vector<store::SnapshotCache::WalkedGame> walked;

  // With the mutex held. A cache: a failed write only costs the next
  // audit its walk.
  void write_walked() {
    if (!walked.empty() && snapshots) (void)snapshots->put_walked(walked);
    walked.clear();
  }
  ~Cache() { write_walked(); }
};

Archive::Archive(std::string path, std::unique_ptr<store::Store> store)
    : path_(std::move(path)), store_(std::move(store)), cache_(std::make_unique<Cache>()) {}
Archive::Archive(Archive&&) noexcept = default;
Archive& Archive::operator=(Archive&&) noexcept = default;
Archive::~Archive() = default;

void Archive::use_snapshot_cache(const std::string& dir, const std::string& key_file) {
  std::lock_guard lock(cache_->mutex);
  cache_->snapshot_where = store::CacheLocation{dir, key_file};
  cache_->snapshots.reset();
  cache_->snapshots_error.reset();
}

Expected<std::shared_ptr<store::SnapshotCache>> Archive::snapshot_cache() const {
  std::lock_guard lock(cache_->mutex);
  if (cache_->snapshots) return cache_->snapshots;
  if (cache_->snapshots_error) return tl::unexpected(*cache_->snapshots_error);
  auto where = cache_->snapshot_where ? Expected<store::CacheLocation>(*cache_->snapshot_where)
                                      : store::default_cache_location();
  auto opened = where.and_then([](const store::CacheLocation& w) { return store::SnapshotCache::open(w); });
  if (!opened) {
    cache_->snapshots_error = opened.error();
    return tl::unexpected(opened.error());
  }
  cache_->snapshots = *opened;
  return cache_->snapshots;
}

Expected<Archive> Archive::open(const std::string& path, Mode mode) {
  store::Options o;
  o.read_only = mode == Mode::ReadOnly;
  o.serve_owner = mode == Mode::Serve;
  auto st = store::Store::open(path, o);
  if (!st) return tl::unexpected(st.error());
  return Archive(path, std::make_unique<store::Store>(std::move(*st)));
}

// A .wlog file parsed against its catalog, ready to store.
struct Archive::Prepared {
  std::vector<core::Event> events;
  std::string catalog_text;
  std::string ruleset_text;
};

Expected<GameSources> load_sources(const Archive& archive, const std::string& path, std::string_view text,
                                   const ImportOptions& options) {
  const store::Store& st = archive.store();
  const fs::path dir = fs::path(path).parent_path();
  const core::NotationRefs refs = core::notation_refs(text);

  // The game file's own tags win; a tag path is relative to the game file.
  auto resolve = [&](const char* tag, const std::optional<std::string>& fallback,
                     const char* flag) -> Expected<std::string> {
    if (auto t = header_tag(refs, tag)) return (dir / *t).lexically_normal().string();
    if (fallback) return *fallback;
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("no [{} \"PATH\"] tag in the file and no {} given", tag, flag));
  };
  // A tag holding a content hash (as `warlog export` writes) names a blob
  // already in this store; anything else is a file.
  auto load = [&](const char* tag, const std::optional<std::string>& fallback, const char* flag,
                  store::BlobKind kind) -> Expected<std::pair<std::string, std::string>> {
    const bool is_catalog = kind == store::BlobKind::Catalog;
    const std::size_t limit = is_catalog ? core::kMaxCatalogFileBytes : core::kMaxRulesetFileBytes;
    const std::string_view what = is_catalog ? "catalog file" : "ruleset file";
    if (auto t = header_tag(refs, tag); t && core::digest_from_hex(*t)) {
      auto bytes = blob(st, kind, *t, tag);
      if (bytes) return std::pair{std::string(tag) + " " + t->substr(0, 12), std::move(*bytes)};
      if (!fallback) {
        return make_error(ErrorCode::NotFound, fmt::format("the [{}] hash {} is not in this store; give the file "
                                                           "with {}",
                                                           tag, t->substr(0, 12), flag));
      }
      auto file = read_file(*fallback, limit, what);
      if (!file) return tl::unexpected(file.error());
      if (core::content_hash(*file) != *t) {
        return make_error(ErrorCode::InvalidArgument,
                          fmt::format("{} has hash {}, but the game records [{}] {}", *fallback,
                                      core::content_hash(*file).substr(0, 12), tag, t->substr(0, 12)));
      }
      return std::pair{*fallback, std::move(*file)};
    }
    auto file = resolve(tag, fallback, flag);
    if (!file) return tl::unexpected(file.error());
    auto bytes = read_file(*file, limit, what);
    if (!bytes) return tl::unexpected(bytes.error());
    return std::pair{*file, std::move(*bytes)};
  };
  // Both, then every error at once: a header missing both tags says so, not
  // the first alone (a scorekeeper's trial).
  auto catalog_src = load("Catalog", options.catalog_path, "--catalog", store::BlobKind::Catalog);
  auto ruleset_src = load("Ruleset", options.ruleset_path, "--ruleset", store::BlobKind::Ruleset);
  if (!catalog_src && !ruleset_src) {
    return make_error(catalog_src.error().code,
                      fmt::format("{}; {}", catalog_src.error().message, ruleset_src.error().message));
  }
  if (!catalog_src) return tl::unexpected(catalog_src.error());
  if (!ruleset_src) return tl::unexpected(ruleset_src.error());
  GameSources out;
  auto catalog = archive.catalog_from(catalog_src->second);
  if (!catalog) return make_error(catalog.error().code, catalog_src->first + ":" + catalog.error().message);
  auto ruleset = archive.ruleset_from(ruleset_src->second);
  if (!ruleset) return make_error(ruleset.error().code, ruleset_src->first + ":" + ruleset.error().message);
  out.catalog = std::move(*catalog);
  out.ruleset = std::move(*ruleset);
  out.catalog_text = std::move(catalog_src->second);
  out.ruleset_text = std::move(ruleset_src->second);
  out.load_deck = [dir](const std::string& ref) { return read_file(dir / ref, core::kMaxDeckFileBytes, "deck file"); };
  return out;
}

tl::expected<Archive::Prepared, ImportFailure> Archive::prepare_file(const std::string& path,
                                                                     const ImportOptions& options) const {
  auto fail = [](Error e) { return tl::unexpected(ImportFailure{std::move(e), {}}); };
  auto text = read_file(path, core::kMaxGameFileBytes, "game file");
  if (!text) return fail(text.error());
  auto sources = load_sources(*this, path, *text, options);
  if (!sources) return fail(sources.error());
  core::ParseResult parsed =
      core::parse_notation(*text, path, *sources->catalog, sources->ruleset->hash, sources->load_deck);
  if (!parsed.ok()) {
    return tl::unexpected(ImportFailure{Error{ErrorCode::InvalidArgument, "notation errors"}, std::move(parsed.errors)});
  }
  return Prepared{std::move(parsed.game.events), std::move(sources->catalog_text), std::move(sources->ruleset_text)};
}

// Blobs first: a game must never reference a catalog the store lacks.
// Storing the same bytes twice is a no-op, so a failed import leaves at most
// an unreferenced blob.
Expected<void> Archive::put_blobs_of(const Prepared& p) {
  if (auto h = store_->put_blob(store::BlobKind::Catalog, p.catalog_text); !h) return tl::unexpected(h.error());
  if (auto h = store_->put_blob(store::BlobKind::Ruleset, p.ruleset_text); !h) return tl::unexpected(h.error());
  return {};
}

// Import lays no snapshots: they are the reading user's cache (seek.hpp),
// built by `warlog snapshot`, by seeks, and by the viewer on opening a game.
tl::expected<ImportResult, ImportFailure> Archive::import_file(const std::string& path, const ImportOptions& options) {
  auto fail = [](Error e) { return tl::unexpected(ImportFailure{std::move(e), {}}); };
  auto p = prepare_file(path, options);
  if (!p) return tl::unexpected(std::move(p.error()));
  if (auto ok = put_blobs_of(*p); !ok) return fail(ok.error());
  const std::span<const core::Event> game(p->events);
  auto ids = store_->import_games(std::span(&game, 1));
  if (!ids) return fail(ids.error());
  const auto& id = ids->front();
  if (!id) return fail(id.error());
  if (id->already_stored) return ImportResult{id->id, p->events.size(), true};
  return ImportResult{id->id, p->events.size()};
}

std::vector<tl::expected<ImportResult, ImportFailure>> Archive::import_files(std::span<const std::string> paths,
                                                                             const ImportOptions& options) {
  std::vector<tl::expected<ImportResult, ImportFailure>> out;
  out.reserve(paths.size());
  std::vector<Prepared> ready;
  std::vector<std::size_t> slot;  // ready[k] is paths[slot[k]]
  for (std::size_t i = 0; i < paths.size(); ++i) {
    auto p = prepare_file(paths[i], options);
    if (!p) {
      out.push_back(tl::unexpected(std::move(p.error())));
      continue;
    }
    out.push_back(ImportResult{});
    ready.push_back(std::move(*p));
    slot.push_back(i);
  }
  auto fail_all = [&](const Error& e) {
    for (std::size_t i : slot) out[i] = tl::unexpected(ImportFailure{e, {}});
    return out;
  };
  // Distinct catalogs and rulesets only: each put is a synced commit of its own.
  std::set<std::pair<std::string_view, std::string_view>> stored;
  for (const Prepared& p : ready) {
    if (!stored.insert({p.catalog_text, p.ruleset_text}).second) continue;
    if (auto ok = put_blobs_of(p); !ok) return fail_all(ok.error());
  }
  std::vector<std::span<const core::Event>> games;
  games.reserve(ready.size());
  for (const Prepared& p : ready) games.emplace_back(p.events);
  auto ids = store_->import_games(games);
  if (!ids) return fail_all(ids.error());
  for (std::size_t k = 0; k < ready.size(); ++k) {
    const auto& id = (*ids)[k];
    if (!id) {
      out[slot[k]] = tl::unexpected(ImportFailure{id.error(), {}});
      continue;
    }
    if (id->already_stored) {
      out[slot[k]] = ImportResult{id->id, ready[k].events.size(), true};
      continue;
    }
    out[slot[k]] = ImportResult{id->id, ready[k].events.size()};
  }
  return out;
}

Expected<std::vector<GameSummary>> Archive::games() const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto metas = reader->games();
  if (!metas) return tl::unexpected(metas.error());
  std::vector<GameSummary> out;
  out.reserve(metas->size());
  for (const auto& m : *metas) out.push_back(summary_of(m));
  return out;
}

Expected<std::vector<core::GameId>> Archive::game_ids(bool orphans) const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto ids = reader->game_ids();
  if (!ids || !orphans) return ids;
  auto lost = reader->orphan_games();
  if (!lost) return tl::unexpected(lost.error());
  ids->insert(ids->end(), lost->begin(), lost->end());
  std::sort(ids->begin(), ids->end());
  return ids;
}

Expected<std::vector<Expected<GameSummary>>> Archive::game_list() const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto ids = reader->game_ids();
  if (!ids) return tl::unexpected(ids.error());
  std::vector<Expected<GameSummary>> out;
  out.reserve(ids->size());
  for (const auto id : *ids) {
    auto m = reader->game(id);
    if (m) {
      out.emplace_back(summary_of(*m));
    } else if (m.error().code == ErrorCode::DataLoss || m.error().code == ErrorCode::Unsupported) {
      out.emplace_back(tl::unexpected(m.error()));
    } else {
      return tl::unexpected(m.error());
    }
  }
  return out;
}

Expected<GameSummary> Archive::game(core::GameId id) const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto m = reader->game(id);
  if (!m) return tl::unexpected(m.error());
  return summary_of(*m);
}

Expected<std::vector<core::Event>> Archive::events(core::GameId id) const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  std::vector<core::Event> out;
  auto n = reader->scan(id, 0, store::kEndSeq, [&out](const core::Event& ev) {
    out.push_back(ev);
    return true;
  });
  if (!n) return tl::unexpected(n.error());
  return out;
}

Expected<std::shared_ptr<const core::Catalog>> Archive::catalog_by_hash(const std::string& hex) const {
  {
    std::lock_guard lock(cache_->mutex);
    if (auto it = cache_->catalogs.find(hex); it != cache_->catalogs.end()) return it->second;
  }
  auto bytes = blob(*store_, store::BlobKind::Catalog, hex, "card catalog");
  if (!bytes) return tl::unexpected(bytes.error());
  auto c = core::parse_catalog_csv(*bytes);
  if (!c) return make_error(ErrorCode::DataLoss, "stored catalog does not parse: " + c.error().message);
  auto shared = std::make_shared<const core::Catalog>(std::move(*c));
  std::lock_guard lock(cache_->mutex);
  return cache_->catalogs.emplace(hex, std::move(shared)).first->second;
}

Expected<std::shared_ptr<const core::Ruleset>> Archive::ruleset_by_hash(const std::string& hex) const {
  {
    std::lock_guard lock(cache_->mutex);
    if (auto it = cache_->rulesets.find(hex); it != cache_->rulesets.end()) return it->second;
  }
  auto bytes = blob(*store_, store::BlobKind::Ruleset, hex, "ruleset");
  if (!bytes) return tl::unexpected(bytes.error());
  auto r = core::parse_ruleset_toml(*bytes);
  if (!r) return make_error(ErrorCode::DataLoss, "stored ruleset does not parse: " + r.error().message);
  auto shared = std::make_shared<const core::Ruleset>(std::move(*r));
  std::lock_guard lock(cache_->mutex);
  return cache_->rulesets.emplace(hex, std::move(shared)).first->second;
}

// Keyed as catalog_by_hash keys a blob (its BLAKE2b in hex), so a catalog
// parsed for import is the one an audit of the same run finds.
Expected<std::shared_ptr<const core::Catalog>> Archive::catalog_from(std::string_view bytes) const {
  const std::string hex = core::content_hash(bytes);
  {
    std::lock_guard lock(cache_->mutex);
    if (auto it = cache_->catalogs.find(hex); it != cache_->catalogs.end()) return it->second;
  }
  auto c = core::parse_catalog_csv(bytes);
  if (!c) return tl::unexpected(c.error());
  auto shared = std::make_shared<const core::Catalog>(std::move(*c));
  std::lock_guard lock(cache_->mutex);
  return cache_->catalogs.emplace(hex, std::move(shared)).first->second;
}

Expected<std::shared_ptr<const core::Ruleset>> Archive::ruleset_from(std::string_view bytes) const {
  const std::string hex = core::content_hash(bytes);
  {
    std::lock_guard lock(cache_->mutex);
    if (auto it = cache_->rulesets.find(hex); it != cache_->rulesets.end()) return it->second;
  }
  auto r = core::parse_ruleset_toml(bytes);
  if (!r) return tl::unexpected(r.error());
  auto shared = std::make_shared<const core::Ruleset>(std::move(*r));
  std::lock_guard lock(cache_->mutex);
  return cache_->rulesets.emplace(hex, std::move(shared)).first->second;
}

Expected<core::Catalog> Archive::catalog_of(core::GameId id) const {
  auto g = game(id);
  if (!g) return tl::unexpected(g.error());
  auto c = catalog_by_hash(g->catalog_hash);
  if (!c) return tl::unexpected(c.error());
  return **c;
}

Expected<core::Ruleset> Archive::ruleset_of(core::GameId id) const {
  auto g = game(id);
  if (!g) return tl::unexpected(g.error());
  auto r = ruleset_by_hash(g->ruleset_hash);
  if (!r) return tl::unexpected(r.error());
  return **r;
}

namespace {

VerifyResult verify_result(core::GameId id, const store::VerifyReport& report) {
  VerifyResult r;
  r.game = id;
  r.ok = report.ok();
  if (report.broken) {
    r.first_bad_seq = report.broken->seq;
    r.detail = report.broken->what;
    r.no_record = report.broken->kind == store::BrokenLink::Kind::Orphan;
  } else {
    r.detail = fmt::format("chain intact ({} events, {} annotation{})", report.events_checked,
                           report.annotations_checked, report.annotations_checked == 1 ? "" : "s");
  }
  return r;
}

// The audit's walk stopped before the record's count: the first broken
// link, in the words a read gives it (DataLoss).
Error short_walk(core::GameId id, const store::VerifyReport& report) {
  using Kind = store::BrokenLink::Kind;
  if (!report.broken) {
    return Error{ErrorCode::DataLoss, fmt::format("game {}: the events stop at seq {}; run verify", id,
                                                  report.events_given)};
  }
  const auto& b = *report.broken;
  const bool chain = b.kind == Kind::TagMismatch || b.kind == Kind::ChainMismatch || b.kind == Kind::HeadMismatch;
  return Error{ErrorCode::DataLoss, chain ? fmt::format("game {}: the chain breaks at seq {}: {}; run verify", id, b.seq, b.what)
                                          : fmt::format("game {}, seq {}: {}; run verify", id, b.seq, b.what)};
}

}  // namespace

Expected<GameAudit> Archive::audit(core::GameId id, const AuditOptions& options) const {
  // The context first (it reads blobs), then one reader for the scan: never two at once.
  auto recorded = read_meta(*this, id);
  if (!recorded) return tl::unexpected(recorded.error());
  auto resolved = resolve_context(*this, *recorded, options);
  if (!resolved) return tl::unexpected(resolved.error());
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto meta = reader->game(id);  // this snapshot's count (a live game may have grown)
  if (!meta) return tl::unexpected(meta.error());
  const core::Catalog* catalog = resolved->catalog;
  const core::Ruleset* ruleset = resolved->ruleset;

  GameAudit audit;
  audit.game = summary_of(*meta);
  audit.ruleset_name = ruleset->name;
  audit.ruleset_hash = ruleset->hash;
  audit.catalog_hash = catalog->hash();
  const core::Context ctx{*catalog, *ruleset};
  std::vector<core::Finding> found;
  bool corrected = false;
  TimeLog times;
  core::Event last;  // the last event's place, where the end of the log is found
  core::LogFold log(ctx);  // the final state is had from its finish
  // Blocks this user's warlog walked whole before decode without that walk
  // (docs/performance.md › Blocks walked once). No cache: all are walked.
  auto cache = snapshot_cache();
  std::vector<core::Digest> walked;
  if (cache) {
    if (auto w = (*cache)->walked(meta->identity)) walked = std::move(w->blocks);
  }
  // One walk checks the game as verify does and folds it (each block's
  // events once its tags and S hold): events are decoded once, not once
  // for the fold and again for the check (docs/performance.md › One walk).
  auto report = reader->verify(id, [&](const core::Event& ev) {
    if (core::is_correction(ev.payload)) {
      corrected = true;  // folded again below, whole
      return false;
    }
    found.clear();
    log.apply(ev, found);
    times.see(ev, found);
    locate_findings(found, ev, audit.findings);
    // No seat: a finding of the end names its own seat, or none.
    last = core::Event{ev.game, ev.seq, ev.turn, ev.phase, core::kNoSeat, core::GameEnded{}};
    return true;
  }, walked);
  if (!report) return tl::unexpected(report.error());
  if (cache && report->ok() && report->blocks != walked) {
    std::lock_guard lock(cache_->mutex);
    cache_->walked.push_back({meta->identity, std::move(report->blocks)});
    if (cache_->walked.size() >= Cache::kWalkedBatch) cache_->write_walked();
  }
  // Damage first: a broken chain is data loss even where an event of a newer
  // kind stopped the fold before it.
  const bool short_of_count = (corrected ? report->events_checked : report->events_given) < meta->event_count;
  if (report->not_given && report->ok()) return tl::unexpected(*report->not_given);  // names the game and seq
  if (short_of_count || report->not_given) return tl::unexpected(short_walk(id, *report));
  audit.verified = verify_result(id, *report);
  if (!corrected) {
    // The log as a whole record: its end closes the part it ends in.
    found.clear();
    audit.final_state = std::move(log).finish(found);
    locate_findings(found, last, audit.findings);
  }
  if (corrected) {
    // A correction may revise what earlier events found (a void refolds
    // the effective stream): fold the whole stream through corrections.hpp.
    auto events = detail::read_stream(*reader, id, store::kEndSeq);
    if (!events) return tl::unexpected(events.error());
    std::vector<core::Finding> all;
    audit.final_state = core::fold_log(ctx, *events, all);
    times = TimeLog{};
    for (const core::Event& ev : *events) times.see(ev, all);
    std::stable_sort(all.begin(), all.end(), [](const core::Finding& a, const core::Finding& b) { return a.seq < b.seq; });
    audit.findings.clear();
    locate_all(all, *events, audit.findings);
    audit.struck = struck_events(*events);
  }
  audit.times = times.parts();
  if (options.rests_on && audit.violations() == 0) {
    // Nothing to rest on: the stream is not read again.
    audit.rests_on = RestsOn{};
    audit.rests_on->findings.resize(audit.findings.size());
  } else if (options.rests_on) {
    auto events = detail::read_stream(*reader, id, store::kEndSeq);
    if (!events) return tl::unexpected(events.error());
    audit.rests_on = replay::rests_on(ctx, *events, audit.findings, audit.final_state);
  }
  return audit;
}

Expected<VerifyResult> Archive::verify(core::GameId id) const {
  auto reader = store_->reader();
  if (!reader) return tl::unexpected(reader.error());
  auto report = reader->verify(id);
  if (!report) return tl::unexpected(report.error());
  return verify_result(id, *report);
}

Moment moment_at(const core::Context& ctx, const std::vector<core::Event>& events, core::Seq seq) {
  Moment m;
  if (events.empty()) return m;
  const core::Seq last = std::min<core::Seq>(seq, events.size() - 1);
  const std::span<const core::Event> prefix(events.data(), last + 1);
  if (core::has_corrections(prefix)) {
    core::CorrectedFold f(ctx, prefix);
    std::vector<core::Finding> now;
    while (!f.done()) {
      now.clear();
      f.step(now);
    }
    m.state = f.state();
    m.seq = last;
    m.event = events[last];
    m.findings = std::move(now);
    return m;
  }
  std::vector<core::Finding> sink;
  for (core::Seq i = 0; i <= last; ++i) {
    sink.clear();
    core::apply(ctx, m.state, events[i], sink);
  }
  m.seq = last;
  m.event = events[last];
  m.findings = std::move(sink);
  return m;
}

}  // namespace warlog::replay
