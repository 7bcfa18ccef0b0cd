// warlog: the command line. Wires verbs to the replay facade; no rule logic.
// Exit codes: 0 clean, 1 findings of severity violation, 2 usage or I/O error.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "dispute.hpp"
#include "trust.hpp"
#include "manners.hpp"
#include "merge.hpp"
#include "serve_event.hpp"
#include "store_process.hpp"
#include "verbs.hpp"

int main(int argc, char** argv) {
  using namespace warlog::cli;
  CLI::App app{
      "warlog: record, replay and audit games of the card wargame against its written rules.\n"
      "Every verb works on one store (an LMDB directory): --store PATH, else $WARLOG_STORE,\n"
      "else .warlog/store under the current directory.\n"
      "Exit codes: 0 clean, 1 when the verb found what it looks for (violations, a broken chain, a\n"
      "changed game: each verb's --help says), 2 usage or I/O error.\n"
      "The reading verbs read the store in a separate process: a data file damaged at the page level\n"
      "is one line on stderr naming the game (and page) it stopped at, exit 2, and the other games are\n"
      "still reported. The writing verbs (import, dispute, sign, migrate, record, generate) do their store\n"
      "work in a child process too: a writer that dies on a damaged page is the same one line, exit 2,\n"
      "and its uncommitted write leaves the store as it was.",
      "warlog"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "Show help for every verb");
  app.footer(
      "Examples:\n"
      "  warlog import samples/games/*.wlog      import typed-up games\n"
      "  warlog record S --header table4.wlog    record a game as it is played, line by line\n"
      "  warlog audit                            audit every game, findings with rule citations\n"
      "  warlog audit --game 1 --format json     one game, machine-readable\n"
      "  warlog verify                           check every game's hash chain\n"
      "  warlog rule-diff --candidate new.toml   which games a rule change affects, and where\n"
      "  warlog rules                            list every rule the engine enforces\n"
      "  warlog dispute add --game 1 --seq 122 --claim TEXT --by NAME  record a dispute beside the log\n"
      "  warlog sign --game 1 --key KEYFILE --signer NAME   sign a game (keygen makes the key)\n"
      "  warlog trust add 'Head Judge' judge.pub            trust a key; verify then names its signer\n"
      "  warlog generate --games 100 --seed 1    random legal games, for scale tests\n"
      "  warlog backup /mnt/copies/store         a verified copy of the store, while it is in use\n"
      "  warlog audit --shard 0/8 > part-0.jsonl one of 8 shards; warlog merge part-*.jsonl joins them\n"
      "  warlog serve round open S --round 1 --pairings r1.csv   a round's games, one per table\n"
      "  warlog serve S --http 0.0.0.0:8080 --insecure-lan   the tables of an event record into one store\n"
      "Run 'warlog help VERB' (or 'warlog VERB --help') for a verb's options and exit codes.");

  Options opts;
  auto add_store = [&opts](CLI::App* sub) {
    sub->add_option("--store", opts.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  };

  CLI::App* import = app.add_subcommand("import", "Import games written in the warlog notation (.wlog)");
  add_store(import);
  import->add_option("files", opts.files, "Game files; each becomes one game, all or nothing")->required();
  import->add_option("--catalog", opts.catalog, "Card catalog CSV for files without a [Catalog] tag");
  import->add_option("--ruleset", opts.ruleset, "Ruleset TOML for files without a [Ruleset] tag");
  import->footer("Errors are reported as FILE:LINE:COL with a hint; a file with errors writes nothing.\n"
                 "Files are read only when regular and within a limit: a game 64 MiB, a catalog or ruleset\n"
                 "16 MiB, a deck 1 MiB, any line 64 KiB. Text must be UTF-8 without control characters\n"
                 "(docs/notation.md > Files named in tags).\n"
                 "Exit 0 when every file was imported, 2 when any was not (the others are still imported).");

  CLI::App* audit = app.add_subcommand("audit", "Fold games and report every finding with its rule section");
  add_store(audit);
  audit->add_option("--game", opts.games, "Game id(s) to audit (default: all)");
  audit->add_option("--ruleset", opts.ruleset, "Audit under this ruleset TOML instead of the recorded one");
  audit->add_option("--catalog", opts.catalog, "Audit under this catalog CSV instead of the recorded one");
  audit->add_option("--format", opts.format, "text, json, jsonl (a game a line, then a summary line) or junit")
      ->check(CLI::IsMember({"text", "json", "jsonl", "junit"}));
  audit->add_flag("--quiet,-q", opts.quiet, "Only games with findings (after --severity and --rule)");
  audit->add_option("--severity", opts.severity, "Only findings at least this severe: violation, warning or note")
      ->check(CLI::IsMember({"violation", "warning", "note"}));
  audit->add_option("--rule", opts.rule, "Only findings of this rule id (an old id names it too)");
  audit->add_flag("--summary", opts.summary, "Only the totals");
  audit->add_option("--color", opts.color,
                    "Colour the severities and citations of text: auto (on a terminal, unless NO_COLOR is set), "
                    "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  audit->add_option("--jobs,-j", opts.jobs, "Threads (default: one per core)");
  audit->add_option("--shard", opts.shard,
                    "One share of the games, K/N (0 <= K < N), as a partial report for warlog merge "
                    "(docs/scaling.md)");
  audit->add_flag("--times", opts.times,
                  "Also show the recorded time of each turn and phase part (for slow-play claims); JSON: \"times\"");
  audit->add_option("--keyring", opts.keyring, "Keyring of trusted keys (default: $WARLOG_KEYRING, else "
                                               "~/.config/warlog/keyring; see warlog trust)");
  audit->add_flag("--require-signed", opts.require_signed,
                  "Exit 1 for any game not signed as it stands by a trusted key (as verify)");
  audit->add_flag("--rests-on", opts.rests_on,
                  "Also show which findings and which result rest on an earlier violation: each of the first 16\n"
                  "violations' events is skipped and the game folded again from there (up to 17 folds a game);\n"
                  "JSON: \"rests_on\" on each finding and the game");
  audit->footer("Each finding names its rule, severity and basis: written (a rules document), assumed (a page not\n"
                "published yet) or warlog (the log's own consistency, docs/warlog-rules.md); `warlog rules ID` says more.\n"
                "--severity and --rule choose the findings reported, counted and exited on; --quiet leaves out\n"
                "games with none. json: one object (schema, games, summary); jsonl: a line per game as it is\n"
                "audited, then a summary line (docs/schema/audit.schema.json).\n"
                "--shard K/N: the games whose id hashes to K of N (BLAKE2b, docs/scaling.md), written as a\n"
                "partial report holding every format; warlog merge PARTS --format F joins the N parts into the\n"
                "report one run gives. A shard exits 0 once its part is written (merge gives the verdict).\n"
                "Exit 0 when no game has a violation, 1 when any has (or its trust fails, below), 2 on error.\n"
                "A game that cannot be audited (its record or events damaged, or written by a newer warlog; events\n"
                "or annotations with no game record: \"game N: events with no game record\") is one line on stderr\n"
                "and exit 2; the other games are still audited and reported.\n"
                "Corrections (void, backup: docs/warlog-rules.md) are notes; the events they strike are listed\n"
                "after the findings as ~~Event~~ with who struck them and why, and their findings are notes.\n"
                "Each game's second line says who attests what was folded, against your keyring, in verify's words:\n"
                "  trust: valid, signed by trusted 'NAME' (key ID) | valid signature by an unknown key ID\n"
                "  trust: stale: N events since | INVALID: why | unsigned: consistent, nobody attests it\n"
                "(JSON: \"trust\"; JUnit: <system-out>); the summary counts the games a trusted key signed as they\n"
                "stand. A signature that fails (INVALID, a signed state VANISHED, a signed ruling that does not\n"
                "hold) or, with --require-signed, a game without a current trusted signature also exits 1.\n"
                "A finding found after the event it concerns says so (\"concerning seq N\"; JSON: \"concerns\").\n"
                "With --rests-on, a finding or the result that the fold gives only because of an earlier\n"
                "violation says which (\"rests on the violation at seq N\"; JSON: \"rests_on\").\n"
                "A progress line with rate and ETA is shown when stderr is a terminal.");

  CLI::App* diff = app.add_subcommand("rule-diff", "Re-audit games under a changed ruleset or card list: what changes");
  add_store(diff);
  diff->add_option("--base", opts.base_ruleset, "Ruleset TOML to compare from (default: each game's recorded one)");
  diff->add_option("--candidate", opts.candidate_ruleset, "Ruleset TOML to compare to (default: recorded)");
  diff->add_option("--base-catalog", opts.base_catalog, "Card catalog CSV to compare from (default: recorded)");
  diff->add_option("--candidate-catalog", opts.candidate_catalog, "Card catalog CSV to compare to (default: recorded)");
  diff->add_option("--game", opts.games, "Game id(s) (default: all)");
  diff->add_option("--format", opts.format,
                   "text (the totals first), json, jsonl (one game a line), csv, html (one page) or junit")
      ->check(CLI::IsMember({"text", "json", "jsonl", "csv", "html", "junit"}));
  diff->add_flag("--summary", opts.summary, "Only the totals (text: one screen)");
  diff->add_option("--only", opts.only,
                   "Only games of this class: findings, outcome or undetermined (the totals too)")
      ->check(CLI::IsMember({"findings", "outcome", "undetermined"}));
  diff->add_option("--rule", opts.rule, "Only games whose findings under this rule id change (the totals too)");
  diff->add_option("--jobs,-j", opts.jobs, "Threads (default: one per core)");
  diff->add_option("--shard", opts.shard,
                   "One share of the games, K/N (0 <= K < N), as a partial report for warlog merge "
                   "(docs/scaling.md)");
  diff->footer("Give what changes: --candidate RULES.toml, --candidate-catalog CARDS.csv, or both.\n"
               "Each game falls in one class: unchanged; findings (new or gone, the same outcome); outcome (it\n"
               "changes); undetermined (from some event on the candidate raises a violation about a Troop, card\n"
               "or count the two folds already disagree on, so the recording no longer says what happened).\n"
               "Text opens with the totals: games per class, the rules whose findings change, the turns where\n"
               "games first diverge, the first outcome flips (24 lines at most; under --only or --rule, of the\n"
               "games they select: \"3 of 14 games\"); then per changed game the first divergent event (seq,\n"
               "turn, phase, seat) and what differs there in the game's terms, where it stops being\n"
               "followable, the outcome, findings new (+) and gone (-). The exit code is of every game.\n"
               "json: one object (schema, games, summary); jsonl: a line per game, then a summary line; csv: a\n"
               "row per game; html: a self-contained page, the same tables and a chart of the turns where\n"
               "games first diverge. Schemas: docs/schema/rule-diff.schema.json.\n"
               "Example: warlog rule-diff --candidate samples/rulesets/burrowed_hidden.toml --only outcome\n"
               "--shard K/N: one share of the games as a partial report; warlog merge joins the parts (as audit).\n"
               "Exit 0 when no game changes, 1 when any does, 2 on a usage error (nothing to compare, a file\n"
               "given to the wrong option) or when a game cannot be compared (one line on stderr; the other\n"
               "games are still compared and reported).");

  CLI::App* verify = app.add_subcommand("verify", "Check each game's blocks, chain and record and report the first broken link");
  add_store(verify);
  verify->add_option("--game", opts.games, "Game id(s) to verify (default: all)");
  verify->add_flag("--snapshots", opts.snapshots,
                   "Also fold each game and compare every snapshot of it in your cache with the fold");
  verify->add_option("--keyring", opts.keyring, "Keyring of trusted keys (default: $WARLOG_KEYRING, else "
                                                "~/.config/warlog/keyring; see warlog trust)");
  verify->add_flag("--require-signed", opts.require_signed,
                   "Exit 1 for any game not signed as it stands by a trusted key");
  verify->add_option("--format", opts.format, "text or json (docs/schema/verify.schema.json)")
      ->check(CLI::IsMember({"text", "json"}));
  verify->footer("Checks each game's record and identity, that its blocks follow each other and decode, each event's\n"
                 "tag (names the first altered event), each block's chain hash (names the altered block), the count\n"
                 "and head in the game record, the catalog and ruleset it names, and the annotation chain (disputes,\n"
                 "rulings, signatures: the first altered one is named, then its count and head); events or\n"
                 "annotations with no game record (a deleted record) are reported as a broken game that cannot be\n"
                 "checked (exit 2). Then says who attests each game, against your keyring\n"
                 "(warlog trust):\n"
                 "  valid, signed by trusted 'NAME' (key ID), self-declared 'SIGNER'   (a name mismatch is flagged)\n"
                 "  valid signature by an unknown key ID | stale: N events since | INVALID: why\n"
                 "  unsigned: consistent, nobody attests it\n"
                 "and VANISHED for a state the keyring saw signed by a trusted key that is no longer in the game.\n"
                 "Each backup a judge signed at the recorder (warlog record --sign-as) is checked the same way.\n"
                 "A consistent store is not an attested one: without a trusted signature, whoever can write the\n"
                 "store could have rewritten it whole (docs/reliability.md).\n"
                 "--snapshots: one line per cached snapshot that is not simply right (and a count of those that\n"
                 "are): a state that DIFFERS from the fold, or one that is unusable (a failed MAC, undecodable),\n"
                 "is removed, and the line says so; stale ones and other rulesets' are left.\n"
                 "Exit 0 when every chain is intact and no signature fails; 1 when a chain is broken (a game record\n"
                 "that does not decode is broken at seq 0), a signature, a signed ruling or a signed backup is\n"
                 "INVALID, a signed state vanished, a snapshot differed from the fold, or (--require-signed) a game\n"
                 "lacks a current trusted signature; 2 on error (one line per game that cannot be checked; the\n"
                 "others go on; a game id with events or annotations but no game record).");

  CLI::App* list = app.add_subcommand("list", "List the games in the store");
  add_store(list);
  list->add_option("--format", opts.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  list->footer("One line per game: id, date, events, title, the result its log records (its 'end' line:\n"
               "\"Supremacy Victory for Tamsin on turn 22\", or \"none recorded\"; audit gives the result the\n"
               "rules derive, which may differ), players and allegiances. The ids are what\n"
               "--game takes everywhere, and are given in import order. A game whose record cannot be read\n"
               "is one line on stderr (game, why), as are events or annotations with no game record (\"game N:\n"
               "events with no game record\": a deleted record hides no game), and the others are listed.\n"
               "Exit 0, or 2 when any such line was printed or on error.");

  CLI::App* exp = app.add_subcommand("export", "Print a stored game as notation, JSON Lines or Cap'n Proto");
  add_store(exp);
  exp->add_option("game", opts.game, "Game id")->required();
  exp->add_option("--format", opts.format, "notation (default), json (JSON Lines), capnp or capnp-binary")
      ->check(CLI::IsMember({"text", "notation", "json", "capnp", "capnp-binary"}));
  exp->add_option("--keyring", opts.keyring, "Keyring of trusted keys (default: $WARLOG_KEYRING, else "
                                             "~/.config/warlog/keyring; see warlog trust)");
  exp->footer("notation imports again into another store (its [Catalog]/[Ruleset] tags hold the recorded\n"
              "content hashes, which that store must hold, or give --catalog/--ruleset files).\n"
              "json: one event per line, every field. capnp: the stored canonical messages, packed;\n"
              "  capnp convert packed:text events/schema/warlog.capnp Event < OUT\n"
              "capnp-binary: the same unpacked (a segment table, then the canonical bytes the chain covers),\n"
              "  for capnp convert binary:text.\n"
              "Who attests what was exported goes to stderr, one line in verify's words (\"game 1: trust: valid,\n"
              "signed by trusted 'Head Judge' (key ID) ...\", \"... unsigned: consistent, nobody attests it\"), so\n"
              "stdout is only the game.\n"
              "notation is read back as import would read it; one that would not give the very events stored\n"
              "(a re-import would be another game, with another chain head) says what differs, on stderr.\n"
              "Exit 0 on success, 1 when the notation does not carry the game exactly (it is still printed),\n"
              "2 on error (no such game, or one that cannot be read).");

  CLI::App* rules = app.add_subcommand("rules", "List every rule: id, citation, severity, basis, ruleset option");
  rules->add_option("ids", opts.rule_ids, "Show only these rules (a renamed rule's old id names it too)");
  rules->add_option("--format", opts.format, "text or json")->check(CLI::IsMember({"text", "json"}));
  rules->add_flag("--show", opts.rules_show, "Print each rule's section of the rules documents, in their own words");
  rules->add_option("--rules", opts.rules_dir, "The folder of the rules documents (default: $WARLOG_RULES, then the "
                                               "folder configured at build time, ../shared/rules)");
  rules->footer("Every finding names one of these ids; its citation is the rules section it implements\n"
                "(a heading of docs/rules-index.tsv, the index of ../shared/rules and docs/warlog-rules.md).\n"
                "basis 'written': the rule rests on the designer's rules documents; 'assumed': on a page not\n"
                "published yet (docs/rulings.md says how each was read); 'warlog': on no document, warlog's own\n"
                "rule for a consistent log (docs/warlog-rules.md).\n"
                "--show prints the section each rule cites, read from the rules documents (never copied into\n"
                "warlog): warlog rules --show MUS-a.draw. A document that differs from the one indexed is refused.\n"
                "The option is the ruleset TOML key that changes the rule. Ids are never reused: a renamed\n"
                "rule lists its old ids ('formerly'), and an old id still names it here, in --expect and --cite.\n"
                "Exit 0, or 2 on error (an unknown id; with --show, no rules folder or a section that cannot be read).");

  CLI::App* migrate = add_migrate(app, opts);
  RecordArgs record_args;  // cli/record.cpp
  CLI::App* record = add_record(app, record_args);

  GenerateArgs generate_args;
  CLI::App* generate = add_generate(app, opts, generate_args);
  SnapshotArgs snapshot_args;
  CLI::App* snapshot = add_snapshot(app, opts, snapshot_args);
  BackupArgs backup_args;  // cli/backup.cpp
  CLI::App* backup = add_backup(app, opts, backup_args);

  MergeArgs merge_args;  // cli/merge.cpp
  CLI::App* merge = add_merge(app, merge_args);

  DisputeArgs dispute_args;  // cli/dispute.cpp
  CLI::App* dispute = add_dispute(app, dispute_args);
  SigningArgs signing_args;  // cli/signing.cpp
  auto [keygen, sign] = add_signing(app, signing_args);
  TrustArgs trust_args;  // cli/trust.cpp
  CLI::App* trust = add_trust(app, trust_args);
  ServeArgs serve_args;  // cli/serve.cpp
  CLI::App* serve = add_serve(app, serve_args);

  // warlog serve's event verbs (cli/serve_event.cpp: decks, round open,
  // results, cert) beside the server itself and its tokens (cli/serve.cpp).
  EventArgs event_args;
  add_event_verbs(*serve, event_args);

  add_manners(app);  // cli/manners.cpp: --version, help VERB, one-line errors with suggestions; last

  if (auto answered = answer_before_parse(app, argc, argv)) return *answered;

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitClean : kExitError;  // 0: --version
  }

  // A shard's part holds every format: merge --format chooses.
  opts.format_given = audit->get_option("--format")->count() + diff->get_option("--format")->count() > 0;

  // Every verb that opens the store opens it in a process of its own: the
  // reading verbs per game (isolated.hpp), the others whole
  // (store_process.hpp), so a damaged page never ends warlog by a signal.
  const std::string store = store_or_default(opts.store);
  auto game_text = [](std::uint64_t id) { return fmt::format("game {}", id); };
  try {
    if (*import) return in_store_process(store, "importing", [&] { return run_import(opts); });
    if (*record) {
      if (!record_args.server.empty()) return run_record(record_args);  // no local store: the server's
      const std::string at = store_or_default(!record_args.store_positional.empty() ? record_args.store_positional
                                                                                    : record_args.store);
      const std::string doing = record_args.game != 0 ? "recording " + game_text(record_args.game) : "recording a new game";
      return in_store_process(at, doing, [&] { return run_record(record_args); });
    }
    if (*migrate) return in_store_process(store, "migrating the store", [&] { return run_migrate(opts); });
    if (*audit) return run_audit(opts);
    if (*verify) return run_verify(opts);
    if (*list) return run_list(opts);
    if (*rules) return run_rules(opts);
    if (*diff) return run_rule_diff(opts);
    if (*exp) return run_export(opts);
    if (*merge) return run_merge(merge_args);
    if (*generate) {
      return in_store_process(store, "storing generated games", [&] { return run_generate(opts, generate_args); });
    }
    if (*snapshot) return run_snapshot(opts, snapshot_args);
    if (*backup) return run_backup(opts, backup_args);
    if (*dispute) {
      const bool writes = dispute_args.add->parsed() || dispute_args.resolve->parsed();
      const std::string doing = dispute_args.add->parsed()       ? "adding a dispute to " + game_text(dispute_args.game)
                                : dispute_args.resolve->parsed() ? "ruling on dispute " + dispute_args.id
                                : dispute_args.list->parsed()    ? std::string("listing disputes")
                                                                 : "reading dispute " + dispute_args.id;
      return in_store_process(store_or_default(dispute_args.store), doing, [&] { return run_dispute(dispute_args); },
                              writes ? "writer" : "reader");
    }
    if (*keygen) return run_keygen(signing_args);
    if (*sign) {
      return in_store_process(store_or_default(signing_args.store), "signing " + game_text(signing_args.game),
                              [&] { return run_sign(signing_args); });
    }
    if (*trust) return run_trust(trust_args);
    if (*serve) {
      // A server runs for hours in this process: serve walks the store's
      // pages first instead (cli/serve.cpp; docs/reliability.md). Its event
      // and token verbs are short, and run whole in a child.
      if (event_args.decks->parsed() || event_args.round_open->parsed() || event_args.results->parsed() ||
          event_args.cert->parsed()) {
        return in_store_process(store_or_default(event_args.store), "running an event verb of warlog serve",
                                [&] { return run_event_verbs(event_args); });
      }
      if (!serve_args.token_verb.empty()) {
        const std::string at = store_or_default(!serve_args.store_positional.empty() ? serve_args.store_positional
                                                                                     : serve_args.store);
        return in_store_process(at, "managing the server's tokens", [&] { return run_serve(serve_args); });
      }
      return run_serve(serve_args);
    }
  } catch (const std::exception& e) {
    // Only a bug in warlog gets here: say so in one line, never a trace.
    fmt::print(stderr, "warlog: internal error: {}\n", e.what());
    return kExitError;
  }
  return kExitError;
}
