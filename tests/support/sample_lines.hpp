#pragma once
// A sample game as a scorekeeper records it: its header (tags, with the
// [Catalog], [Ruleset] and deck paths made absolute, written to a file of
// its own) and its body lines, one per action.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace warlog::testing {

struct SampleLines {
  std::filesystem::path header;    // the header file
  std::filesystem::path whole;     // the whole game, paths absolute (to import)
  std::vector<std::string> body;   // every line after the header, comments and blanks included
};

inline std::string absolute_paths(std::string text) {
  const std::string samples = WARLOG_SAMPLES_DIR;
  for (std::size_t at = 0; (at = text.find("\"../", at)) != std::string::npos;) text.replace(at, 4, "\"" + samples + "/");
  return text;
}

// `sample` is relative to samples/ ("tutorial/spine_first_blood.wlog").
inline SampleLines sample_lines(const std::filesystem::path& dir, const std::string& sample) {
  std::ifstream in(std::string(WARLOG_SAMPLES_DIR) + "/" + sample, std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = absolute_paths(buf.str());
  SampleLines out;
  const std::string stem = std::filesystem::path(sample).stem().string();
  out.header = dir / (stem + ".header.wlog");
  out.whole = dir / (stem + ".wlog");
  std::ofstream(out.whole, std::ios::binary) << text;
  std::ofstream header(out.header, std::ios::binary);
  std::istringstream lines(text);
  std::string line;
  bool in_header = true;
  while (std::getline(lines, line)) {
    const auto first = line.find_first_not_of(" \t");
    if (in_header && first != std::string::npos && line[first] != '#' && line[first] != '[') in_header = false;
    if (in_header) {
      header << line << "\n";
    } else {
      out.body.push_back(line);
    }
  }
  return out;
}

}  // namespace warlog::testing
