// Issue 18: the dispute report (replay/dispute_report.hpp) on the README's
// dispute: samples/games/cut_off.wlog, seq 122, a Lost Archer that fought.
// Its HTML is XHTML xmllint accepts, with nothing outside itself; both
// formats carry the claim, the events around it, the boards, the findings
// with the rule's own words (read here from the rules documents, never
// copied into the test), the rulings and the chain status.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

#include "temp_dir.hpp"
#include "warlog/core/finding.hpp"
#include "warlog/replay/board.hpp"
#include "warlog/replay/dispute_report.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/rule_text.hpp"

namespace warlog {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kCutOff = std::string(WARLOG_SAMPLES_DIR) + "/games/cut_off.wlog";
constexpr core::Seq kLostArcher = 122;

class DisputeReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto a = replay::Archive::open(dir_.store(), replay::Archive::Mode::ReadWrite);
    ASSERT_TRUE(a) << a.error().message;
    archive_ = std::make_unique<replay::Archive>(std::move(*a));
    auto imported = archive_->import_file(kCutOff, {});
    ASSERT_TRUE(imported) << imported.error().error.message;
    auto id = replay::add_dispute(*archive_, {imported->id, kLostArcher, "the Archer on e3 was Lost & fought <here>",
                                              "Ines", {"WAR-C.lost"}, "2026-12-04T10:00:00Z", {}});
    ASSERT_TRUE(id) << id.error().message;
    id_ = *id;
  }
  void rule() {
    auto r = replay::resolve_dispute(*archive_, id_,
                                     {"Upheld: a Lost Troop cannot fight", "Judge Carla", {"WAR-C.lost"},
                                      core::Expectation{"WAR-C.lost", true}, "2026-12-04T10:30:00Z", false, {},
                                      std::nullopt, 0});
    ASSERT_TRUE(r) << r.error().message;
  }
  replay::DisputeReport report(replay::DisputeReportFormat format) {
    replay::DisputeReportOptions o;
    o.format = format;
    auto r = replay::dispute_report(*archive_, id_, replay::Keyring{}, o);
    EXPECT_TRUE(r) << r.error().message;
    return r ? *r : replay::DisputeReport{};
  }
  // The section WAR-C.lost cites, as the rules documents have it here.
  static std::string lost_section() {
    const core::Rule* rule = core::find_rule("WAR-C.lost");
    EXPECT_NE(rule, nullptr);
    auto s = replay::rule_section(*rule, replay::find_rules_folder(std::nullopt));
    EXPECT_TRUE(s) << s.error().message;
    return s ? s->text : std::string();
  }

  testing::TempDir dir_;
  std::unique_ptr<replay::Archive> archive_;
  replay::DisputeId id_;
};

TEST_F(DisputeReportTest, HtmlIsXhtmlThatXmllintAcceptsWithNoReferenceOutsideItself) {
  rule();
  const auto r = report(replay::DisputeReportFormat::Html);
  const std::string file = dir_.path().string() + "/report.html";
  std::ofstream(file) << r.text;
  ASSERT_EQ(std::system(("/usr/bin/xmllint --noout " + file + " 2>" + file + ".err").c_str()), 0)
      << std::ifstream(file + ".err").rdbuf();
  // The only URIs are the two namespaces; no src=, href= or url( at all.
  std::string rest = r.text;
  for (const char* ns : {"http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg"}) {
    for (auto at = rest.find(ns); at != std::string::npos; at = rest.find(ns)) rest.erase(at, std::strlen(ns));
  }
  for (const char* ref : {"http", "src=", "href=", "url(", "@import"}) EXPECT_THAT(rest, Not(HasSubstr(ref))) << ref;
  EXPECT_EQ(r.title, "Dispute 1:122:0: Cut off at the bridge");
}

TEST_F(DisputeReportTest, HtmlCarriesTheClaimEventsBoardsFindingsRuleTextRulingsAndChain) {
  rule();
  const auto r = report(replay::DisputeReportFormat::Html);
  const std::string& t = r.text;
  EXPECT_THAT(t, HasSubstr("the Archer on e3 was Lost &amp; fought &lt;here&gt;")) << "escaped, never raw";
  EXPECT_THAT(t, HasSubstr("Raised by Ines at 2026-12-04T10:00:00Z about seq 122"));
  for (core::Seq s = kLostArcher - 4; s <= kLostArcher + 2; ++s) EXPECT_THAT(t, HasSubstr(fmt::format("<td>{}</td>", s)));
  EXPECT_THAT(t, HasSubstr("<tr class=\"disputed\"><td>122</td>"));
  // Two boards, each an inline SVG, the event's spaces framed in both.
  std::size_t svgs = 0;
  for (auto at = t.find("<svg "); at != std::string::npos; at = t.find("<svg ", at + 1)) ++svgs;
  EXPECT_EQ(svgs, 2u);
  EXPECT_THAT(r.board_before, HasSubstr("e3: the event or its findings concern it"));
  EXPECT_THAT(r.board_after, HasSubstr("e3: the event or its findings concern it"));
  // The combat changed the board: the Musketeer on e2 and the Lost Archer on
  // e3 stand before it, neither after.
  for (const char* troop : {"<title>Claw Musketeer (e2)</title>", "<title>Briar Archer (e3)</title>"}) {
    EXPECT_THAT(r.board_before, HasSubstr(troop));
    EXPECT_THAT(r.board_after, Not(HasSubstr(troop)));
  }
  // The finding, and the words of the section it cites, escaped as XML.
  EXPECT_THAT(t, HasSubstr("WAR-C.lost"));
  const std::string words = lost_section();
  ASSERT_FALSE(words.empty());
  EXPECT_THAT(t, HasSubstr(replay::xml_escape(words)));
  EXPECT_THAT(t, HasSubstr("Ruling 1 (in force)"));
  EXPECT_THAT(t, HasSubstr("By Judge Carla at 2026-12-04T10:30:00Z: resolved"));
  EXPECT_THAT(t, HasSubstr("expects: the audit reports WAR-C.lost at seq 122"));
  EXPECT_THAT(t, HasSubstr("chain intact ("));
  EXPECT_TRUE(r.chain_ok);
  EXPECT_THAT(t, HasSubstr("unsigned"));
}

TEST_F(DisputeReportTest, MarkdownDrawsTheBoardsAsGridsAndCarriesTheSameFacts) {
  const auto r = report(replay::DisputeReportFormat::Markdown);
  const std::string& t = r.text;
  EXPECT_THAT(t, HasSubstr("# Dispute 1:122:0: Cut off at the bridge"));
  EXPECT_THAT(t, HasSubstr("open: no ruling yet"));
  EXPECT_THAT(t, HasSubstr("> the Archer on e3 was Lost &amp; fought &lt;here>")) << "typed text, never markup";
  EXPECT_THAT(t, HasSubstr("| **122** |"));
  EXPECT_THAT(t, HasSubstr("```text\n"));
  EXPECT_THAT(t, HasSubstr("Lost<")) << "the Lost Archer, framed on the board";
  EXPECT_THAT(t, HasSubstr("## Rulings\n\nNone yet."));
  EXPECT_THAT(t, HasSubstr("- Chain: chain intact ("));
  const std::string words = lost_section();
  const std::string first_line = words.substr(0, words.find('\n'));
  EXPECT_THAT(t, HasSubstr("> " + first_line));
  EXPECT_THAT(t, Not(HasSubstr("<svg")));
}

TEST_F(DisputeReportTest, WithoutTheRulesDocumentsEachFindingSaysWhereItLooked) {
  replay::DisputeReportOptions o;
  o.rules = dir_.path() / "no-rules-here";
  auto r = replay::dispute_report(*archive_, id_, replay::Keyring{}, o);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_THAT(r->text, HasSubstr("The rule's own words cannot be shown: no rules folder at"));
}

TEST_F(DisputeReportTest, AnUnknownDisputeIsNotFound) {
  auto r = replay::dispute_report(*archive_, {1, kLostArcher, 7}, replay::Keyring{}, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::NotFound);
}

// Found by review: a claim holding U+FFFE made the report's XHTML invalid.
TEST(XmlEscape, KeepsWellFormedUtf8AndReplacesWhatXmlForbids) {
  EXPECT_EQ(replay::xml_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&apos;");
  EXPECT_EQ(replay::xml_escape("Seat \xc2\xb7 \xe2\x80\xba \xf0\x9f\x8e\xb2"), "Seat \xc2\xb7 \xe2\x80\xba \xf0\x9f\x8e\xb2");
  const std::string fffd = "\xef\xbf\xbd";
  EXPECT_EQ(replay::xml_escape("x\xef\xbf\xbey"), "x" + fffd + fffd + fffd + "y") << "U+FFFE, byte by byte";
  EXPECT_EQ(replay::xml_escape("\xef\xbf\xbf"), fffd + fffd + fffd) << "U+FFFF";
  EXPECT_EQ(replay::xml_escape("\xed\xa0\x80"), fffd + fffd + fffd) << "a surrogate";
  EXPECT_EQ(replay::xml_escape("\xc0\xaf"), fffd + fffd) << "an overlong '/'";
  EXPECT_EQ(replay::xml_escape("\x80z\xe2\x80"), fffd + "z" + fffd + fffd) << "stray and cut short";
  EXPECT_EQ(replay::xml_escape("\x01\t"), "?\t");
}

TEST(BoardSvg, IsOneSvgElementWithEveryTextEscaped) {
  replay::Board b;
  b.cols = 2;
  b.rows = 1;
  b.troops.push_back({{0, 0}, "A<&>\"B'", 0, 2, 3, 0, 1, {"Lost"}, true});  // no damage: no red pip
  b.territories.push_back({{1, 0}, "Mill & Ford", 1, 3, core::kNoSeat, false});
  const std::string svg = replay::board_svg(b, {{"Ana <1>", core::Allegiance::ClawEmpire}}, {{0, 0}}, "Before <seq>");
  EXPECT_TRUE(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  EXPECT_THAT(svg, HasSubstr("A&lt;&amp;&gt;&quot;B&apos;"));
  EXPECT_THAT(svg, HasSubstr("Mill &amp; Ford"));
  EXPECT_THAT(svg, HasSubstr("Seat 1: Ana &lt;1&gt;"));
  EXPECT_THAT(svg, HasSubstr("Before &lt;seq&gt;"));
  EXPECT_THAT(svg, HasSubstr("a1: the event or its findings concern it"));
  EXPECT_THAT(svg, HasSubstr("fill=\"#c62828\"/>\n<text")) << "the Lost badge in the colour of violations";
  EXPECT_THAT(svg, Not(HasSubstr("A<&")));
  const std::string text = replay::board_text(b, {{"Ana", core::Allegiance::ClawEmpire}}, {{0, 0}});
  EXPECT_THAT(text, HasSubstr(">S1 A<&>\"B' 3/3 Lost<"));
  EXPECT_THAT(text, HasSubstr("T Mill & Ford 1/3"));
}

}  // namespace
}  // namespace warlog
