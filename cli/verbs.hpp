#pragma once
// The CLI's verbs. Each returns the process exit code.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace warlog::cli {

inline constexpr int kExitClean = 0;
inline constexpr int kExitViolations = 1;
inline constexpr int kExitError = 2;

struct Options {
  std::string store;  // empty: replay::default_store_path()
  std::vector<std::string> files;
  std::vector<std::uint64_t> games;
  std::uint64_t game = 0;
  std::string catalog;
  std::string ruleset;
  std::string format = "text";
  std::string color = "auto";  // audit --color: auto, always, never (color.hpp)
  bool format_given = false;  // audit, rule-diff: --format was given (not with --shard)
  unsigned jobs = 0;  // threads; 0: one per core
  std::uint64_t shard_index = 0;  // --shard K/N
  std::uint64_t shard_count = 0;
  std::string shard;              // as typed, parsed into the two above
  // rules: the ids (or old ids) to show; empty: every rule
  std::vector<std::string> rule_ids;
  bool rules_show = false;  // rules --show: each rule's section of the rules documents
  std::string rules_dir;    // rules --rules DIR
  // verify: the keyring (replay/keyring.hpp) and whether a trusted signature is required
  std::string keyring;
  bool require_signed = false;
  // rule-diff
  std::string base_ruleset, candidate_ruleset, base_catalog, candidate_catalog;
  bool snapshots = false;  // verify --snapshots
  // audit and rule-diff: what the report shows
  bool summary = false;  // --summary: only the totals
  std::string only;      // rule-diff --only CLASS
  std::string rule;      // --rule ID: only games whose findings under it (change)
  bool quiet = false;    // audit --quiet: only games with findings
  std::string severity;  // audit --severity LEVEL: findings at least this severe
  bool times = false;      // audit --times
  bool rests_on = false;   // audit --rests-on
};

int run_import(const Options& o);
int run_audit(const Options& o);
int run_verify(const Options& o);
int run_list(const Options& o);
int run_rules(const Options& o);
int run_export(const Options& o);
int run_rule_diff(const Options& o);

// warlog migrate (cli/migrate.cpp): registers the verb and runs it.
CLI::App* add_migrate(CLI::App& app, Options& o);
int run_migrate(const Options& o);

// warlog generate (cli/generate.cpp): registers the verb and runs it.
struct GenerateArgs {
  std::uint64_t games = 1;
  std::uint64_t seed = 1;
  int turns = 12;
  std::string out;    // write DIR/gen-SEED.wlog instead of importing
  std::string decks;  // directory of .deck files; empty: samples/decks
};
CLI::App* add_generate(CLI::App& app, Options& o, GenerateArgs& g);
int run_generate(const Options& o, const GenerateArgs& g);

// warlog snapshot (cli/snapshot.cpp): registers the verb and runs it.
struct SnapshotArgs {
  std::uint64_t every = 500;  // replay::kDefaultSnapshotEvery
  bool drop = false;
};
CLI::App* add_snapshot(CLI::App& app, Options& o, SnapshotArgs& s);
int run_snapshot(const Options& o, const SnapshotArgs& s);

// warlog backup (cli/backup.cpp): registers the verb and runs it.
struct BackupArgs {
  std::string dir;
};
CLI::App* add_backup(CLI::App& app, Options& o, BackupArgs& b);
int run_backup(const Options& o, const BackupArgs& b);

// warlog record (cli/record.cpp): registers the verb and runs it.
struct RecordArgs {
  std::string store_positional;  // STORE, as the issue writes it
  std::string store;             // --store, as the other verbs take it
  std::string header;
  std::uint64_t game = 0;
  bool strict = false;
  std::string format = "text";
  std::string catalog, ruleset;
  std::string sign_as;  // --sign-as KEYFILE: sign every backup with it
  std::string color = "auto";  // --color: auto, always, never (color.hpp), as audit's
  std::string server;  // --server HOST:PORT: record through `warlog serve --rpc` (cli/record_remote.cpp)
  std::string token;   // --token (else $WARLOG_TOKEN), with --server
  double retry_seconds = 60;  // --retry-seconds: how long a line not confirmed is sent again
};
CLI::App* add_record(CLI::App& app, RecordArgs& r);
int run_record(const RecordArgs& r);

// warlog serve (cli/serve.cpp): registers the verb and its token
// subcommands and runs them. Returns the `serve` App, so that other
// subcommands (cert, round, results) are added beside `token`.
struct ServeArgs {
  std::string store_positional;  // STORE
  std::string store;             // --store
  std::string http = "127.0.0.1:8080";
  std::string rpc;  // --rpc HOST:PORT: Cap'n Proto RPC for warlog's own clients; empty: none
  bool insecure_lan = false;
  std::string tls_dir;  // --tls DIR: what serve cert wrote
  unsigned max_request_kib = 64;
  unsigned max_connections = 256;
  double appends_per_second = 10;
  double append_burst = 20;
  double idle_seconds = 300;
  unsigned public_turns_behind = 1;
  // The event's key and backups: --sign-as KEYFILE --signer NAME, --backup-every PERIOD DIR, --backup-keep N.
  std::string sign_as, signer;
  std::vector<std::string> backup_every;
  unsigned backup_keep = 0;
  // serve token issue|list|revoke
  std::string token_verb;
  std::string role;
  std::uint64_t game = 0;
  std::string token_id;
};
CLI::App* add_serve(CLI::App& app, ServeArgs& a);
int run_serve(const ServeArgs& a);

}  // namespace warlog::cli
