#pragma once
// The CLI's manners (cli/manners.cpp): --version, `warlog help VERB`, an
// unknown verb or option answered with a suggestion, and every error CLI11
// reports one line that starts "warlog:". No verb's logic.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace CLI {
class App;
}

namespace warlog::cli {

// Adds --version and the `help` verb to app, and the one-line failure
// message to app and every verb under it. Call after every verb is added.
void add_manners(CLI::App& app);

// Answers what CLI11 would answer wrongly, before it parses: `help [VERB...]`,
// and a first word that names no verb (CLI11 would take it for an extra
// argument and let a --help after it print the top-level help, exit 0).
// Returns the exit code when argv has been answered, nullopt when CLI11
// should parse it.
[[nodiscard]] std::optional<int> answer_before_parse(const CLI::App& app, int argc, const char* const* argv);

// The candidate a mistyped word most likely meant: the nearest by edit
// distance (a swap of neighbours counts one), if close enough to be a typo,
// else the only candidate the word begins. nullopt when none is.
[[nodiscard]] std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace warlog::cli
