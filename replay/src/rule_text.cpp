#include "warlog/replay/rule_text.hpp"

#include <cstdlib>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "warlog/core/hash.hpp"
#include "warlog/core/text_file.hpp"

namespace warlog::replay {

namespace fs = std::filesystem;

namespace {

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// Lines [first, last] of `text`, 1-based, each newline-ended.
std::string lines_of(std::string_view text, core::LineRange range) {
  std::string out;
  int line = 1;
  std::size_t pos = 0;
  while (pos < text.size() && line <= range.last) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    if (line >= range.first) {
      out.append(text.substr(pos, end - pos));
      out.push_back('\n');
    }
    pos = end + 1;
    ++line;
  }
  return out;
}

}  // namespace

Expected<fs::path> find_rules_folder(const std::optional<fs::path>& given) {
  std::vector<std::string> looked;
  auto consider = [&](const fs::path& p, std::string_view from) -> bool {
    looked.push_back(fmt::format("{} ({})", p.string(), from));
    return is_folder(p);
  };
  if (given) {
    // An explicit folder is the only one looked at: falling back would show
    // another text than the one asked for.
    if (consider(*given, "--rules")) return *given;
    return make_error(ErrorCode::NotFound, fmt::format("no rules folder at {}: --rules names a folder holding the "
                                                       "rules documents (see ../shared/rules/README.md)",
                                                       given->string()));
  }
  if (const char* env = std::getenv("WARLOG_RULES"); env != nullptr && *env != '\0') {
    if (consider(env, "WARLOG_RULES")) return fs::path(env);
  }
  const fs::path configured{std::string(core::configured_rules_dir())};
  if (!configured.empty() && consider(configured, "configured at build time")) return configured;
  std::string where;
  for (const std::string& l : looked) where += (where.empty() ? "" : ", ") + l;
  return make_error(ErrorCode::NotFound,
                    fmt::format("no rules documents found; looked at {}; give the folder with --rules DIR or "
                                "WARLOG_RULES=DIR",
                                where));
}

Expected<RuleSection> rule_section(const core::Rule& rule, const Expected<fs::path>& folder) {
  const core::RulesIndex& index = core::builtin_rules_index();
  const core::RulesHeading* heading = index.find(rule.citation);
  if (heading == nullptr) {
    std::string why = fmt::format("{} cites '{}', which is no heading of the published rules documents", rule.id,
                                  rule.citation);
    if (!rule.ruling.empty()) why += fmt::format("; docs/rulings.md {} says how it is read", rule.ruling);
    return make_error(ErrorCode::NotFound, std::move(why));
  }
  const core::RulesDocument& doc = index.document_of(*heading);
  RuleSection out{std::string(rule.citation), doc.file, index.section(*heading), {}};
  std::string text;
  if (doc.source == core::DocumentSource::Warlog) {
    text = std::string(core::builtin_warlog_rules());
  } else {
    if (!folder) return tl::unexpected(folder.error());
    auto read = core::read_text_file((*folder / doc.file).string(), kMaxRulesDocumentBytes, "rules document");
    if (!read) {
      return make_error(read.error().code, fmt::format("{} (the rules folder {} should hold {}, which {} cites)",
                                                       read.error().message, folder->string(), doc.file, rule.id));
    }
    text = std::move(*read);
  }
  const std::string found = core::to_hex(core::blake2b(text));
  if (found != doc.blake2b) {
    return make_error(ErrorCode::DataLoss,
                      fmt::format("{} is not the document this warlog was indexed against (BLAKE2b {}, expected "
                                  "{}): its lines may hold other text, so nothing is shown; run scripts/rules-index "
                                  "and rebuild",
                                  doc.source == core::DocumentSource::Warlog ? doc.file
                                                                             : (*folder / doc.file).string(),
                                  found.substr(0, 16), doc.blake2b.substr(0, 16)));
  }
  out.text = lines_of(text, out.lines);
  return out;
}

}  // namespace warlog::replay
