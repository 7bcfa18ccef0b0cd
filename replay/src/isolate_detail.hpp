#pragma once
// What run_isolated (isolate.cpp) and run_isolated_work (isolate_work.cpp)
// share: waiting for a child, and the guarded page walk in a child of its own.

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>

#include "warlog/store/page_walk.hpp"

namespace warlog::replay::detail {

// waitpid, again after EINTR; the status.
int wait_for(pid_t pid);

// The page store::find_damaged_page names, walked in a child of its own: the
// walk bounds what it reads, and a bug in it must not end the caller either.
std::optional<store::DamagedPage> walk_in_child(const std::string& store);

}  // namespace warlog::replay::detail
