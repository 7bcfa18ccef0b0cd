#pragma once
// A resolved dispute as a regression case the test suite runs
// (`warlog dispute export-test`; tests/replay/dispute_cases_test.cpp).
//
// A case is three kinds of file in one directory (tests/disputes/ by default):
//   NAME.wlog    the game's events 0..seq (the disputed one last; a dispute
//                about setup gets the whole setup, the notation's header) as
//                canonical notation; its [Catalog]/[Ruleset] tags hold the
//                content hashes the game recorded
//   NAME.expect  what the audit must find there (format below)
//   data/catalog-HASH16.csv, data/ruleset-HASH16.toml
//                the exact catalog and ruleset the game recorded, shared by
//                every case that uses them; importing checks their hashes
//                against the tags, so a case replays under exactly what was
//                ruled on, whatever later happens to the sample files
//
// NAME.expect: "key: value" lines, '#' starts a comment line. Required:
//   format: 1
//   game: NAME.wlog                       relative to the .expect file
//   catalog: data/catalog-....csv         relative to the .expect file
//   ruleset: data/ruleset-....toml
//   seq: 27                               the disputed event
//   expect: RULE  |  expect-none: RULE    a finding of RULE at seq, or none
// Informative (kept for the reader, any number of citation lines):
//   dispute, title, claim, raised-by, ruling, ruled-by, ruled-at, citation

#include <filesystem>
#include <string>
#include <vector>

#include "warlog/core/annotation.hpp"
#include "warlog/core/error.hpp"
#include "warlog/replay/disputes.hpp"
#include "warlog/replay/replay.hpp"

namespace warlog::replay {

struct DisputeCase {
  std::string name;      // file stem
  std::string notation;  // NAME.wlog
  std::string expect;    // NAME.expect
  std::string catalog_file, catalog_bytes;  // data/catalog-....csv and its bytes
  std::string ruleset_file, ruleset_bytes;
  // What the engine reports today: whether it agrees with the ruling. A case
  // that disagrees still gets written: it fails until the engine is fixed.
  bool engine_agrees = false;
  std::string engine_detail;  // one line
};

// "first_blood_at_the_old_mill_seq27" (and "_2" for n = 2): the title in
// lowercase letters, digits and underscores, then the seq.
[[nodiscard]] std::string default_case_name(const std::string& title, const DisputeId& id);

// Builds the case for a resolved dispute whose ruling states an expectation.
// Checks that the exported prefix parses back to the same events. Errors:
// NotFound; InvalidArgument when the dispute is open or its ruling states no
// expectation (resolve it again with --supersede --expect/--expect-none);
// DataLoss for a damaged stream or missing blobs.
[[nodiscard]] Expected<DisputeCase> make_dispute_case(const Archive& archive, const DisputeId& id,
                                                      const std::string& name);

struct WrittenCase {
  std::filesystem::path wlog, expect;
  std::vector<std::filesystem::path> data;  // only files newly written
};
// Writes the case under dir (created if needed). Refuses (Conflict) to
// replace NAME.wlog or NAME.expect unless overwrite; a data file already
// there with the same bytes is kept, with other bytes is a Conflict.
[[nodiscard]] Expected<WrittenCase> write_dispute_case(const DisputeCase& c, const std::filesystem::path& dir,
                                                       bool overwrite);

// --- Running a case ------------------------------------------------------------
struct CaseSpec {
  std::filesystem::path expect_file;
  std::filesystem::path wlog, catalog, ruleset;  // resolved against the .expect's directory
  core::Seq seq = 0;
  core::Expectation expectation;
  std::vector<std::string> citations;
  std::string dispute;  // "1:27:0 ..." as written, for messages
};

// Errors: InvalidArgument "FILE:LINE: ..." for a malformed file; NotFound.
[[nodiscard]] Expected<CaseSpec> read_case(const std::filesystem::path& expect_file);

struct CaseOutcome {
  bool passed = false;
  std::string detail;  // what the audit found at the seq
};
// Imports the case into a new store at scratch_store (a directory that must
// not hold a store yet), audits it and checks the expectation. Errors: the
// import's (with notation errors joined into the message), the audit's.
[[nodiscard]] Expected<CaseOutcome> run_case(const CaseSpec& spec, const std::filesystem::path& scratch_store);

}  // namespace warlog::replay
