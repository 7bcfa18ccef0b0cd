#pragma once
// The web recorder's files (web/ in the repository), embedded at build time
// by cmake/embed_web.cmake.

#include <span>
#include <string_view>

namespace warlog::server {

struct WebFile {
  std::string_view path;   // "/index.html"
  std::string_view bytes;
};

[[nodiscard]] std::span<const WebFile> web_files();

}  // namespace warlog::server
