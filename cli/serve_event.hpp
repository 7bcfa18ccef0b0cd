#pragma once
// warlog serve decks | round open | results | cert (cli/serve_event.cpp):
// running an event, the parts that need no network (docs/server.md § 7).
// add_event_verbs registers them on the `serve` verb group, which the
// server's own `warlog serve STORE` shares.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace warlog::cli {

struct EventArgs {
  std::string store;
  // decks
  std::string event_file;
  std::vector<std::string> deck_paths;
  // round open, results
  std::uint16_t round = 0;
  std::string pairings;
  std::string event;  // results --event NAME (default: the registered event)
  std::string format = "csv";
  std::string keyring;
  // cert
  std::vector<std::string> hosts;
  std::string out;

  CLI::App* decks = nullptr;
  CLI::App* round_open = nullptr;
  CLI::App* results = nullptr;
  CLI::App* cert = nullptr;
};

void add_event_verbs(CLI::App& serve, EventArgs& a);
// The verb parsed, or -1 when none of these was.
int run_event_verbs(const EventArgs& a);

}  // namespace warlog::cli
