// warlog keygen and warlog sign: Ed25519 signatures over a finished game.
// `warlog verify` reports them (verbs.cpp). What is signed and how it is
// checked: store/include/warlog/store/signature.hpp.

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common.hpp"
#include "dispute.hpp"
#include "verbs.hpp"
#include "warlog/replay/signatures.hpp"

namespace warlog::cli {

std::pair<CLI::App*, CLI::App*> add_signing(CLI::App& app, SigningArgs& a) {
  CLI::App* keygen = app.add_subcommand("keygen", "Make an Ed25519 key for signing games");
  keygen->add_option("--out", a.key, "The secret key file to write (mode 0600; never overwritten)")->required();
  keygen->add_option("--public-out", a.public_out,
                     "Also write the public key file, for others' `warlog trust add NAME FILE`");
  keygen->footer("Prints the public key and its key id. Whoever holds the key file can sign as you: keep it private.\n"
                 "Exit 0 on success, 2 on error (the file exists, or cannot be written).");

  CLI::App* sign = app.add_subcommand("sign", "Sign a game as it stands (who recorded it vouches for it)");
  sign->add_option("--store", a.store, "Store directory (default: $WARLOG_STORE, else .warlog/store)");
  sign->add_option("--game", a.game, "Game id")->required();
  sign->add_option("--key", a.key, "Secret key file (warlog keygen)")->required();
  sign->add_option("--signer", a.signer, "Your name, as verify will report it")->required();
  sign->footer("Signs, with your name, the time and your key id: the game's identity, its event chain (count,\n"
               "head) and its annotation chain (disputes, rulings, signatures before this one). Refuses a game\n"
               "that does not verify. `warlog verify` then reports it against your keyring (warlog trust):\n"
               "valid and trusted, valid by an unknown key, stale (events or annotations added since) or INVALID.\n"
               "Exit 0 on success, 2 on error (the game does not verify, or the key cannot be read).");
  return {keygen, sign};
}

int run_keygen(const SigningArgs& a) {
  auto key = store::generate_keypair();
  if (!key) {
    error_line(key.error());
    return kExitError;
  }
  if (auto w = store::write_key_file(a.key, *key); !w) {
    error_line(w.error());
    return kExitError;
  }
  fmt::print("public key {}\nkey id {}\n", store::public_key_hex(key->public_key),
             store::key_id_hex(store::key_id_of(key->public_key)));
  fmt::print("secret key written to {} (mode 0600): keep it private\n", a.key);
  if (!a.public_out.empty()) {
    if (auto w = store::write_public_key_file(a.public_out, key->public_key); !w) {
      error_line(w.error());
      return kExitError;
    }
    fmt::print("public key written to {}: others trust it with `warlog trust add NAME {}`\n", a.public_out,
               a.public_out);
  }
  return kExitClean;
}

int run_sign(const SigningArgs& a) {
  auto key = store::read_key_file(a.key);
  if (!key) {
    error_line(key.error());
    return kExitError;
  }
  Options o;
  o.store = a.store;
  auto archive = open_archive(o, replay::Archive::Mode::ReadWrite);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  auto record = replay::sign_game(*archive, a.game, *key, a.signer, now_ms());
  if (!record) {
    error_line(record.error());
    return kExitError;
  }
  const auto& s = std::get<core::GameSigned>(record->value);
  fmt::print("game {} signed by {} (key {}) over {} events and {} annotation{}, head {}\n", a.game, s.signer,
             store::key_id_hex(s.key_id), s.event_count, s.annotation_count, s.annotation_count == 1 ? "" : "s",
             core::to_hex(s.head).substr(0, 16));
  return kExitClean;
}

}  // namespace warlog::cli
