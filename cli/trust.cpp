// warlog trust add|list|remove: the keyring of keys this user trusts, kept
// outside every store (replay/keyring.hpp says where and why).

#include "trust.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common.hpp"
#include "verbs.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/store/signature.hpp"

namespace warlog::cli {

namespace {

int fail(const Error& e) {
  error_line(e);
  return kExitError;
}

}  // namespace

Expected<replay::Keyring> open_keyring(const std::string& flag, const std::string& store_flag, bool for_trust) {
  auto path = replay::keyring_path(flag);
  // With no HOME to find the default in, verify trusts nobody; trust says why it cannot.
  if (!path && !for_trust) return replay::Keyring{};
  if (!path) return tl::unexpected(path.error());
  const std::string store = store_flag.empty() ? replay::default_store_path() : store_flag;
  if (auto ok = replay::check_keyring_outside(*path, store); !ok) return tl::unexpected(ok.error());
  return replay::Keyring::load(*path);
}

Expected<TrustReport> trust_report(const replay::Archive& archive, core::GameId id, const replay::Keyring& keyring,
                                   bool chain_ok) {
  auto trust = replay::assess_game(archive, id, keyring);
  if (!trust) return tl::unexpected(trust.error());
  TrustReport r{std::move(*trust), {}};
  // "consistent" is the chain's word: for a broken game nobody attests, the
  // trust line must not contradict the BROKEN line verify prints above it.
  r.line = chain_ok ? r.trust.line : replay::attestation_line(r.trust, false);
  return r;
}

Expected<TrustReport> checked_trust_report(const replay::Archive& archive, core::GameId id,
                                           const replay::Keyring& keyring) {
  auto v = archive.verify(id);
  if (!v) return tl::unexpected(v.error());
  return checked_trust_report(archive, id, keyring, *v);
}

Expected<TrustReport> checked_trust_report(const replay::Archive& archive, core::GameId id,
                                           const replay::Keyring& keyring, const replay::VerifyResult& v) {
  auto r = trust_report(archive, id, keyring, v.ok);
  if (!r && v.ok) return r;
  if (!r) r = TrustReport{};
  if (!v.ok) {
    r->broken = true;
    r->line = fmt::format("BROKEN at seq {}: {} (warlog verify says more)", v.first_bad_seq ? *v.first_bad_seq : 0,
                          v.detail);
  } else {
    // A valid signature with a signed state vanished (a rollback) is no "valid".
    r->line = replay::attestation_line(r->trust, true);
  }
  return r;
}

std::string_view verdict_name(replay::GameTrust::Verdict v) noexcept {
  switch (v) {
    case replay::GameTrust::Verdict::Trusted: return "trusted";
    case replay::GameTrust::Verdict::Unknown: return "unknown";
    case replay::GameTrust::Verdict::Stale: return "stale";
    case replay::GameTrust::Verdict::Invalid: return "invalid";
    case replay::GameTrust::Verdict::Unsigned: return "unsigned";
  }
  return "?";
}

nlohmann::json trust_json(const TrustReport& r) {
  return {{"verdict", verdict_name(r.trust.verdict)},
          {"failed", r.trust.failed()},
          {"line", r.line},
          {"notes", r.trust.notes}};
}

CLI::App* add_trust(CLI::App& app, TrustArgs& a) {
  CLI::App* t = app.add_subcommand("trust", "Keep the keyring of signing keys you trust (outside every store)");
  t->require_subcommand(1);
  t->footer(
      "The keyring is --keyring PATH, else $WARLOG_KEYRING, else $XDG_CONFIG_HOME/warlog/keyring\n"
      "(~/.config/warlog/keyring); one inside the store's directory is refused. verify names a signer\n"
      "by the keyring's name for its key, and remembers every state a trusted key signed.\n"
      "Example:\n"
      "  warlog keygen --out judge.key --public-out judge.pub     (the judge, once)\n"
      "  warlog trust add 'Head Judge' judge.pub                   (whoever checks)\n"
      "  warlog verify --require-signed\n"
      "Exit 0 on success, 2 on error (a key already trusted or not found, a keyring others can write).");
  auto common = [&a](CLI::App* sub) {
    sub->add_option("--keyring", a.keyring, "Keyring file (default: $WARLOG_KEYRING, else ~/.config/warlog/keyring)");
    sub->add_option("--store", a.store, "The store it is used with, which it must not be inside (default: $WARLOG_STORE)");
  };
  a.add = t->add_subcommand("add", "Trust a key under a name: a public key file or a key file");
  common(a.add);
  a.add->footer("Exit 0 on success, 2 on error.");
  a.add->add_option("name", a.name, "Your name for the key's holder ('Head Judge')")->required();
  a.add->add_option("keyfile", a.file, "warlog keygen's --public-out file, or its secret key file")->required();
  a.list = t->add_subcommand("list", "List the trusted keys and how many signed states are remembered");
  common(a.list);
  a.list->footer("Exit 0 on success, 2 on error.");
  a.remove = t->add_subcommand("remove", "Stop trusting a key (the states it signed stay remembered)");
  common(a.remove);
  a.remove->footer("Exit 0 on success, 2 on error.");
  a.remove->add_option("key", a.name, "The name or the 16-digit key id")->required();
  return t;
}

int run_trust(const TrustArgs& a) {
  auto keyring = open_keyring(a.keyring, a.store, true);
  if (!keyring) return fail(keyring.error());
  if (a.add && a.add->parsed()) {
    auto key = store::read_public_key(a.file);
    if (!key) return fail(key.error());
    auto added = keyring->add(a.name, *key);
    if (!added) return fail(added.error());
    if (auto s = keyring->save(); !s) return fail(s.error());
    fmt::print("trusted '{}' (key {}) in {}\n", added->name, store::key_id_hex(added->key_id),
               keyring->path().string());
    return kExitClean;
  }
  if (a.remove && a.remove->parsed()) {
    auto removed = keyring->remove(a.name);
    if (!removed) return fail(removed.error());
    if (auto s = keyring->save(); !s) return fail(s.error());
    fmt::print("no longer trusting '{}' (key {})\n", removed->name, store::key_id_hex(removed->key_id));
    return kExitClean;
  }
  fmt::print("{:<16}  {}\n", "key id", "name");
  for (const auto& k : keyring->keys()) fmt::print("{:<16}  {}\n", store::key_id_hex(k.key_id), k.name);
  fmt::print("({} trusted key{}, {} signed state{} remembered, in {})\n", keyring->keys().size(),
             keyring->keys().size() == 1 ? "" : "s", keyring->seen().size(), keyring->seen().size() == 1 ? "" : "s",
             keyring->path().string());
  return kExitClean;
}

}  // namespace warlog::cli
