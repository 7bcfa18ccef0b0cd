#pragma once
// File › Export dispute report: the report `warlog dispute report` writes
// (replay/dispute_report.hpp), as HTML or Markdown, or as PDF through Qt's
// own PDF writer with the boards drawn from the same SVG as the HTML's
// (Qt SVG), so that the file on screen, on paper and from the CLI never
// drift apart.

#include <QString>

#include "warlog/core/error.hpp"
#include "warlog/replay/dispute_report.hpp"

namespace warlog::viewer {

// The format a file name asks for: .md/.markdown Markdown, .pdf PDF,
// anything else (.html, .xhtml) HTML.
enum class ReportFile : std::uint8_t { Html, Markdown, Pdf };
[[nodiscard]] ReportFile report_file_of(const QString& path);

// Writes the report of dispute `id` to `path` in the format its name asks
// for, with the keyring at its default place (none: the signatures line
// names no trusted signer). Errors: the report's; IoError when the file
// cannot be written (nothing is left half-written: a file beside it is
// renamed into place).
[[nodiscard]] Expected<replay::DisputeReport> export_dispute_report(const replay::Archive& archive,
                                                                    const replay::DisputeId& id, const QString& path);

// The PDF of an HTML report: its text laid out by QTextDocument, each
// inline <svg> board replaced by that SVG rendered by QSvgRenderer.
[[nodiscard]] Expected<void> write_report_pdf(const replay::DisputeReport& html_report, const QString& path);

}  // namespace warlog::viewer
