// A resolved dispute as a regression case (format: dispute_case.hpp).

#include "warlog/replay/dispute_case.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <map>
#include <sstream>

#include "warlog/core/finding.hpp"
#include "warlog/core/hash.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/store/reader.hpp"
#include "warlog/store/store.hpp"

namespace warlog::replay {

namespace fs = std::filesystem;

namespace {

constexpr int kCaseFormat = 1;

// One line of text: a value in the .expect file never spans lines.
std::string one_line(std::string s) {
  std::replace_if(s.begin(), s.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return s;
}

std::string citation_line(const core::Citation& c) {
  if (c.kind == core::Citation::Kind::Rule) {
    const core::Rule* rule = core::find_rule(c.text);
    return fmt::format("rule {}{}", c.text, rule ? fmt::format(" ({})", rule->citation) : "");
  }
  return "text " + one_line(c.text);
}

// The findings of `rule_id` among those at seq, and a line saying what is there.
struct AtSeq {
  bool found = false;
  std::string detail;
};
AtSeq findings_at(const std::vector<LocatedFinding>& findings, core::Seq seq, const core::Expectation& e) {
  AtSeq out;
  std::vector<std::string> there;
  // A ruling made under an id since renamed expects the rule's id now.
  const core::Rule* rule = core::find_rule(e.rule_id);
  const std::string_view rule_id = rule != nullptr ? rule->id : std::string_view(e.rule_id);
  for (const auto& f : findings) {
    if (f.finding.seq != seq) continue;
    there.push_back(std::string(f.finding.rule_id));
    if (f.finding.rule_id == rule_id) {
      out.found = true;
      out.detail = fmt::format("the audit reports {} at seq {}: {}", e.rule_id, seq, f.finding.message);
    }
  }
  if (!out.found) {
    out.detail = fmt::format("the audit reports no {} at seq {} (findings there: {})", e.rule_id, seq,
                             there.empty() ? std::string("none") : fmt::format("{}", fmt::join(there, ", ")));
  }
  return out;
}

Expected<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return make_error(ErrorCode::NotFound, fmt::format("cannot read {}", p.string()));
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

Expected<void> write_text(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!out) return make_error(ErrorCode::IoError, fmt::format("cannot write {}", p.string()));
  return {};
}

Expected<std::string> blob_of(const Archive& archive, store::BlobKind kind, const std::string& hex) {
  const auto digest = core::digest_from_hex(hex);
  if (!digest) return make_error(ErrorCode::DataLoss, fmt::format("the game records no valid hash ('{}')", hex));
  auto reader = archive.store().reader();
  if (!reader) return tl::unexpected(reader.error());
  auto bytes = reader->get_blob(kind, *digest);
  if (!bytes) return make_error(ErrorCode::DataLoss, bytes.error().message);
  return bytes;
}

}  // namespace

std::string default_case_name(const std::string& title, const DisputeId& id) {
  std::string slug;
  for (char c : title) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 && u < 0x80) {
      slug += static_cast<char>(std::tolower(u));
    } else if (!slug.empty() && slug.back() != '_') {
      slug += '_';
    }
  }
  while (!slug.empty() && slug.back() == '_') slug.pop_back();
  if (slug.empty()) slug = fmt::format("game{}", id.game);
  std::string name = fmt::format("{}_seq{}", slug, id.seq);
  if (id.n > 0) name += fmt::format("_{}", id.n);
  return name;
}

Expected<DisputeCase> make_dispute_case(const Archive& archive, const DisputeId& id, const std::string& name) {
  auto dispute = find_dispute(archive, id);
  if (!dispute) return tl::unexpected(dispute.error());
  const core::DisputeRuled* ruling = dispute->in_force();
  if (ruling == nullptr || dispute->status() != core::DisputeStatus::Resolved) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("dispute {} is open: only a resolved dispute becomes a test", to_string(id)));
  }
  if (!ruling->expectation) {
    return make_error(ErrorCode::InvalidArgument,
                      fmt::format("the ruling on dispute {} states no expected finding; rule again with "
                                  "--supersede and --expect RULE or --expect-none RULE",
                                  to_string(id)));
  }
  const core::Expectation& expectation = *ruling->expectation;
  auto game = archive.game(id.game);
  if (!game) return tl::unexpected(game.error());

  // The prefix: events 0..seq, the disputed one last; except that the setup
  // (GameCreated and every ArmyRegistered) is the notation's header and comes
  // whole, so a dispute about setup gets all of it. Findings at seq do not
  // depend on later events: the fold only looks back.
  std::vector<core::Event> prefix;
  {
    auto reader = archive.store().reader();
    if (!reader) return tl::unexpected(reader.error());
    auto n = reader->scan(id.game, 0, store::kEndSeq, [&](const core::Event& ev) {
      const bool setup = std::holds_alternative<core::GameCreated>(ev.payload) ||
                         std::holds_alternative<core::ArmyRegistered>(ev.payload);
      if (ev.seq > id.seq && !setup) return false;
      prefix.push_back(ev);
      return true;
    });
    if (!n) return tl::unexpected(n.error());
  }
  if (prefix.size() <= id.seq) {
    return make_error(ErrorCode::NotFound, fmt::format("game {} has no event {}", id.game, id.seq));
  }

  DisputeCase c;
  c.name = name.empty() ? default_case_name(game->title, id) : name;
  auto catalog_bytes = blob_of(archive, store::BlobKind::Catalog, game->catalog_hash);
  if (!catalog_bytes) return tl::unexpected(catalog_bytes.error());
  auto ruleset_bytes = blob_of(archive, store::BlobKind::Ruleset, game->ruleset_hash);
  if (!ruleset_bytes) return tl::unexpected(ruleset_bytes.error());
  c.catalog_bytes = std::move(*catalog_bytes);
  c.ruleset_bytes = std::move(*ruleset_bytes);
  c.catalog_file = fmt::format("data/catalog-{}.csv", game->catalog_hash.substr(0, 16));
  c.ruleset_file = fmt::format("data/ruleset-{}.toml", game->ruleset_hash.substr(0, 16));

  c.notation = fmt::format(
      "# Regression case for dispute {} (warlog dispute export-test): events 0..{} of\n"
      "# \"{}\" ({}); the dispute is about seq {}. Expectations: {}.expect\n",
      to_string(id), prefix.size() - 1, one_line(game->title), game->date, id.seq, c.name);
  c.notation += core::export_notation(prefix);

  // The prefix must come back as the same events, or the case tests something else.
  auto catalog = core::parse_catalog_csv(c.catalog_bytes);
  if (!catalog) return make_error(ErrorCode::DataLoss, "the recorded catalog does not parse: " + catalog.error().message);
  const core::DeckLoader no_decks = [](const std::string& ref) -> Expected<std::string> {
    return make_error(ErrorCode::InvalidArgument, "an exported game has its decks inline, not " + ref);
  };
  auto parsed = core::parse_notation(c.notation, c.name + ".wlog", *catalog, game->ruleset_hash, no_decks);
  std::vector<core::Event> stored = prefix;
  for (auto& ev : stored) ev.game = 0;
  if (!parsed.ok() || parsed.game.events != stored) {
    return make_error(ErrorCode::Internal,
                      fmt::format("the exported prefix of game {} does not parse back to the same events{}",
                                  id.game, parsed.ok() ? "" : ": " + parsed.errors.front().to_string()));
  }

  auto audit = archive.audit(id.game);
  if (!audit) return tl::unexpected(audit.error());
  const AtSeq now = findings_at(audit->findings, id.seq, expectation);
  c.engine_agrees = now.found == expectation.present;
  c.engine_detail = now.detail;

  std::string& e = c.expect;
  e += "# warlog dispute regression case (format: replay/include/warlog/replay/dispute_case.hpp).\n";
  e += "# Made by `warlog dispute export-test`; run by tests/replay/dispute_cases_test.cpp.\n";
  e += fmt::format("format: {}\n", kCaseFormat);
  e += fmt::format("game: {}.wlog\n", c.name);
  e += fmt::format("catalog: {}\n", c.catalog_file);
  e += fmt::format("ruleset: {}\n", c.ruleset_file);
  e += fmt::format("seq: {}\n", id.seq);
  // A ruling recorded under an id since renamed is exported under the id now.
  const core::Rule* expected_rule = core::find_rule(expectation.rule_id);
  e += fmt::format("{}: {}\n", expectation.present ? "expect" : "expect-none",
                   expected_rule != nullptr ? expected_rule->id : std::string_view(expectation.rule_id));
  e += fmt::format("dispute: {}\n", to_string(id));
  e += fmt::format("title: {} ({})\n", one_line(game->title), game->date);
  e += fmt::format("claim: {}\n", one_line(dispute->raised.claim));
  e += fmt::format("raised-by: {}\n", one_line(dispute->raised.raised_by));
  e += fmt::format("ruling: {}\n", one_line(ruling->ruling));
  e += fmt::format("ruled-by: {}\n", one_line(ruling->ruled_by));
  if (!ruling->ruled_at.empty()) e += fmt::format("ruled-at: {}\n", one_line(ruling->ruled_at));
  std::vector<std::string> cited;  // the claim's and the ruling's, each once
  using Citations = const std::vector<core::Citation>*;
  for (Citations list : std::initializer_list<Citations>{&dispute->raised.citations, &ruling->citations}) {
    for (const auto& cite : *list) {
      std::string line = citation_line(cite);
      if (std::find(cited.begin(), cited.end(), line) == cited.end()) cited.push_back(std::move(line));
    }
  }
  for (const auto& line : cited) e += "citation: " + line + "\n";
  return c;
}

Expected<WrittenCase> write_dispute_case(const DisputeCase& c, const fs::path& dir, bool overwrite) {
  std::error_code ec;
  fs::create_directories(dir / "data", ec);
  if (ec) return make_error(ErrorCode::IoError, fmt::format("cannot create {}: {}", (dir / "data").string(), ec.message()));
  WrittenCase out{dir / (c.name + ".wlog"), dir / (c.name + ".expect"), {}};
  if (!overwrite) {
    for (const fs::path& p : {out.wlog, out.expect}) {
      if (fs::exists(p)) {
        return make_error(ErrorCode::Conflict, fmt::format("{} exists (pass --force to replace it, or --name)", p.string()));
      }
    }
  }
  for (const auto& [file, bytes] : {std::pair{&c.catalog_file, &c.catalog_bytes}, std::pair{&c.ruleset_file, &c.ruleset_bytes}}) {
    const fs::path p = dir / *file;
    if (fs::exists(p)) {
      auto have = read_text(p);
      if (!have) return tl::unexpected(have.error());
      if (*have != *bytes) {
        return make_error(ErrorCode::Conflict,
                          fmt::format("{} exists with other bytes than its name's hash says", p.string()));
      }
      continue;
    }
    if (auto w = write_text(p, *bytes); !w) return tl::unexpected(w.error());
    out.data.push_back(p);
  }
  if (auto w = write_text(out.wlog, c.notation); !w) return tl::unexpected(w.error());
  if (auto w = write_text(out.expect, c.expect); !w) return tl::unexpected(w.error());
  return out;
}

Expected<CaseSpec> read_case(const fs::path& expect_file) {
  auto text = read_text(expect_file);
  if (!text) return tl::unexpected(text.error());
  CaseSpec spec;
  spec.expect_file = expect_file;
  const fs::path dir = expect_file.parent_path();
  std::map<std::string, std::string> seen;
  std::istringstream in(*text);
  std::size_t line_no = 0;
  auto bad = [&](const std::string& why) {
    return make_error(ErrorCode::InvalidArgument, fmt::format("{}:{}: {}", expect_file.string(), line_no, why));
  };
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) return bad("expected 'key: value'");
    const std::string key = line.substr(0, colon);
    std::string value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    if (key == "citation") {
      spec.citations.push_back(value);
      continue;
    }
    static const char* const kKnown[] = {"format", "game", "catalog", "ruleset", "seq", "expect", "expect-none",
                                         "dispute", "title", "claim", "raised-by", "ruling", "ruled-by", "ruled-at"};
    if (std::find(std::begin(kKnown), std::end(kKnown), key) == std::end(kKnown)) return bad("unknown key '" + key + "'");
    if (!seen.emplace(key, value).second) return bad("'" + key + "' given twice");
  }
  line_no = 0;
  for (const char* key : {"format", "game", "catalog", "ruleset", "seq"}) {
    if (!seen.contains(key)) return bad(fmt::format("'{}' is missing", key));
  }
  if (seen["format"] != std::to_string(kCaseFormat)) return bad("format " + seen["format"] + " is not 1");
  if (seen.contains("expect") == seen.contains("expect-none")) return bad("give exactly one of 'expect' and 'expect-none'");
  const std::string& seq = seen["seq"];
  if (auto r = std::from_chars(seq.data(), seq.data() + seq.size(), spec.seq); r.ec != std::errc{} || r.ptr != seq.data() + seq.size()) {
    return bad("seq '" + seq + "' is not a number");
  }
  spec.expectation.present = seen.contains("expect");
  spec.expectation.rule_id = spec.expectation.present ? seen["expect"] : seen["expect-none"];
  if (core::find_rule(spec.expectation.rule_id) == nullptr) return bad("no rule '" + spec.expectation.rule_id + "'");
  spec.wlog = dir / seen["game"];
  spec.catalog = dir / seen["catalog"];
  spec.ruleset = dir / seen["ruleset"];
  spec.dispute = seen["dispute"];
  return spec;
}

Expected<CaseOutcome> run_case(const CaseSpec& spec, const fs::path& scratch_store) {
  auto archive = Archive::open(scratch_store.string(), Archive::Mode::ReadWrite);
  if (!archive) return tl::unexpected(archive.error());
  ImportOptions io;
  io.catalog_path = spec.catalog.string();
  io.ruleset_path = spec.ruleset.string();
  auto imported = archive->import_file(spec.wlog.string(), io);
  if (!imported) {
    std::string why = imported.error().error.message;
    for (const auto& e : imported.error().notation_errors) why += "; " + e.to_string();
    return make_error(imported.error().error.code, fmt::format("{}: {}", spec.wlog.string(), why));
  }
  if (imported->events <= spec.seq) {
    return make_error(ErrorCode::InvalidArgument, fmt::format("{} holds {} events; the case's seq {} is not among them",
                                                              spec.wlog.string(), imported->events, spec.seq));
  }
  auto audit = archive->audit(imported->id);
  if (!audit) return tl::unexpected(audit.error());
  const AtSeq at = findings_at(audit->findings, spec.seq, spec.expectation);
  return CaseOutcome{at.found == spec.expectation.present, at.detail};
}

}  // namespace warlog::replay
