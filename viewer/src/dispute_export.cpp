#include "dispute_export.hpp"

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSvgRenderer>
#include <QTextDocument>
#include <QUrl>

#include <fmt/format.h>

#include <algorithm>

#include "main_window_parts.hpp"
#include "warlog/replay/keyring.hpp"

namespace warlog::viewer {

ReportFile report_file_of(const QString& path) {
  const QString lower = path.toLower();
  if (lower.endsWith(QLatin1String(".md")) || lower.endsWith(QLatin1String(".markdown"))) return ReportFile::Markdown;
  if (lower.endsWith(QLatin1String(".pdf"))) return ReportFile::Pdf;
  return ReportFile::Html;
}

namespace {

// A board's width on the page, in the document's pixels (96 a inch): A4
// less the margins is about 680, so a five-column board fits whole.
constexpr int kBoardWidth = 560;

// The board drawn from its SVG, at twice its size for print.
QImage render_board(const std::string& svg) {
  QSvgRenderer renderer(QByteArray::fromStdString(svg));
  const QSize size = renderer.defaultSize().isValid() ? renderer.defaultSize() * 2 : QSize(800, 600);
  QImage image(size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::white);
  QPainter p(&image);
  renderer.render(&p);
  p.end();
  return image;
}

Expected<void> save(const QString& path, const QByteArray& bytes) {
  QSaveFile f(path);
  if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}: {}", path.toStdString(), f.errorString().toStdString()));
  }
  return {};
}

}  // namespace

Expected<void> write_report_pdf(const replay::DisputeReport& report, const QString& path) {
  QString html = QString::fromStdString(report.text);
  // QTextDocument reads HTML, not XML: no prolog, no doctype; each board an image.
  html.remove(QRegularExpression(QStringLiteral("^<\\?xml[^>]*>\\s*<!DOCTYPE html>\\s*")));
  QTextDocument doc;
  const std::pair<const std::string*, QString> boards[] = {{&report.board_before, QStringLiteral("warlog:board-before")},
                                                          {&report.board_after, QStringLiteral("warlog:board-after")}};
  for (const auto& [svg, name] : boards) {
    const QString inline_svg = QString::fromStdString(*svg);
    if (inline_svg.isEmpty() || !html.contains(inline_svg)) {
      return make_error(ErrorCode::Internal, "the report's board is not in its HTML");
    }
    const QImage image = render_board(*svg);
    doc.addResource(QTextDocument::ImageResource, QUrl(name), image);
    const int width = std::min(image.width() / 2, kBoardWidth);
    const int height = image.width() > 0 ? image.height() * width / image.width() : 0;
    html.replace(inline_svg, QStringLiteral("<img src=\"%1\" width=\"%2\" height=\"%3\"/>").arg(name).arg(width).arg(height));
  }
  // QTextDocument knows neither <figure> nor the report's print CSS: plain
  // blocks, and the page's own width (A4 less the margins, at 96 a inch).
  html.replace(QStringLiteral("<figure>"), QStringLiteral("<div>")).replace(QStringLiteral("</figure>"), QStringLiteral("</div>"));
  html.replace(QStringLiteral("<figcaption>"), QStringLiteral("<p><i>")).replace(QStringLiteral("</figcaption>"), QStringLiteral("</i></p>"));
  html.remove(QRegularExpression(QStringLiteral("body\\{[^}]*\\}")));
  doc.setHtml(html);
  // Written beside its name, then renamed into place: never half a PDF.
  const QString partial = path + QStringLiteral(".partial");
  {
    QPdfWriter writer(partial);
    writer.setTitle(QString::fromStdString(report.title));
    writer.setCreator(QStringLiteral("warlog-viewer"));
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setResolution(150);
    doc.print(&writer);
  }
  if (QFileInfo(partial).size() == 0) {
    QFile::remove(partial);
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}", path.toStdString()));
  }
  QFile::remove(path);
  if (!QFile::rename(partial, path)) {
    return make_error(ErrorCode::IoError, fmt::format("cannot write {}", path.toStdString()));
  }
  return {};
}

Expected<replay::DisputeReport> export_dispute_report(const replay::Archive& archive, const replay::DisputeId& id,
                                                      const QString& path) {
  // The keyring as verify finds it ($WARLOG_KEYRING, else the default),
  // refused inside the store; none at all (no HOME, no file) trusts nobody.
  replay::Keyring ring;
  if (auto where = replay::keyring_path({})) {
    if (auto outside = replay::check_keyring_outside(*where, archive.path()); !outside) {
      return tl::unexpected(outside.error());
    }
    auto loaded = replay::Keyring::load(*where);
    if (!loaded) return tl::unexpected(loaded.error());
    ring = std::move(*loaded);
  }
  const ReportFile kind = report_file_of(path);
  replay::DisputeReportOptions o;
  o.format = kind == ReportFile::Markdown ? replay::DisputeReportFormat::Markdown : replay::DisputeReportFormat::Html;
  o.rules = rules_folder_given();  // warlog-viewer --rules, as the rule pane reads
  auto report = replay::dispute_report(archive, id, ring, o);
  if (!report) return report;
  if (kind != ReportFile::Pdf) {
    if (auto ok = save(path, QByteArray::fromStdString(report->text)); !ok) return tl::unexpected(ok.error());
    return report;
  }
  if (auto ok = write_report_pdf(*report, path); !ok) return tl::unexpected(ok.error());
  return report;
}

}  // namespace warlog::viewer
