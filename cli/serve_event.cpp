// warlog serve decks | round open | results | cert: the head judge's verbs
// for running an event (tournament/; docs/server.md § 7). decks and round
// open are writing verbs (they open the store in this process, as import
// and record do); results only reads.

#include "serve_event.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>

#include "common.hpp"
#include "dispute.hpp"
#include "json_schema.hpp"
#include "trust.hpp"
#include "verbs.hpp"
#include "warlog/core/text_file.hpp"
#include "warlog/tournament/cert.hpp"
#include "warlog/tournament/decklists.hpp"
#include "warlog/tournament/round.hpp"

namespace warlog::cli {

namespace {

int fail(const Error& e) {
  error_line(e);
  return kExitError;
}

// A message of several lines (every problem of a file): each its own line.
int fail_lines(const std::string& message) {
  std::size_t start = 0;
  while (start <= message.size()) {
    const std::size_t nl = message.find('\n', start);
    fmt::print(stderr, "warlog: {}\n", message.substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  return kExitError;
}

std::string default_cert_dir() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x != nullptr && *x != '\0') {
    return (std::filesystem::path(x) / "warlog" / "tls").string();
  }
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0') {
    return (std::filesystem::path(h) / ".config" / "warlog" / "tls").string();
  }
  return "warlog-tls";
}

std::string deck_size(const tournament::Decklist& d) {
  int army = 0, orders = 0;
  for (const auto& c : d.army) army += c.count;
  for (const auto& c : d.orders) orders += c.count;
  return orders > 0 ? fmt::format("{} + {} Orders cards", army, orders) : fmt::format("{} cards", army);
}

int run_decks(const EventArgs& a) {
  auto archive = replay::Archive::open(a.store, replay::Archive::Mode::ReadWrite);
  if (!archive) return fail(archive.error());
  tournament::DeckInput in;
  if (!a.event_file.empty()) in.event_file = a.event_file;
  in.paths = a.deck_paths;
  auto done = tournament::register_decklists(*archive, in);
  if (!done) return fail_lines(done.error().message);
  if (!done->refused.empty()) {
    for (const auto& f : done->refused) {
      fmt::print(stderr, "warlog: {}: {}'s decklist breaks {} ({}): {}\n", f.source, f.player, f.citation, f.rule_id,
                 f.message);
    }
    fmt::print(stderr, "warlog: nothing registered: {} decklist fault{}\n", done->refused.size(),
               done->refused.size() == 1 ? "" : "s");
    return kExitViolations;
  }
  const auto& reg = done->registry;
  fmt::print("{}: {} decklist{} registered ({} new, {} replaced), audited against Deck Construction\n", reg.event.name,
             reg.decklists.size(), reg.decklists.size() == 1 ? "" : "s", done->added.size(), done->replaced.size());
  for (const auto& d : reg.decklists) {
    fmt::print("  {} ({}): {}\n", d.player, core::to_string(d.allegiance), deck_size(d));
  }
  return kExitClean;
}

int run_round_open(const EventArgs& a) {
  auto archive = replay::Archive::open(a.store, replay::Archive::Mode::ReadWrite);
  if (!archive) return fail(archive.error());
  auto csv = core::read_text_file(a.pairings, core::kMaxDeckFileBytes, "pairings file");
  if (!csv) return fail(csv.error());
  auto opened = tournament::open_round(*archive, a.round, *csv, a.pairings, now_ms());
  if (!opened) {
    for (const std::string& d : opened.error().details) fmt::print(stderr, "warlog: {}\n", d);
    return fail(opened.error().error);
  }
  fmt::print("{}: round {} open, {} game{}\n", opened->event, opened->round, opened->games.size(),
             opened->games.size() == 1 ? "" : "s");
  for (const auto& g : opened->games) {
    fmt::print("table {}: game {} ({} vs {})\n", g.table, g.game, g.player1, g.player2);
  }
  for (const auto& b : opened->byes) fmt::print("table {}: {} has a bye (no game)\n", b.table, b.player1);
  return kExitClean;
}

int run_results(const EventArgs& a) {
  auto archive = replay::Archive::open(a.store, replay::Archive::Mode::ReadOnly);
  if (!archive) return fail(archive.error());
  std::string event = a.event;
  if (event.empty()) {
    auto reg = tournament::load_registry(*archive);
    if (!reg) return fail_lines(reg.error().message);
    if (!*reg) return fail(Error{ErrorCode::NotFound, "no event is registered in this store: name it with --event NAME"});
    event = (*reg)->event.name;
  }
  auto keyring = open_keyring(a.keyring, a.store, false);
  if (!keyring) return fail(keyring.error());
  auto results = tournament::round_results(*archive, event, a.round, *keyring);
  if (!results) return fail(results.error());
  if (a.format == "json") {
    nlohmann::json j = tournament::results_json(event, a.round, *results);
    j["schema"] = schema_json("serve-results");
    fmt::print("{}\n", j.dump(2));
  } else {
    fmt::print("{}", tournament::results_csv(*results));
  }
  return kExitClean;
}

int run_cert(const EventArgs& a) {
  tournament::CertRequest req;
  req.hosts = a.hosts;
  req.dir = a.out.empty() ? default_cert_dir() : a.out;
  auto made = tournament::make_certificates(req);
  if (!made) return fail(made.error());
  fmt::print("{} the certificate authority: {}\n", made->ca_created ? "made" : "kept", made->ca_cert);
  fmt::print("CA SHA-256 fingerprint: {}\n", made->ca_fingerprint);
  fmt::print("server certificate for {}: {} (key {})\n", fmt::join(a.hosts, ", "), made->server_cert, made->server_key);
  fmt::print("install {} on each device (docs/server.md § 5), and compare the fingerprint it shows\n", made->ca_cert);
  return kExitClean;
}

}  // namespace

void add_event_verbs(CLI::App& serve, EventArgs& a) {
  CLI::App* decks = serve.add_subcommand("decks", "Register the event's decklists, each audited against Deck Construction");
  decks->add_option("store", a.store, "Store directory")->required();
  decks->add_option("decklists", a.deck_paths, "A folder (its event.wlog and *.decklist files) or decklist files")
      ->required();
  decks->add_option("--event", a.event_file, "The event's tags: [Event], [Date], [Ruleset], [Catalog], [Board], "
                                             "[Territory] (default: FOLDER/event.wlog, else the registered event)");
  decks->footer(
      "A decklist file holds one or more players' decklists, tags as in the notation:\n"
      "  [Player \"Alice\"]\n  [Allegiance \"Claw Empire\"]\n"
      "  [Army \"../decks/claw_vanguard.deck\"]     a deck file (docs/notation.md section 3), or [Army 6 \"Ironclaw Lancer\"]\n"
      "  [Orders \"../decks/claw_orders.deck\"]\n"
      "Each is audited as the audit folds a game's ArmyRegistered, under the event's ruleset, catalog and\n"
      "Territories; a deck that breaks Deck Construction is named with its rule section and nothing is registered.\n"
      "The registry (STORE/event.wlog) only feeds `serve round open`: each game carries its own decks.\n"
      "A player registered again is replaced; one named twice in one call is refused.\n"
      "Exit 0 when registered, 1 when a decklist breaks Deck Construction (nothing registered), 2 on error.");

  CLI::App* round = serve.add_subcommand("round", "Open a round of the event");
  round->require_subcommand(1);
  round->footer("serve round open STORE --round R --pairings FILE.csv creates the round's games, one per table.\n"
                "Exit 0 when the round is open, 2 on error.");
  CLI::App* open = round->add_subcommand("open", "Create one game per table from a pairings CSV");
  open->add_option("store", a.store, "Store directory")->required();
  open->add_option("--round", a.round, "The round's number, from 1")->required()->check(CLI::Range(1, 65535));
  open->add_option("--pairings", a.pairings, "The pairings CSV a tournament tool exports")->required();
  open->footer(
      "Columns are found by the header's names, in any order (Table, Player 1, Player 2; also Table No, Player A/B,\n"
      "Opponent); other columns (points, standings) are ignored. A row without a table or a player, a table or a\n"
      "player twice, or a player with no registered decklist is refused with its line, and nothing is created.\n"
      "A player 2 of BYE is a bye: no game. Each game's GameCreated records the event, round and table, and its\n"
      "ArmyRegistered events the players' registered decks; record it with warlog record STORE --game N.\n"
      "A round that has games already is refused.\n"
      "Exit 0 when the round is open (one line per table: its game number), 2 on error.");

  CLI::App* results = serve.add_subcommand("results", "Write a round's results as CSV (or JSON), from its games");
  results->add_option("store", a.store, "Store directory")->required();
  results->add_option("--round", a.round, "The round's number")->required()->check(CLI::Range(1, 65535));
  results->add_option("--event", a.event, "The event's name (default: the registered event)");
  results->add_option("--format", a.format, "csv (default) or json (docs/schema/serve-results.schema.json)")
      ->check(CLI::IsMember({"csv", "json"}));
  results->add_option("--keyring", a.keyring, "Keyring of trusted keys for the signed column (default: "
                                              "$WARLOG_KEYRING, else ~/.config/warlog/keyring)");
  results->footer(
      "One row per table: table, game, player_1, player_2, result (won, ended, playing), winner, victory, turn,\n"
      "open_violations, open_disputes, signed. The result is the fold's, voids and backups applied; a violation\n"
      "is open until a dispute at its event is resolved; signed is trusted when a trusted key signed the game as\n"
      "it stands (else unsigned, stale, unknown key or INVALID: warlog verify says more).\n"
      "Exit 0, or 2 on error (a round with no game).");

  CLI::App* cert = serve.add_subcommand("cert", "Make a local certificate authority and the server's certificate");
  cert->add_option("--host", a.hosts, "The server's host name or IP address (repeat for several)")->required();
  cert->add_option("--out", a.out, "Folder for ca.key, ca.crt, server.key, server.crt (default: "
                                   "$XDG_CONFIG_HOME/warlog/tls, ~/.config/warlog/tls)");
  cert->footer(
      "For a venue without internet: ECDSA P-256, the CA valid 5 years, the server certificate 397 days with the\n"
      "hosts in subjectAltName. An existing CA in the folder is kept and used, its key never overwritten; run it\n"
      "again for a new server address. Keys are written mode 0600. Prints the CA's SHA-256 fingerprint, to compare\n"
      "with what a phone shows when the CA is installed (docs/server.md section 5).\n"
      "Exit 0, or 2 on error.");

  a.decks = decks;
  a.round_open = open;
  a.results = results;
  a.cert = cert;
}

int run_event_verbs(const EventArgs& a) {
  if (a.decks != nullptr && a.decks->parsed()) return run_decks(a);
  if (a.round_open != nullptr && a.round_open->parsed()) return run_round_open(a);
  if (a.results != nullptr && a.results->parsed()) return run_results(a);
  if (a.cert != nullptr && a.cert->parsed()) return run_cert(a);
  return -1;
}

}  // namespace warlog::cli
