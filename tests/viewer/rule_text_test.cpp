// The viewer's rule pane says in words which basis a rule rests on: the
// designer's documents, an unpublished page, or warlog's own rules.

#include <gtest/gtest.h>

#include "main_window_parts.hpp"

namespace warlog::viewer {
namespace {

TEST(RuleText, EachBasisIsSaidInWords) {
  const QString written = rule_text_html("MUS-a.draw");
  EXPECT_TRUE(written.contains("Muster Phase › Steps › a. Draw cards")) << written.toStdString();
  EXPECT_TRUE(written.contains("(written)")) << written.toStdString();
  const QString assumed = rule_text_html("MOR.leader");
  EXPECT_TRUE(assumed.contains("assumed: rests on an unpublished page")) << assumed.toStdString();
  const QString warlog = rule_text_html("LOG.order");
  EXPECT_TRUE(warlog.contains("warlog: a rule of the log itself")) << warlog.toStdString();
  EXPECT_TRUE(warlog.contains("warlog rules › Event order")) << warlog.toStdString();
  EXPECT_FALSE(warlog.contains("(written)")) << warlog.toStdString();
}

// The pane quotes the cited section from the rules documents (found through
// WARLOG_RULES or the configured ../shared/rules), or says why it cannot.
TEST(RuleText, TheSectionIsQuotedInTheDocumentsOwnWords) {
  const QString written = rule_text_html("MUS-a.draw");
  EXPECT_TRUE(written.contains("<blockquote")) << written.toStdString();
  EXPECT_TRUE(written.contains("a. Draw cards.")) << "the run-in heading's own line\n" << written.toStdString();
  const QString assumed = rule_text_html("MOR.leader");
  EXPECT_TRUE(assumed.contains("cannot be shown")) << assumed.toStdString();
  EXPECT_FALSE(assumed.contains("<blockquote")) << assumed.toStdString();
}

TEST(RuleText, AnUnknownIdSaysSo) {
  EXPECT_TRUE(rule_text_html("MUS-z.nope").contains("is not in this engine's rules register"));
}

}  // namespace
}  // namespace warlog::viewer
