// warlog serve: the tournament server (server/, docs/server.md), and its
// token verbs. The `serve` verb is registered here; its other subcommands
// (cert, round, results) are added beside `token`.

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>

#include "common.hpp"
#include "json_schema.hpp"
#include "verbs.hpp"
#include "warlog/replay/isolate.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/server/server.hpp"
#include "warlog/server/tokens.hpp"
#include "warlog/tournament/cert.hpp"

namespace warlog::cli {

namespace {

std::string store_of(const ServeArgs& a) {
  if (!a.store_positional.empty()) return a.store_positional;
  return a.store.empty() ? replay::default_store_path() : a.store;
}

int fail(const Error& e) {
  error_line(e);
  return kExitError;
}

std::string utc(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%SZ", &tm);
  return buf;
}

int run_token(const ServeArgs& a) {
  const std::string store = store_of(a);
  if (!std::filesystem::is_directory(store)) {
    return fail(Error{ErrorCode::NotFound, fmt::format("no warlog store at {}", store)});
  }
  if (a.token_verb == "issue") {
    const auto role = server::role_from_string(a.role);
    if (!role) return fail(Error{ErrorCode::InvalidArgument, "--role takes table, judge or public"});
    auto issued = server::issue_token(store, *role, a.game);
    if (!issued) return fail(issued.error());
    fmt::print("{}\n", issued->token);
    fmt::print(stderr, "token {} ({}{}) issued: it is shown this once, keep it; only its hash is stored\n",
               issued->entry.id(), server::to_string(issued->entry.role),
               issued->entry.game ? fmt::format(", game {}", issued->entry.game) : std::string());
    return kExitClean;
  }
  if (a.token_verb == "list") {
    auto tokens = server::list_tokens(store);
    if (!tokens) return fail(tokens.error());
    fmt::print("{:<12}  {:<6}  {:>5}  {}\n", "id", "role", "game", "issued");
    for (const auto& t : *tokens) {
      fmt::print("{:<12}  {:<6}  {:>5}  {}\n", t.id(), server::to_string(t.role), t.game ? std::to_string(t.game) : "-",
                 utc(t.issued_ms));
    }
    return kExitClean;
  }
  auto gone = server::revoke_token(store, a.token_id);
  if (!gone) return fail(gone.error());
  fmt::print("token {} ({}) revoked: a running server refuses it from now on\n", gone->id(),
             server::to_string(gone->role));
  return kExitClean;
}

}  // namespace

CLI::App* add_serve(CLI::App& app, ServeArgs& a) {
  CLI::App* serve = app.add_subcommand("serve", "Serve a store to the tables of an event: the web recorder and its API");
  serve->add_option("store", a.store_positional, "Store directory (default: --store, $WARLOG_STORE, else .warlog/store)");
  serve->add_option("--store", a.store, "Store directory, as the other verbs take it");
  serve->add_option("--http", a.http, "HOST:PORT to serve HTTP on (default 127.0.0.1:8080; port 0 picks one and prints it)");
  serve->add_option("--rpc", a.rpc,
                    "HOST:PORT to serve Cap'n Proto RPC on, for warlog record --server (none by default; port 0 picks "
                    "one and prints it)");
  serve->add_flag("--insecure-lan", a.insecure_lan,
                  "Serve off loopback without TLS (tokens and games cross the network in clear); warns at every start");
  // TLS: one folder, the one `serve cert --out DIR` wrote, so a head judge names one thing.
  serve->add_option("--tls", a.tls_dir,
                    "Serve HTTPS with DIR's server.crt and server.key (warlog serve cert writes them; its default is "
                    "~/.config/warlog/tls); prints DIR's ca.crt fingerprint")
      ->type_name("DIR");
  serve->add_option("--max-request-kib", a.max_request_kib, "Largest request body, KiB (default 64): 413 past it")
      ->check(CLI::PositiveNumber);
  serve->add_option("--max-connections", a.max_connections, "Connections open at once (default 256): 503 past it")
      ->check(CLI::PositiveNumber);
  serve->add_option("--appends-per-second", a.appends_per_second,
                    "Appends a second per token (default 10), a token bucket: 429 past it")
      ->check(CLI::PositiveNumber);
  serve->add_option("--append-burst", a.append_burst, "Appends a token may make at once (default 20)")
      ->check(CLI::PositiveNumber);
  serve->add_option("--idle-seconds", a.idle_seconds, "Close a connection with no request in this long (default 300)")
      ->check(CLI::PositiveNumber);
  serve->add_option("--public-turns-behind", a.public_turns_behind,
                    "The public view's delay in turns (default 1; 0: live)");
  // The event's key and backups (docs/server.md › The event's key and backups).
  serve->add_option("--sign-as", a.sign_as,
                    "The event's key file (warlog keygen): sign each game when it ends, after a backup or a ruling");
  serve->add_option("--signer", a.signer, "The name the signatures carry, as `warlog trust add NAME` trusts the key");
  serve->add_option("--backup-every", a.backup_every,
                    "PERIOD DIR: every PERIOD (30s, 10m, 2h) that saw a write, a verified `warlog backup` in DIR")
      ->expected(2)
      ->type_name("PERIOD DIR");
  serve->add_option("--backup-keep", a.backup_keep, "Keep the newest N backups in DIR (default 0: every one)");
  serve->footer(
      "One process owns the store while it serves (STORE/serve.lock): every local writing verb (import, record,\n"
      "dispute, sign, migrate, generate into the store) is refused meanwhile; the reading verbs, the viewer and\n"
      "backups work beside it. Tables record through the page at http://HOST:PORT/ or the API (docs/server.md),\n"
      "each with a token: warlog serve token issue STORE --role table --game N.\n"
      "warlog's own clients record over Cap'n Proto RPC: --rpc HOST:PORT, then warlog record --server HOST:PORT.\n"
      "Off loopback, --http refuses to start without --tls DIR unless --insecure-lan (plain HTTP, warned at every start);\n"
      "--rpc has no TLS yet and needs --insecure-lan off loopback.\n"
      "With --tls the page is https://HOST:PORT/; server.key must be its owner's alone (chmod 600), else refused.\n"
      "--sign-as KEYFILE --signer NAME: the event's key signs every game as `warlog sign` does when it ends and after\n"
      "each backup or ruling; --backup-every 10m DIR: a verified `warlog backup` in DIR every 10 minutes that saw a\n"
      "write, one line each on stderr (docs/server.md, The event's key and backups).\n"
      "Running an event (docs/server.md section 7): serve decks registers the decklists, serve round open creates a\n"
      "round's games from pairings, serve results writes its results, serve cert makes a venue's certificates\n"
      "(each verb's help says more; serve decks exits 1 when it refuses a decklist).\n"
      "Stops at SIGINT (Ctrl-C) or SIGTERM. Exit 0 when stopped, 2 when it cannot start.");
  serve->require_subcommand(0, 1);

  CLI::App* token = serve->add_subcommand("token", "Issue, list or revoke the tokens of a served store");
  token->require_subcommand(1);
  auto add_store = [&a](CLI::App* sub) {
    sub->add_option("store", a.store_positional, "Store directory (default: --store, $WARLOG_STORE, else .warlog/store)");
    sub->add_option("--store", a.store, "Store directory, as the other verbs take it");
  };
  CLI::App* issue = token->add_subcommand("issue", "Issue a token: printed once on stdout, only its hash is kept");
  add_store(issue);
  issue->add_option("--role", a.role, "table (appends to its game), judge (every game), public (the public view)")
      ->required()
      ->check(CLI::IsMember({"table", "judge", "public"}));
  issue->add_option("--game", a.game, "The game of a table token");
  issue->footer("The token goes to stdout (64 hex digits), its id and role to stderr. Exit 0 when issued, 2 on error\n"
                "(no store, a table token without --game, another role with one).");
  issue->callback([&a] { a.token_verb = "issue"; });
  CLI::App* list = token->add_subcommand("list", "List the tokens: id, role, game, when issued");
  add_store(list);
  list->footer("Tokens themselves are never shown again: only their ids. Exit 0, or 2 on error.");
  list->callback([&a] { a.token_verb = "list"; });
  CLI::App* revoke = token->add_subcommand("revoke", "Revoke a token by its id: its follow streams close within a second");
  add_store(revoke);
  revoke->add_option("id", a.token_id, "The token's id, as list shows it")->required();
  revoke->footer("Exit 0 when revoked, 2 on error (no such token).");
  revoke->callback([&a] { a.token_verb = "revoke"; });
  token->footer("Tokens live hashed (BLAKE2b-256) in STORE/serve-tokens, mode 0600; a running server reads the file\n"
                "again when it changes. Exit 0 on success, 2 on error.");
  return serve;
}

int run_serve(const ServeArgs& a) {
  if (!a.token_verb.empty()) return run_token(a);
  server::ServeOptions o;
  o.store = store_of(a);
  // The server opens the store in this process for hours (a fork of it all
  // would part the listening socket, the owner lock and the restart from the
  // pid it prints): the guarded page walk, in a child, refuses a store with a
  // damaged page before it is mapped (docs/reliability.md says what is left).
  if (!replay::isolation_disabled() && std::filesystem::exists(std::filesystem::path(o.store) / "data.mdb")) {
    if (const auto damaged = replay::find_damaged_page_isolated(o.store)) {
      return fail(Error{ErrorCode::DataLoss,
                        fmt::format("store {}: the data file is corrupt near page {}: restore it from a copy (the page "
                                    "walk before serving found {}); nothing served",
                                    o.store, damaged->page, damaged->what)});
    }
  }
  o.http = a.http;
  o.rpc = a.rpc;
  o.insecure_lan = a.insecure_lan;
  std::string ca_line;  // TLS: the CA a device must trust, and its fingerprint to compare
  if (!a.tls_dir.empty()) {
    auto tls = tournament::load_server_tls(a.tls_dir);
    if (!tls) return fail(tls.error());
    o.tls.cert_pem = std::move(tls->cert_pem);
    o.tls.key_pem = std::move(tls->key_pem);
    ca_line = fmt::format("warlog serve: devices trust {}, CA SHA-256 fingerprint {}\n", tls->ca_cert,
                          tls->ca_fingerprint);
  }
  o.limits.request_bytes = static_cast<std::size_t>(a.max_request_kib) * 1024;
  o.limits.connections = a.max_connections;
  o.limits.appends_per_second = a.appends_per_second;
  o.limits.append_burst = a.append_burst;
  o.limits.idle = std::chrono::milliseconds(static_cast<std::int64_t>(a.idle_seconds * 1000));
  o.public_turns_behind = a.public_turns_behind;
  o.json_schema_version = kJsonSchemaVersion;
  auto rpc_at = std::make_shared<std::string>();
  o.on_rpc_listening = [rpc_at](const std::string& address) { *rpc_at = " and rpc " + address; };
  o.on_listening = [&ca_line, rpc_at, https = o.tls.on()](const std::string& address) {
    fmt::print("warlog serve: listening on {}://{}/{} (pid {}); stop with Ctrl-C\n{}", https ? "https" : "http", address,
               *rpc_at, ::getpid(), ca_line);
    std::fflush(stdout);
  };
  o.on_warning = [](const std::string& line) { fmt::print(stderr, "warlog serve: {}\n", line); };
  if (a.sign_as.empty() != a.signer.empty()) {
    return fail(Error{ErrorCode::InvalidArgument, "--sign-as KEYFILE and --signer NAME go together"});
  }
  if (!a.sign_as.empty()) {
    auto key = store::read_key_file(a.sign_as);  // as `warlog record --sign-as` reads it
    if (!key) return fail(key.error());
    o.sign_key = *key;
    o.signer = a.signer;
  }
  if (!a.backup_every.empty()) {
    auto every = server::parse_period(a.backup_every[0]);
    if (!every) return fail(every.error());
    o.backup_every = *every;
    o.backup_dir = a.backup_every[1];
    o.backup_keep = a.backup_keep;
    std::error_code ec;
    o.program = std::filesystem::read_symlink("/proc/self/exe", ec).string();
    if (ec) return fail(Error{ErrorCode::IoError, "--backup-every: cannot find the warlog binary: " + ec.message()});
  }
  auto served = server::serve(o);
  if (!served) return fail(served.error());
  return kExitClean;
}

}  // namespace warlog::cli
