#pragma once
// A store with the Old Mill Open's decklists registered (samples/event/).

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "temp_dir.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/tournament/decklists.hpp"

namespace warlog::tournament::testing {

inline std::string event_samples() { return std::string(WARLOG_SAMPLES_DIR) + "/event"; }

inline void write_file(const std::filesystem::path& p, const std::string& text) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

struct EventStore {
  warlog::testing::TempDir dir;
  replay::Archive archive = [this] {
    auto a = replay::Archive::open(dir.store(), replay::Archive::Mode::ReadWrite);
    EXPECT_TRUE(a.has_value()) << a.error().message;
    return std::move(*a);
  }();

  // Registers samples/event (its event.wlog and five decklists).
  void register_samples() {
    DeckInput in;
    in.paths = {event_samples()};
    auto r = register_decklists(archive, in);
    ASSERT_TRUE(r.has_value()) << r.error().message;
    ASSERT_TRUE(r->refused.empty()) << r->refused.front().message;
  }
  // A file in this store's temporary folder.
  std::string file(const std::string& name, const std::string& text) const {
    const auto p = dir.path() / name;
    write_file(p, text);
    return p.string();
  }
};

}  // namespace warlog::tournament::testing
