// warlog: the command line. Wires verbs to the replay facade; no rule logic.
// Exit codes: 0 clean, 1 findings of severity violation, 2 usage or I/O error.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "dispute.hpp"
#include "trust.hpp"
#include "verbs.hpp"

int main(int argc, char** argv) {
  using namespace warlog::cli;
  CLI::App app{
      "warlog: record, replay and audit games of the card wargame against its written rules.\n"
      "Every verb works on one store (an LMDB directory): --store PATH, else $WARLOG_STORE,\n"
      "else .warlog/store under the current directory.\n"
      "Exit codes: 0 clean, 1 violations found, 2 usage or I/O error.",
      "warlog"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every verb");
  app.footer(
      "Examples:\n"
      "  warlog import samples/games/*.wlog      import typed-up games\n"
      "  warlog audit                            audit every game, findings with rule citations\n"
      "  warlog audit --game 1 --format json     one game, machine-readable\n"
      "  warlog verify                           check every game's hash chain\n"
      "  warlog rule-diff --candidate new.toml   which games a rule change affects, and where\n"
      "  warlog rules                            list every rule the engine enforces\n"
      "  warlog dispute add --game 1 --seq 122 --claim TEXT --by NAME  record a dispute beside the log\n"
      "  warlog sign --game 1 --key KEYFILE --signer NAME   sign a game (keygen makes the key)\n"
      "  warlog trust add 'Head Judge' judge.pub            trust a key; verify then names its signer\n"
      "  warlog generate --games 100 --seed 1    random legal games, for scale tests\n"
      "Run 'warlog VERB --help' for a verb's options.");

  Options opts;
  auto add_store = [&opts](CLI::App* sub) {
    sub->add_option("--store", opts.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  };

  CLI::App* import = app.add_subcommand("import", "Import games written in the warlog notation (.wlog)");
  add_store(import);
  import->add_option("files", opts.files, "Game files; each becomes one game, all or nothing")->required();
  import->add_option("--catalog", opts.catalog, "Card catalog CSV for files without a [Catalog] tag");
  import->add_option("--ruleset", opts.ruleset, "Ruleset TOML for files without a [Ruleset] tag");
  import->footer("Errors are reported as FILE:LINE:COL with a hint; a file with errors writes nothing.");

  CLI::App* audit = app.add_subcommand("audit", "Fold games and report every finding with its rule section");
  add_store(audit);
  audit->add_option("--game", opts.games, "Game id(s) to audit (default: all)");
  audit->add_option("--ruleset", opts.ruleset, "Audit under this ruleset TOML instead of the recorded one");
  audit->add_option("--catalog", opts.catalog, "Audit under this catalog CSV instead of the recorded one");
  audit->add_option("--format", opts.format, "text, json or junit (one test case per game)")
      ->check(CLI::IsMember({"text", "json", "junit"}));
  audit->add_option("--jobs,-j", opts.jobs, "Threads (default: one per core)");
  audit->add_option("--shard", opts.shard, "Only games whose id % N == K, as K/N: one machine's share");
  audit->footer("Exit 0 when no game has a violation, 1 when any has, 2 on error.\n"
                "A progress line with rate and ETA is shown when stderr is a terminal.");

  CLI::App* diff = app.add_subcommand("rule-diff", "Re-audit games under a changed ruleset or card list: what changes");
  add_store(diff);
  diff->add_option("--base", opts.base_ruleset, "Ruleset TOML to compare from (default: each game's recorded one)");
  diff->add_option("--candidate", opts.candidate_ruleset, "Ruleset TOML to compare to (default: recorded)");
  diff->add_option("--base-catalog", opts.base_catalog, "Card catalog CSV to compare from (default: recorded)");
  diff->add_option("--candidate-catalog", opts.candidate_catalog, "Card catalog CSV to compare to (default: recorded)");
  diff->add_option("--game", opts.games, "Game id(s) (default: all)");
  diff->add_option("--format", opts.format, "text, json or junit")->check(CLI::IsMember({"text", "json", "junit"}));
  diff->add_option("--jobs,-j", opts.jobs, "Threads (default: one per core)");
  diff->add_option("--shard", opts.shard, "Only games whose id % N == K, as K/N");
  diff->footer("For each changed game: the first divergent event (seq, turn, phase) and what differs in the state\n"
               "there, the outcome before and after, findings added (+) and removed (-).\n"
               "Example: warlog rule-diff --candidate my_change.toml\n"
               "Exit 0 when no game changes, 1 when any does, 2 on error.");

  CLI::App* verify = app.add_subcommand("verify", "Walk each game's hash chain and report the first broken link");
  add_store(verify);
  verify->add_option("--game", opts.games, "Game id(s) to verify (default: all)");
  verify->add_option("--keyring", opts.keyring, "Keyring of trusted keys (default: $WARLOG_KEYRING, else "
                                                "~/.config/warlog/keyring; see warlog trust)");
  verify->add_flag("--require-signed", opts.require_signed,
                   "Exit 1 for any game not signed as it stands by a trusted key");
  verify->footer("Checks each event's key and sequence, that its bytes decode, that its prev_hash chains to the\n"
                 "event before, the head hash in the game's metadata, and the annotation chain (disputes,\n"
                 "rulings, signatures: the first altered one is named, then its count and head). Then says who\n"
                 "attests each game, against your keyring (warlog trust):\n"
                 "  valid, signed by trusted 'NAME' (key ID), self-declared 'SIGNER'   (a name mismatch is flagged)\n"
                 "  valid signature by an unknown key ID | stale: N events since | INVALID: why\n"
                 "  unsigned: consistent, nobody attests it\n"
                 "and VANISHED for a state the keyring saw signed by a trusted key that is no longer in the game.\n"
                 "A consistent store is not an attested one: without a trusted signature, whoever can write the\n"
                 "store could have rewritten it whole (docs/reliability.md).\n"
                 "Exit 0 when every chain is intact and no signature fails, 1 when a chain is broken, a signature\n"
                 "or a signed ruling is INVALID, a signed state vanished, or (--require-signed) a game lacks a\n"
                 "current trusted signature; 2 on error.");

  CLI::App* list = app.add_subcommand("list", "List the games in the store");
  add_store(list);
  list->add_option("--format", opts.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  list->footer("One line per game: id, date, events, title, players and allegiances. The ids are what\n"
               "--game takes everywhere, and are given in import order.");

  CLI::App* exp = app.add_subcommand("export", "Print a stored game as notation, JSON Lines or Cap'n Proto");
  add_store(exp);
  exp->add_option("game", opts.game, "Game id")->required();
  exp->add_option("--format", opts.format, "notation (default), json (JSON Lines), capnp or capnp-binary")
      ->check(CLI::IsMember({"text", "notation", "json", "capnp", "capnp-binary"}));
  exp->footer("notation imports again into another store (its [Catalog]/[Ruleset] tags hold the recorded\n"
              "content hashes, which that store must hold, or give --catalog/--ruleset files).\n"
              "json: one event per line, every field. capnp: the stored packed messages as they were hashed;\n"
              "  capnp convert packed:text events/schema/warlog.capnp Event < OUT\n"
              "capnp-binary: the same, unpacked, for capnp convert binary:text.");

  CLI::App* rules = app.add_subcommand("rules", "List every rule: id, citation, severity, basis, ruleset option");
  rules->add_option("--format", opts.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  rules->footer("Every finding names one of these ids; its citation is the rules section it implements.\n"
                "basis 'assumed' marks rules resting on an unpublished page (docs/rulings.md says how each was read);\n"
                "the option is the ruleset TOML key that changes the rule.");

  GenerateArgs generate_args;
  CLI::App* generate = add_generate(app, opts, generate_args);
  SnapshotArgs snapshot_args;
  CLI::App* snapshot = add_snapshot(app, opts, snapshot_args);

  DisputeArgs dispute_args;  // cli/dispute.cpp
  CLI::App* dispute = add_dispute(app, dispute_args);
  SigningArgs signing_args;  // cli/signing.cpp
  auto [keygen, sign] = add_signing(app, signing_args);
  TrustArgs trust_args;  // cli/trust.cpp
  CLI::App* trust = add_trust(app, trust_args);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitError;
  }

  try {
    if (*import) return run_import(opts);
    if (*audit) return run_audit(opts);
    if (*verify) return run_verify(opts);
    if (*list) return run_list(opts);
    if (*rules) return run_rules(opts);
    if (*diff) return run_rule_diff(opts);
    if (*exp) return run_export(opts);
    if (*generate) return run_generate(opts, generate_args);
    if (*snapshot) return run_snapshot(opts, snapshot_args);
    if (*dispute) return run_dispute(dispute_args);
    if (*keygen) return run_keygen(signing_args);
    if (*sign) return run_sign(signing_args);
    if (*trust) return run_trust(trust_args);
  } catch (const std::exception& e) {
    // Only a bug in warlog gets here: say so in one line, never a trace.
    fmt::print(stderr, "warlog: internal error: {}\n", e.what());
    return kExitError;
  }
  return kExitError;
}
