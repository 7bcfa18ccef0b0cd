#include "warlog/core/rules_index.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>
#include <unordered_set>

#include <fmt/format.h>

#include "warlog/core/text_file.hpp"

namespace warlog::core {

namespace {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> out;
  for (;;) {
    const auto tab = line.find('\t');
    out.push_back(line.substr(0, tab));
    if (tab == std::string_view::npos) return out;
    line.remove_prefix(tab + 1);
  }
}

std::optional<int> number(std::string_view s) {
  int v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v < 0) return std::nullopt;
  return v;
}

std::size_t depth(std::string_view path) {
  std::size_t n = 1;
  for (auto at = path.find(kHeadingSeparator); at != std::string_view::npos;
       at = path.find(kHeadingSeparator, at + kHeadingSeparator.size())) {
    ++n;
  }
  return n;
}

bool is_hex_digest(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

}  // namespace

std::string_view to_string(HeadingKind k) noexcept {
  switch (k) {
    case HeadingKind::Heading: return "heading";
    case HeadingKind::Callout: return "callout";
    case HeadingKind::RunIn: return "run-in";
  }
  return "?";
}

std::string_view RulesHeading::title() const noexcept {
  const auto at = path.rfind(kHeadingSeparator);
  return at == std::string::npos ? std::string_view(path) : std::string_view(path).substr(at + kHeadingSeparator.size());
}

Expected<RulesIndex> RulesIndex::parse(std::string_view tsv) {
  RulesIndex index;
  std::vector<std::string_view> open;  // the paths of the current heading's ancestors, by level
  int line_no = 0;
  const auto bad = [&](std::string_view why) {
    return make_error(ErrorCode::InvalidArgument, fmt::format("rules index line {}: {}", line_no, why));
  };
  while (!tsv.empty()) {
    const auto nl = tsv.find('\n');
    std::string_view line = tsv.substr(0, nl);
    tsv.remove_prefix(nl == std::string_view::npos ? tsv.size() : nl + 1);
    ++line_no;
    if (line.empty() || line.front() == '#') continue;
    const auto f = split_tabs(line);
    if (f[0] == "document") {
      if (f.size() != 5) return bad("a document line has 5 fields: document, source, file, blake2b, lines");
      RulesDocument d;
      if (f[1] == "rules") {
        d.source = DocumentSource::Rules;
      } else if (f[1] == "warlog") {
        d.source = DocumentSource::Warlog;
      } else {
        return bad(fmt::format("source '{}' is neither 'rules' nor 'warlog'", f[1]));
      }
      if (f[2].empty()) return bad("a document needs its file name");
      if (!is_hex_digest(f[3])) return bad("a document's blake2b is 64 lowercase hex digits");
      const auto lines = number(f[4]);
      if (!lines || *lines == 0) return bad("a document's line count is a positive number");
      if (!index.documents_.empty() &&
          (index.headings_.empty() || index.headings_.back().document + 1 != index.documents_.size())) {
        return bad("the document before this one has no headings");
      }
      d.file = std::string(f[2]);
      d.blake2b = std::string(f[3]);
      d.lines = *lines;
      index.documents_.push_back(std::move(d));
      open.clear();
    } else if (f[0] == "heading") {
      if (f.size() != 5) return bad("a heading line has 5 fields: heading, level, line, kind, path");
      if (index.documents_.empty()) return bad("a heading before any document");
      const RulesDocument& doc = index.documents_.back();
      const auto level = number(f[1]);
      const auto at = number(f[2]);
      if (!level || *level < 1) return bad("a heading's level is 1 or more");
      if (!at || *at < 1 || *at > doc.lines) return bad(fmt::format("a heading's line is 1 to {}", doc.lines));
      RulesHeading h;
      if (f[3] == "heading") {
        h.kind = HeadingKind::Heading;
      } else if (f[3] == "callout") {
        h.kind = HeadingKind::Callout;
      } else if (f[3] == "run-in") {
        h.kind = HeadingKind::RunIn;
      } else {
        return bad(fmt::format("kind '{}' is not heading, callout or run-in", f[3]));
      }
      const std::string_view path = f[4];
      if (depth(path) != static_cast<std::size_t>(*level)) return bad("a level-N heading's path has N titles");
      const bool first = index.headings_.empty() || index.headings_.back().document + 1 != index.documents_.size();
      if (first != (*level == 1)) return bad("a document's title, and only it, is level 1");
      if (!first && *at <= index.headings_.back().line) return bad("headings go in line order");
      if (static_cast<std::size_t>(*level) > open.size() + 1) return bad("a heading skips a level");
      open.resize(static_cast<std::size_t>(*level) - 1);
      if (!open.empty() && path.substr(0, open.back().size() + kHeadingSeparator.size()) !=
                               fmt::format("{}{}", open.back(), kHeadingSeparator)) {
        return bad(fmt::format("'{}' is not under '{}'", path, open.back()));
      }
      h.path = std::string(path);
      h.level = *level;
      h.line = *at;
      h.document = index.documents_.size() - 1;
      index.headings_.push_back(std::move(h));
      open.push_back(path);
    } else {
      return bad(fmt::format("'{}' is neither a document nor a heading line", f[0]));
    }
  }
  if (index.documents_.empty()) return make_error(ErrorCode::InvalidArgument, "rules index: no documents");
  if (index.headings_.empty() || index.headings_.back().document + 1 != index.documents_.size()) {
    return make_error(ErrorCode::InvalidArgument, "rules index: the last document has no headings");
  }
  // Paths are unique across documents: a citation names one section. The
  // views point into headings_, which no longer grows.
  std::unordered_set<std::string_view> paths;
  for (const RulesHeading& h : index.headings_) {
    if (!paths.insert(h.path).second) {
      return make_error(ErrorCode::InvalidArgument, fmt::format("rules index: two headings are '{}'", h.path));
    }
  }
  return index;
}

Expected<RulesIndex> RulesIndex::load(const std::string& path) {
  auto text = read_text_file(path, kMaxRulesetFileBytes, "rules index");
  if (!text) return tl::unexpected(text.error());
  auto index = parse(*text);
  if (!index) return make_error(index.error().code, path + ": " + index.error().message);
  return index;
}

const RulesHeading* RulesIndex::find(std::string_view path) const noexcept {
  for (const RulesHeading& h : headings_) {
    if (h.path == path) return &h;
  }
  return nullptr;
}

LineRange RulesIndex::section(const RulesHeading& h) const noexcept {
  LineRange r{h.line, documents_[h.document].lines};
  const auto i = static_cast<std::size_t>(&h - headings_.data());
  for (std::size_t j = i + 1; j < headings_.size() && headings_[j].document == h.document; ++j) {
    if (headings_[j].level <= h.level) {
      r.last = headings_[j].line - 1;
      break;
    }
  }
  return r;
}

std::optional<LineRange> RulesIndex::section(std::string_view path) const noexcept {
  const RulesHeading* h = find(path);
  if (h == nullptr) return std::nullopt;
  return section(*h);
}

namespace detail {
extern const std::string_view kBuiltinRulesIndexTsv;  // build/core/builtin_rules_index.cpp
extern const std::string_view kBuiltinWarlogRules;
extern const std::string_view kConfiguredRulesDir;
}  // namespace detail

const RulesIndex& builtin_rules_index() {
  static const RulesIndex index = [] {
    auto parsed = RulesIndex::parse(detail::kBuiltinRulesIndexTsv);
    if (!parsed) throw std::logic_error("the compiled-in docs/rules-index.tsv does not parse: " + parsed.error().message);
    return std::move(*parsed);
  }();
  return index;
}

std::string_view builtin_warlog_rules() noexcept { return detail::kBuiltinWarlogRules; }

std::string_view configured_rules_dir() noexcept { return detail::kConfiguredRulesDir; }

}  // namespace warlog::core
