#pragma once
// warlog trust add|list|remove (cli/trust.cpp), and the keyring verify reads.

#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "warlog/replay/keyring.hpp"

namespace CLI {
class App;
}

namespace warlog::cli {

struct TrustArgs {
  std::string keyring;
  std::string store;
  std::string name;  // add: the name; remove: the name or key id
  std::string file;  // add: the key file
  CLI::App* add = nullptr;
  CLI::App* list = nullptr;
  CLI::App* remove = nullptr;
};
CLI::App* add_trust(CLI::App& app, TrustArgs& a);
int run_trust(const TrustArgs& a);

// The keyring at --keyring / $WARLOG_KEYRING / the default, refused inside
// the store (--store / $WARLOG_STORE / the default). Without for_trust, no
// default path (no HOME) is an empty keyring rather than an error.
[[nodiscard]] Expected<replay::Keyring> open_keyring(const std::string& flag, const std::string& store_flag,
                                                     bool for_trust);

// --- Who attests a game, as every reading verb says it -------------------------------
// verify, audit and export give the same verdict (replay::assess_game) in the
// same words. `chain_ok` is false for a game whose chain is broken: then an
// unsigned game is not called "consistent".
struct TrustReport {
  replay::GameTrust trust;
  std::string line;  // the one line: "valid, signed by trusted 'Head Judge' (key ...)", "unsigned: ..."
  // verify finds the game broken (its chain, annotation chain, identity
  // index or record): what was read is not the game as recorded.
  bool broken = false;
  // --require-signed refuses it: no current valid signature by a trusted key.
  [[nodiscard]] bool unsigned_refused(bool require_signed) const noexcept {
    return require_signed && trust.verdict != replay::GameTrust::Verdict::Trusted;
  }
  // What verify and audit exit 1 for: a signature or signed ruling that does
  // not hold, a signed state vanished, or (--require-signed) no trusted signature.
  [[nodiscard]] bool refused(bool require_signed) const noexcept {
    return broken || trust.failed() || unsigned_refused(require_signed);
  }
};
[[nodiscard]] Expected<TrustReport> trust_report(const replay::Archive& archive, core::GameId id,
                                                 const replay::Keyring& keyring, bool chain_ok = true);
// The same, after verify's own check of the game (archive.verify: both
// chains, the record, the identity index), for the verbs that read a game
// to answer (audit, export): a game verify finds broken is said BROKEN,
// never "consistent" or "valid".
[[nodiscard]] Expected<TrustReport> checked_trust_report(const replay::Archive& archive, core::GameId id,
                                                         const replay::Keyring& keyring);
// The same, from a verify already made (GameAudit::verified: the audit's
// own walk checked the game).
[[nodiscard]] Expected<TrustReport> checked_trust_report(const replay::Archive& archive, core::GameId id,
                                                         const replay::Keyring& keyring,
                                                         const replay::VerifyResult& verified);
// "trusted", "unknown", "stale", "invalid", "unsigned".
[[nodiscard]] std::string_view verdict_name(replay::GameTrust::Verdict v) noexcept;
// {verdict, failed, line, notes}: docs/schema/common.schema.json#/$defs/trust.
[[nodiscard]] nlohmann::json trust_json(const TrustReport& r);

}  // namespace warlog::cli
