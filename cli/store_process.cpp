#include "store_process.hpp"

#include <signal.h>

#include "common.hpp"
#include "warlog/replay/isolate.hpp"

namespace warlog::cli {

int in_store_process(const std::string& store, std::string_view doing, const std::function<int()>& verb,
                     const char* process) {
  const auto outcome = replay::run_isolated_work(store, process, verb);
  if (outcome.death) {
    error_line(Error{ErrorCode::DataLoss, outcome.death->message(store, doing)});
    return kExitError;
  }
  if (outcome.passed_signal != 0) {
    // Ctrl-C, a closed pipe: what the work died of ends warlog as it would have.
    ::signal(outcome.passed_signal, SIG_DFL);
    ::raise(outcome.passed_signal);
  }
  return outcome.exit_code;
}

std::string store_or_default(const std::string& flag) { return flag.empty() ? replay::default_store_path() : flag; }

}  // namespace warlog::cli
