#pragma once
// warlog trust add|list|remove (cli/trust.cpp), and the keyring verify reads.

#include <string>

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

}  // namespace warlog::cli
