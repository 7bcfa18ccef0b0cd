#pragma once
// warlog dispute add|list|show|resolve|export-test|report (cli/dispute.cpp), and
// warlog keygen / sign (cli/signing.cpp). Each verb family registers its
// subcommands on the app and runs whichever was parsed.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace warlog::cli {

struct DisputeArgs {
  std::string store;
  std::string format = "text";
  // add
  std::uint64_t game = 0;
  std::uint64_t seq = 0;
  std::string claim;
  std::string by;
  std::vector<std::string> cites;       // --cite: rule ids only
  std::vector<std::string> cite_texts;  // --cite-text: free text
  // list
  std::vector<std::uint64_t> games;
  // show, resolve, export-test
  std::string id;
  // resolve
  std::string ruling;
  std::string expect;       // --expect RULE: the audit must report RULE at the seq
  std::string expect_none;  // --expect-none RULE: it must not
  bool supersede = false;
  std::string key;  // --key KEYFILE: the judge signs the ruling
  // export-test
  std::string out = "tests/disputes";
  std::string name;
  bool force = false;
  // report
  std::string report_format = "html";
  std::string report_out;  // empty or "-": stdout
  std::string rules;       // --rules DIR
  std::string keyring;     // --keyring PATH

  CLI::App* add = nullptr;
  CLI::App* list = nullptr;
  CLI::App* show = nullptr;
  CLI::App* resolve = nullptr;
  CLI::App* export_test = nullptr;
  CLI::App* report = nullptr;
};
CLI::App* add_dispute(CLI::App& app, DisputeArgs& a);
int run_dispute(const DisputeArgs& a);

struct SigningArgs {
  std::string store;
  std::string key;  // keygen --out, sign --key
  std::string public_out;  // keygen --public-out
  std::uint64_t game = 0;
  std::string signer;
};
// Returns {keygen, sign}.
std::pair<CLI::App*, CLI::App*> add_signing(CLI::App& app, SigningArgs& a);
int run_keygen(const SigningArgs& a);
int run_sign(const SigningArgs& a);

// The wall clock as ISO 8601 UTC ("2026-03-20T14:03:11Z"): the only clock
// warlog reads, and only here in the front end.
std::string now_utc();
// The same clock in milliseconds since the Unix epoch: what signatures record.
std::int64_t now_ms();

}  // namespace warlog::cli
