#include "verbs.hpp"

#include "common.hpp"
#include "trust.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "warlog/core/finding.hpp"
#include "warlog/core/notation.hpp"
#include "warlog/replay/replay.hpp"
#include "warlog/replay/export.hpp"
#include "warlog/replay/report.hpp"
#include "warlog/replay/signatures.hpp"

#include <algorithm>
#include <iostream>
#include <span>

namespace warlog::cli {

using replay::Archive;

int run_import(const Options& o) {
  auto archive = open_archive(o, Archive::Mode::ReadWrite);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  replay::ImportOptions io;
  if (!o.catalog.empty()) io.catalog_path = o.catalog;
  if (!o.ruleset.empty()) io.ruleset_path = o.ruleset;
  // Files go in batches, one store transaction each (Archive::import_files):
  // each file all or nothing, one commit per batch instead of per file.
  constexpr std::size_t kBatchFiles = 256;
  int rc = kExitClean;
  for (std::size_t first = 0; first < o.files.size(); first += kBatchFiles) {
    const auto batch = std::span(o.files).subspan(first, std::min(kBatchFiles, o.files.size() - first));
    const auto results = archive->import_files(batch, io);
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const std::string& file = batch[i];
      const auto& r = results[i];
      if (!r) {
        rc = kExitError;
        if (r.error().notation_errors.empty()) {
          fmt::print(stderr, "warlog: {}: {}\n", file, r.error().error.message);
        }
        for (const auto& e : r.error().notation_errors) fmt::print(stderr, "{}\n", e.to_string());
        if (!r.error().notation_errors.empty()) {
          fmt::print(stderr, "warlog: {}: {} error{}, nothing imported\n", file, r.error().notation_errors.size(),
                     r.error().notation_errors.size() == 1 ? "" : "s");
        }
        continue;
      }
      fmt::print("imported {} as game {} ({} events)\n", file, r->id, r->events);
    }
  }
  return rc;
}

int run_verify(const Options& o) {
  auto keyring = open_keyring(o.keyring, o.store, false);
  if (!keyring) {
    error_line(keyring.error());
    return kExitError;
  }
  auto sel = open_selection(o, Archive::Mode::ReadOnly);
  if (!sel) {
    error_line(sel.error());
    return kExitError;
  }
  auto& archive = sel->archive;
  const auto& ids = sel->ids;
  int rc = kExitClean;
  bool learned = false;
  auto at_least = [&rc](int code) { rc = std::max(rc, code); };
  for (core::GameId id : ids) {
    auto v = archive.verify(id);
    if (!v) {
      error_line(v.error());
      at_least(kExitError);
      continue;
    }
    if (v->ok) {
      fmt::print("game {}: ok, {}\n", id, v->detail);
    } else {
      fmt::print("game {}: BROKEN at seq {}: {}\n", id, v->first_bad_seq ? *v->first_bad_seq : 0, v->detail);
      at_least(kExitViolations);
    }
    // Who attests it, against the keyring (replay/keyring.hpp), then every
    // signature and signed ruling, and any signed state that has vanished.
    auto trust = replay::assess_game(archive, id, *keyring);
    if (!trust) {
      error_line(trust.error());
      at_least(kExitError);
      continue;
    }
    fmt::print("  {}\n", trust->line);
    for (const auto& note : trust->notes) fmt::print("  {}\n", note);
    if (trust->failed()) at_least(kExitViolations);
    if (o.require_signed && trust->verdict != replay::GameTrust::Verdict::Trusted) {
      fmt::print("  not signed as it stands by a trusted key (--require-signed)\n");
      at_least(kExitViolations);
    }
    for (const auto& state : trust->to_remember) learned = keyring->remember(state) || learned;
  }
  if (learned) {
    if (auto saved = keyring->save(); !saved) {
      error_line(saved.error());
      at_least(kExitError);
    }
  }
  return rc;
}

int run_list(const Options& o) {
  auto archive = open_archive(o, Archive::Mode::ReadOnly);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  auto games = archive->games();
  if (!games) {
    error_line(games.error());
    return kExitError;
  }
  if (o.format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& g : *games) {
      nlohmann::json seats = nlohmann::json::array();
      for (const auto& s : g.seats) seats.push_back({{"player", s.player}, {"allegiance", core::to_string(s.allegiance)}});
      out.push_back({{"game", g.id}, {"title", g.title}, {"date", g.date}, {"events", g.events}, {"seats", seats}});
    }
    fmt::print("{}\n", out.dump(2));
    return kExitClean;
  }
  fmt::print("{:>5}  {:<10}  {:>6}  {:<40}  {}\n", "game", "date", "events", "title", "players");
  for (const auto& g : *games) {
    fmt::print("{:>5}  {:<10}  {:>6}  {:<40}  {}\n", g.id, g.date, g.events, g.title, replay::seats_line(g));
  }
  if (games->empty() && isatty(STDOUT_FILENO)) fmt::print("(no games yet: warlog import FILE.wlog)\n");
  return kExitClean;
}

int run_export(const Options& o) {
  auto archive = open_archive(o, Archive::Mode::ReadOnly);
  if (!archive) {
    error_line(archive.error());
    return kExitError;
  }
  if (o.format == "json" || o.format == "capnp" || o.format == "capnp-binary") {
    if (o.format != "json" && isatty(STDOUT_FILENO)) {
      error_line(Error{ErrorCode::InvalidArgument, "not writing Cap'n Proto bytes to a terminal; redirect to a file"});
      return kExitError;
    }
    const auto format = o.format == "json"    ? replay::ExportFormat::JsonLines
                        : o.format == "capnp" ? replay::ExportFormat::CapnpPacked
                                              : replay::ExportFormat::CapnpBinary;
    auto stats = replay::export_game(*archive, o.game, format, std::cout);
    std::cout.flush();
    if (!stats) {
      error_line(stats.error());
      return kExitError;
    }
    return kExitClean;
  }
  auto events = archive->events(o.game);
  if (!events) {
    error_line(events.error());
    return kExitError;
  }
  fmt::print("{}", core::export_notation(*events));
  return kExitClean;
}

int run_rules(const Options& o) {
  if (o.format == "json") {
    nlohmann::json out = nlohmann::json::array();
    for (const core::Rule& r : core::all_rules()) {
      out.push_back({{"id", r.id},
                     {"citation", r.citation},
                     {"summary", r.summary},
                     {"severity", core::to_string(r.severity)},
                     {"basis", core::to_string(r.basis)},
                     {"option", r.option},
                     {"ruling", r.ruling}});
    }
    fmt::print("{}\n", out.dump(2));
    return kExitClean;
  }
  for (const core::Rule& r : core::all_rules()) {
    fmt::print("{:<28} {:<9} {:<7} {}\n", r.id, core::to_string(r.severity), core::to_string(r.basis), r.citation);
    fmt::print("{:<28} {}", "", r.summary);
    if (!r.option.empty()) fmt::print(" [option: {}]", r.option);
    if (!r.ruling.empty()) fmt::print(" [ruling: {}]", r.ruling);
    fmt::print("\n");
  }
  return kExitClean;
}

}  // namespace warlog::cli
