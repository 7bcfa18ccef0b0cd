#pragma once
// The dispute report: one self-contained file a head judge can file or send
// (`warlog dispute report ID --format html|md`, and the viewer's File ›
// Export dispute report). It holds the game and its players, the claim, the
// events around the disputed one, the board before and after it (drawn by
// replay/board.hpp, the spaces the event concerns framed), the findings
// there with the text of the section each cites (read from the rules
// documents, never copied into warlog), every ruling with who made it and
// when, and the chain and signature status of the game.
//
// HTML is XHTML (well-formed XML: `xmllint --noout` accepts it) with its
// style and its boards (inline SVG) inside it and no reference outside
// itself. Markdown draws the boards as monospace grids (board_text), since
// Markdown renderers drop inline SVG. Nothing in either depends on the clock:
// the same store gives the same report.

#include <filesystem>
#include <optional>
#include <string>

#include "warlog/core/error.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/keyring.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

enum class DisputeReportFormat : std::uint8_t { Html, Markdown };

struct DisputeReportOptions {
  DisputeReportFormat format = DisputeReportFormat::Html;
  core::Seq events_before = 4;  // the events shown before the disputed one
  core::Seq events_after = 2;   // and after it
  // Where the rules documents are (--rules); else find_rules_folder's search.
  // None found: each finding says where it looked instead of the text.
  std::optional<std::filesystem::path> rules;
};

// The parts of the report, for the viewer's PDF (which draws the two boards
// from the same SVG) and for tests.
struct DisputeReport {
  std::string title;        // "Dispute 1:122:0: Cut Off"
  std::string text;         // the whole file, in the format asked for
  std::string board_before;  // <svg>...</svg>
  std::string board_after;
  bool chain_ok = false;     // verify found the game intact
};

// Errors: NotFound for an unknown dispute; DataLoss when the game's events
// or annotations cannot be read as recorded (a broken chain is reported in
// the file, not an error, when the events can still be read).
[[nodiscard]] Expected<DisputeReport> dispute_report(const Archive& archive, const DisputeId& id,
                                                     const Keyring& keyring, const DisputeReportOptions& options);

}  // namespace warlog::replay
