// warlog record from a pipe: a whole sample game recorded line by line, in
// text and jsonl, then verify, audit and export it against the same file
// imported; refused lines, --strict, an ended game. The pseudo-terminal
// kill trials are in record_pty_test.cpp.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "cli_run.hpp"
#include "sample_lines.hpp"
#include "temp_dir.hpp"

namespace warlog::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

std::filesystem::path write_lines(const std::filesystem::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file, std::ios::binary);
  for (const auto& l : lines) out << l << "\n";
  return file;
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// export --format json with what only recording adds taken out.
std::string exported_without_recording(const std::string& store, int game) {
  const CliResult r = run_warlog(fmt::format("export {} --store '{}' --format json", game, store));
  EXPECT_EQ(r.code, 0) << r.err;
  std::string out;
  for (const std::string& line : split_lines(r.out)) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.erase("recorded_at_ms");
    j.erase("game");
    if (j.contains("payload")) j["payload"].erase("game_uuid");
    out += j.dump() + "\n";
  }
  return out;
}

// Every line of a jsonl file against docs/schema/NAME.schema.json with
// Debian's python3-jsonschema (scripts/check-json-schema wants a "schema"
// field, which record's lines do not carry); one line per error.
CliResult check_lines(const std::filesystem::path& file, const std::string& name) {
  const std::string program =
      "import json,sys,jsonschema\n"
      "v=jsonschema.Draft202012Validator(json.load(open(sys.argv[1])))\n"
      "bad=[f'{n}: {e.json_path}: {e.message}' for n,l in enumerate(open(sys.argv[2]),1) for e in "
      "v.iter_errors(json.loads(l))]\n"
      "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\n";
  const auto script = file.parent_path() / "check_lines.py";
  std::ofstream(script, std::ios::binary) << program;
  return run_warlog_command(fmt::format("{} {} {}/docs/schema/{}.schema.json {}", WARLOG_PYTHON3, q(script),
                                        WARLOG_SOURCE_DIR, name, q(file)));
}

// The audit's finding lines (everything but the header line, which names the game id).
std::string audit_findings(const std::string& store, int game) {
  const CliResult r = run_warlog(fmt::format("audit --store '{}' --game {}", store, game));
  EXPECT_NE(r.code, 2) << r.err;
  const auto nl = r.out.find('\n');
  return nl == std::string::npos ? r.out : r.out.substr(nl + 1);
}

TEST(RecordCli, ASampleRecordedByPipeIsTheSampleImported) {
  TempDir dir;
  const SampleLines s = sample_lines(dir.path(), "games/cut_off.wlog");
  const auto body = write_lines(dir.path() / "body.txt", s.body);
  const std::string store = dir.store();
  const CliResult rec = run_warlog(fmt::format("record '{}' --header {} < {}", store, q(s.header), q(body)));
  ASSERT_EQ(rec.code, 0) << rec.err;
  const auto answers = split_lines(rec.out);
  std::size_t recorded = 0;
  for (const auto& a : answers) recorded += std::regex_search(a, std::regex("^seq [0-9]+ recorded$"));
  const CliResult imp = run_warlog(fmt::format("import --store '{}' {}", store, q(s.whole)));
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_THAT(imp.out, HasSubstr("as game 2"));

  const CliResult verify = run_warlog(fmt::format("verify --store '{}' --game 1", store));
  EXPECT_EQ(verify.code, 0) << verify.out << verify.err;
  const std::string recorded_export = exported_without_recording(store, 1);
  EXPECT_EQ(recorded_export, exported_without_recording(store, 2));
  EXPECT_EQ(recorded + 3, count_lines(recorded_export)) << "one answer 'seq N recorded' per event after the header";
  EXPECT_EQ(audit_findings(store, 1), audit_findings(store, 2));
  // The recorded game carries its times; the imported one none.
  EXPECT_THAT(run_warlog(fmt::format("export 1 --store '{}' --format json", store)).out, HasSubstr("recorded_at_ms"));
}

TEST(RecordCli, JsonlAnswersEveryLineAsTheSchemaSays) {
  TempDir dir;
  const SampleLines s = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const auto body = write_lines(dir.path() / "body.txt", s.body);
  const CliResult rec =
      run_warlog(fmt::format("record '{}' --header {} --format jsonl < {}", dir.store(), q(s.header), q(body)));
  ASSERT_EQ(rec.code, 0) << rec.err;
  std::ifstream schema_file(std::string(WARLOG_SOURCE_DIR) + "/docs/schema/record-line.schema.json");
  const nlohmann::json schema = nlohmann::json::parse(schema_file);
  const auto answers = split_lines(rec.out);
  ASSERT_EQ(answers.size(), s.body.size()) << "one object per input line";
  std::size_t seqs = 0, with_findings = 0;
  for (std::size_t i = 0; i < answers.size(); ++i) {
    const nlohmann::json j = nlohmann::json::parse(answers[i]);
    for (const auto& key : schema["required"]) EXPECT_TRUE(j.contains(key.get<std::string>())) << answers[i];
    for (const auto& [key, value] : j.items()) EXPECT_TRUE(schema["properties"].contains(key)) << key;
    EXPECT_EQ(j["line"], i + 1);
    // A blank line or a comment is answered "nothing", never "ok" (the scorekeeper's trial).
    const bool blank = s.body[i].find_first_not_of(" \t") == std::string::npos ||
                       s.body[i][s.body[i].find_first_not_of(" \t")] == '#';
    EXPECT_EQ(j["status"], blank ? "nothing" : "ok") << answers[i];
    seqs += j["seqs"].size();
    with_findings += !j["findings"].empty();
  }
  EXPECT_EQ(seqs + 3, 38u) << "every event of the sample after the header";
  EXPECT_EQ(with_findings, 1u) << "seq 27: MUS-a.draw";
  // And the game so recorded is the sample imported.
  ASSERT_EQ(run_warlog(fmt::format("import --store '{}' {}", dir.store(), q(s.whole))).code, 0);
  EXPECT_EQ(run_warlog(fmt::format("verify --store '{}' --game 1", dir.store())).code, 0);
  EXPECT_EQ(exported_without_recording(dir.store(), 1), exported_without_recording(dir.store(), 2));
  EXPECT_EQ(audit_findings(dir.store(), 1), audit_findings(dir.store(), 2));
}

TEST(RecordCli, ARefusedLineGivesItsColumnAndWritesNothing) {
  TempDir dir;
  const SampleLines s = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const auto body = write_lines(dir.path() / "body.txt", {"Turn 1", "Morale 1", "Muster 1", "play \"Ironclaw Lancr\" b1",
                                                          "board"});
  const CliResult rec = run_warlog(fmt::format("record '{}' --header {} < {}", dir.store(), q(s.header), q(body)));
  EXPECT_EQ(rec.code, 0) << "a refused line ends no session: " << rec.err;
  auto answers = split_lines(rec.out);
  ASSERT_GE(answers.size(), 6u);
  EXPECT_EQ(answers[0], "game 1 created: go on with it with --game 1") << "a pipe learns the new game's number first";
  answers.erase(answers.begin());
  EXPECT_EQ(answers[3], "refused at column 6: expected a card of the catalog, found \"Ironclaw Lancr\" (did you mean "
                        "\"Ironclaw Lancer\"?); nothing recorded");
  EXPECT_EQ(answers[4], "battlefield 5x3");
  const CliResult exported = run_warlog(fmt::format("export 1 --store '{}' --format json", dir.store()));
  EXPECT_EQ(count_lines(exported.out), 6u) << "3 setup events and 3 lines";
  // The same refusal as JSON: the input line and the column.
  const auto again = write_lines(dir.path() / "again.txt", {"board", "play \"Ironclaw Lancr\" b1"});
  const CliResult json = run_warlog(fmt::format("record '{}' --game 1 --format jsonl < {}", dir.store(), q(again)));
  ASSERT_EQ(json.code, 0) << json.err;
  const auto objects = split_lines(json.out);
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(objects[0])["status"], "command");
  const auto refused = nlohmann::json::parse(objects[1]);
  EXPECT_EQ(refused["status"], "refused");
  EXPECT_EQ(refused["errors"][0]["line"], 2);
  EXPECT_EQ(refused["errors"][0]["col"], 6);
  EXPECT_EQ(refused["next_seq"], 6);
}

TEST(RecordCli, StrictFromAPipeAnswersNeedsConfirmAndWritesNothingForIt) {
  TempDir dir;
  const SampleLines s = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const auto body = write_lines(dir.path() / "body.txt", s.body);
  const CliResult rec =
      run_warlog(fmt::format("record '{}' --header {} --strict --format jsonl < {}", dir.store(), q(s.header), q(body)));
  ASSERT_EQ(rec.code, 0) << rec.err;
  std::size_t held = 0, recorded = 0;
  for (const auto& a : split_lines(rec.out)) {
    const auto j = nlohmann::json::parse(a);
    recorded += j["seqs"].size();
    if (j["status"] != "needs-confirm") continue;
    EXPECT_TRUE(j["seqs"].empty());
    EXPECT_FALSE(j["findings"].empty());
    if (held++ == 0) {  // spine_first_blood seq 27: Bruno draws three cards
      EXPECT_EQ(j["findings"][0]["rule"], "MUS-a.draw");
      // Not recorded, so it must not look recorded (the trial read "seq": 27):
      // no seq, no time; the finding names the held event by its place here.
      EXPECT_FALSE(j["events"][0].contains("seq")) << a;
      EXPECT_FALSE(j["events"][0].contains("recorded_at_ms")) << a;
      EXPECT_FALSE(j["findings"][0].contains("seq")) << a;
      EXPECT_EQ(j["findings"][0]["event"], 0) << a;
      EXPECT_EQ(j["next_seq"], 27) << a;
    }
  }
  EXPECT_GE(held, 1u);
  const auto answers = write_lines(dir.path() / "answers.jsonl", split_lines(rec.out));
  const CliResult valid = check_lines(answers, "record-line");
  EXPECT_EQ(valid.code, 0) << valid.out << valid.err;
  const CliResult exported = run_warlog(fmt::format("export 1 --store '{}' --format json", dir.store()));
  EXPECT_EQ(count_lines(exported.out), recorded + 3) << "only what was answered ok is stored";
}

TEST(RecordCli, AfterGameEndedALineIsRefusedAndCommandsStillAnswer) {
  TempDir dir;
  const SampleLines s = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const auto body = write_lines(dir.path() / "body.txt", s.body);
  ASSERT_EQ(run_warlog(fmt::format("record '{}' --header {} < {}", dir.store(), q(s.header), q(body))).code, 0);
  const auto more = write_lines(dir.path() / "more.txt", {"Turn 9", "hand 2"});
  const CliResult ended = run_warlog(fmt::format("record '{}' --game 1 < {}", dir.store(), q(more)));
  ASSERT_EQ(ended.code, 0) << ended.err;
  const auto answers = split_lines(ended.out);
  ASSERT_GE(answers.size(), 2u);
  EXPECT_EQ(answers[0], "ended: game 1 ended at seq 37: call a judge; nothing recorded");
  EXPECT_THAT(answers[1], StartsWith("seat 2 Bruno (Paw Coalition): hand"));
  const CliResult exported = run_warlog(fmt::format("export 1 --store '{}' --format json", dir.store()));
  EXPECT_EQ(count_lines(exported.out), 38u);
}

TEST(RecordCli, UsageAndStoreErrorsAreOneLineAndExit2) {
  TempDir dir;
  const CliResult neither = run_warlog(fmt::format("record '{}'", dir.store()));
  EXPECT_EQ(neither.code, 2);
  EXPECT_EQ(count_lines(neither.err), 1u) << neither.err;
  EXPECT_THAT(neither.err, StartsWith("warlog: record: give --header"));
  const CliResult missing = run_warlog(fmt::format("record '{}' --game 7 < /dev/null", dir.store()));
  EXPECT_EQ(missing.code, 2);
  EXPECT_THAT(missing.err, HasSubstr("game 7"));
  EXPECT_EQ(count_lines(missing.err), 1u) << missing.err;
  const SampleLines s = sample_lines(dir.path(), "tutorial/spine_first_blood.wlog");
  const auto bad = dir.path() / "bad.wlog";
  std::ofstream(bad) << slurp(s.header) << "Turn 1\n";  // a header holds tags only
  const CliResult header = run_warlog(fmt::format("record '{}' --header {} < /dev/null", dir.store(), q(bad)));
  EXPECT_EQ(header.code, 2);
  EXPECT_THAT(header.err, HasSubstr("a header holds tags only"));
  EXPECT_THAT(header.err, HasSubstr("1 error in the header, nothing recorded"));
  EXPECT_EQ(count_lines(run_warlog(fmt::format("list --store '{}'", dir.store())).out), 1u)
      << "no game was created (the list is its heading alone)";
  const CliResult help = run_warlog("record --help");
  EXPECT_EQ(help.code, 0);
  EXPECT_THAT(help.out, HasSubstr("Exit 0"));
}

}  // namespace
}  // namespace warlog::testing
