// warlog migrate: a format-1 store converted to format 2 in place, the old
// one kept beside it (store.hpp › Store::migrate_format1), and the line
// verify and list print for a migrated game.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <chrono>

#include "common.hpp"
#include "verbs.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/store/signature.hpp"
#include "warlog/store/store.hpp"

namespace warlog::cli {

namespace {

std::string signed_there(const std::vector<core::PublicKey>& keys, const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    // The key id verify and the keyring show (signature.hpp), not the public key's first digits.
    const core::KeyId id = store::key_id_of(keys[i]);
    std::string hex;
    for (auto b : id) hex += fmt::format("{:02x}", b);
    out += fmt::format("{} key {} ({})", i == 0 ? ", signed there by" : " and", hex,
                       i < names.size() ? names[i] : std::string("?"));
  }
  return out;
}

}  // namespace

CLI::App* add_migrate(CLI::App& app, Options& o) {
  CLI::App* migrate = app.add_subcommand("migrate", "Convert a store of format 1 to format 2 (the old one is kept)");
  migrate->add_option("--store", o.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  migrate->footer(
      "Checks every game's chain and signatures with format 1's rules first and refuses, naming them, games\n"
      "that fail (nothing is written then). Converts the events, disputes and rulings into a new store, adds\n"
      "to each game a record of its format-1 head, event count and the signatures valid there, then renames\n"
      "STORE to STORE.format-1 (kept: nothing is lost) and the new store to STORE.\n"
      "Format-1 signatures signed format 1's head: verify names them as \"signed there\"; sign again to sign\n"
      "the format-2 head. Exit 0 when migrated, 2 on error.");
  return migrate;
}

int run_migrate(const Options& o) {
  const std::string path = o.store.empty() ? replay::default_store_path() : o.store;
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  auto games = store::Store::migrate_format1(path, now);
  if (!games) {
    error_line(games.error());
    return kExitError;
  }
  for (const auto& g : *games) {
    std::vector<core::PublicKey> keys;
    std::vector<std::string> names;
    for (const auto& s : g.signatures) {
      keys.push_back(s.public_key);
      names.push_back(s.signer);
    }
    fmt::print("game {}: \"{}\" migrated from format-1 head {} ({} events){}\n", g.id, g.title,
               core::to_hex(g.format1_head).substr(0, 16), g.events, signed_there(keys, names));
  }
  fmt::print("store {} is format 2 ({} games); format 1 is kept at {}.format-1\n", path, games->size(), path);
  return kExitClean;
}

Expected<std::optional<std::string>> migrated_line(const replay::Archive& archive, core::GameId game) {
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto rec = reader->record(game);
  if (!rec) return tl::unexpected(rec.error());
  if (!rec->migrated()) return std::optional<std::string>{};
  auto all = reader->annotations(game);
  if (!all) return tl::unexpected(all.error());
  for (const auto& a : *all) {
    if (const auto* m = std::get_if<core::Migrated>(&a.value)) {
      return std::optional<std::string>{fmt::format("migrated from format-1 head {} ({} events){}",
                                                    core::to_hex(m->format1_head).substr(0, 16), m->event_count,
                                                    signed_there(m->signer_keys, m->signers))};
    }
  }
  return std::optional<std::string>{"migrated from format 1, but its migration record is missing"};
}

}  // namespace warlog::cli
