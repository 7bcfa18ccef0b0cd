#pragma once
// Starts this test binary again running only `test` (a child-process
// helper test such as StoreChild.Run), with `var=task` in its environment
// (any inherited `var` dropped). -1 when posix_spawn fails.

#include <spawn.h>
#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

extern char** environ;

namespace warlog::testing {

inline pid_t spawn_self(const char* var, const std::string& task, const std::string& test) {
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).starts_with(var)) continue;
    env_strings.emplace_back(*e);
  }
  env_strings.push_back(std::string(var) + "=" + task);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = "/proc/self/exe", filter = "--gtest_filter=" + test, brief = "--gtest_brief=1";
  char* argv[] = {exe.data(), filter.data(), brief.data(), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, "/proc/self/exe", nullptr, nullptr, argv, envp.data()) != 0) return -1;
  return pid;
}

}  // namespace warlog::testing
