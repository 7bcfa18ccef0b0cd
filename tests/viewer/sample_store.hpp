#pragma once
// A store holding the bundled sample games, imported once per test program
// through the replay facade, removed at exit. LMDB allows one open
// environment per store per process, so each test opens the store itself
// (open_sample_archive) and closes it when done.

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "warlog/replay/replay.hpp"
#include "warlog/store/store.hpp"

namespace warlog::testing {

struct SampleStore {
  std::filesystem::path dir;
  std::vector<core::GameId> games;  // in import order: the samples sorted by file name
  core::GameId first_blood = 0;     // samples/tutorial/spine_first_blood.wlog

  SampleStore() {
    bool found_first_blood = false;
    dir = std::filesystem::temp_directory_path() / ("warlog-viewer-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    auto archive = replay::Archive::open(dir.string(), replay::Archive::Mode::ReadWrite);
    if (!archive) throw std::runtime_error("creating the test store: " + archive.error().message);
    std::vector<std::filesystem::path> files;
    for (const char* sub : {"/games", "/tutorial"}) {
      for (const auto& entry : std::filesystem::directory_iterator(std::string(WARLOG_SAMPLES_DIR) + sub)) {
        if (entry.path().extension() == ".wlog") files.push_back(entry.path());
      }
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      auto imported = archive->import_file(file.string(), {});
      if (!imported) {
        std::string why = file.string() + ": " + imported.error().error.message;
        for (const auto& e : imported.error().notation_errors) why += "\n  " + e.to_string();
        throw std::runtime_error("importing a sample: " + why);
      }
      games.push_back(imported->id);
      if (file.filename() == "spine_first_blood.wlog") {
        first_blood = imported->id;
        found_first_blood = true;
      }
    }
    if (games.empty()) throw std::runtime_error("no sample game under samples/games");
    if (!found_first_blood) first_blood = games.front();
  }
  ~SampleStore() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  SampleStore(const SampleStore&) = delete;
  SampleStore& operator=(const SampleStore&) = delete;
};

inline const SampleStore& sample_store() {
  static const SampleStore store;
  return store;
}

inline replay::Archive open_sample_archive() {
  auto archive = replay::Archive::open(sample_store().dir.string(), replay::Archive::Mode::ReadOnly);
  if (!archive) throw std::runtime_error("opening the test store: " + archive.error().message);
  return std::move(*archive);
}

// Appends events to a stored game, as a recorder would (the test plays the
// writer; the viewer only reads). False on any error.
inline bool append_events(const replay::Archive& archive, core::GameId id, core::Seq next,
                          const std::vector<core::Event>& events) {
  auto n = archive.store().append(id, next, events);
  if (!n) ADD_FAILURE() << "append: " << n.error().message;
  return n.has_value();
}

inline std::shared_ptr<replay::Archive> shared_sample_archive() {
  return std::make_shared<replay::Archive>(open_sample_archive());
}

// A copy of the sample store in its own directory, removed with the value:
// for tests that write (snapshots, disputes, appended events) without
// touching the store the other tests read.
struct StoreCopy {
  std::filesystem::path dir;
  explicit StoreCopy(const std::string& name) {
    dir = std::filesystem::temp_directory_path() / ("warlog-viewer-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    sample_store();  // imported before it is copied
    std::filesystem::copy(sample_store().dir, dir, std::filesystem::copy_options::recursive);
  }
  ~StoreCopy() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::remove_all(cache_dir(), ec);
  }
  // The copy's own snapshot cache and key (Archive::use_snapshot_cache).
  [[nodiscard]] std::filesystem::path cache_dir() const { return dir.string() + "-cache"; }
  StoreCopy(const StoreCopy&) = delete;
  StoreCopy& operator=(const StoreCopy&) = delete;

  [[nodiscard]] std::shared_ptr<replay::Archive> open(replay::Archive::Mode mode = replay::Archive::Mode::ReadWrite) const {
    auto archive = replay::Archive::open(dir.string(), mode);
    if (!archive) throw std::runtime_error("opening the store copy: " + archive.error().message);
    archive->use_snapshot_cache((cache_dir() / "snapshots").string(), (cache_dir() / "local.key").string());
    return std::make_shared<replay::Archive>(std::move(*archive));
  }
};

}  // namespace warlog::testing
