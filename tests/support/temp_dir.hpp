#pragma once
// A directory under $TMPDIR, removed with everything in it at the end.

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace warlog::testing {

class TempDir {
 public:
  TempDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "warlog-test-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }
  [[nodiscard]] std::string store() const { return (path_ / "store").string(); }
  // A snapshot cache and local key of this directory's own
  // (Archive::use_snapshot_cache), never the user's.
  [[nodiscard]] std::string cache_dir() const { return (path_ / "cache").string(); }
  [[nodiscard]] std::string key_file() const { return (path_ / "config" / "warlog" / "local.key").string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace warlog::testing
