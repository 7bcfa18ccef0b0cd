// The viewer's survey ends the log as the audit does (rulings R-095, issue
// 15): a game recorded without an `end` line lists the findings of its end,
// at its last event, the same as `warlog audit` gives.

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "game_session.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::viewer {
namespace {

struct Listed {
  core::Seq seq;
  std::string rule;
  std::string message;
  core::Seq concerns;
  friend bool operator==(const Listed&, const Listed&) = default;
};

// The end-of-log findings (each says so) of a probe game, as the viewer
// lists them and as the audit gives them.
void expect_same_end_as_the_audit(const std::string& probe, std::string_view rule) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("warlog-viewer-eol-" + probe + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  {
    auto rw = replay::Archive::open(dir.string(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(rw) << rw.error().message;
    const auto file = std::filesystem::path(WARLOG_SOURCE_DIR) / "tests" / "data" / "probes" / (probe + ".wlog");
    auto imported = rw->import_file(file.string(), {});
    ASSERT_TRUE(imported) << imported.error().error.message;
    const core::GameId id = imported->id;

    auto audit = rw->audit(id);
    ASSERT_TRUE(audit) << audit.error().message;
    std::vector<Listed> audited;
    for (const replay::LocatedFinding& f : audit->findings) {
      if (f.finding.message.find("(the log ends here)") == std::string::npos) continue;
      audited.push_back({f.finding.seq, std::string(f.finding.rule_id), f.finding.message, f.finding.concerns});
    }

    auto archive = std::make_shared<replay::Archive>(std::move(*rw));
    auto session = GameSession::open(archive, id);
    ASSERT_TRUE(session) << session.error().message;
    const replay::FindingList& list = (*session)->findings();
    std::vector<Listed> listed;
    for (std::size_t i = 0; i < list.size(); ++i) {
      const replay::LocatedFinding f = list.located(i);
      if (f.finding.message.find("(the log ends here)") == std::string::npos) continue;
      listed.push_back({f.finding.seq, std::string(f.finding.rule_id), f.finding.message, f.finding.concerns});
    }
    ASSERT_FALSE(audited.empty());
    EXPECT_EQ(listed, audited);
    bool has_rule = false;
    for (const Listed& l : listed) {
      EXPECT_EQ(l.seq, (*session)->last_seq()) << l.message;  // at the last event
      has_rule = has_rule || l.rule == rule;
    }
    EXPECT_TRUE(has_rule) << rule;
    // The game list's result comes from the same ended state as the audit's.
    EXPECT_EQ((*session)->final_state(), audit->final_state);
    EXPECT_EQ(list.size(), audit->findings.size());
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(ViewerEndOfLog, AShortDrawWhereTheLogEndsIsListedAsTheAuditGivesIt) {
  expect_same_end_as_the_audit("e2_draw1_eof", "MUS-a.draw");
}

TEST(ViewerEndOfLog, AChargesUnfoughtCombatsWhereTheLogEndsAreListedAsTheAuditGivesThem) {
  expect_same_end_as_the_audit("e1_charge_nocombat_eof", "WAR-C.every-combat");
}

// A sample game without its `end` line: the rules give the Attrition Victory
// where the log ends. The game list's result is the audit's, not "no result"
// from the open state (final_state is the ended one).
TEST(ViewerEndOfLog, AVictoryDerivedWhereTheLogEndsIsTheResultTheGameListShows) {
  expect_same_end_as_the_audit("attrition_win_at_log_end", "LOG.result");
}

}  // namespace
}  // namespace warlog::viewer
