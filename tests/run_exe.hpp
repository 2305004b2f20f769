// Runs the mcsim executable as a user would: to completion with its output, or in
// the background to be signalled. Paths come from CMake (MCSIM_EXE, MCSIM_SOURCE_DIR).
#pragma once
#include <catch2/catch.hpp>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace test_exe {

namespace fs = std::filesystem;

struct Outcome {
  int status;  // exit status, -1 if killed by a signal
  std::string output;
};

// `prefix` goes before the executable (e.g. "OMP_NUM_THREADS=1" or an mpirun line).
inline Outcome run(const std::string& args, const std::string& prefix = "") {
  const std::string cmd = prefix + (prefix.empty() ? "" : " ") + MCSIM_EXE + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) out += buf;
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

// A scratch folder of this test process, made fresh under the system temp folder.
inline fs::path scratch(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("mcsim-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

// Starts mcsim with these arguments and one thread, output to `log`.
inline pid_t start(const std::vector<std::string>& args, const std::string& log) {
  std::vector<std::string> argv{MCSIM_EXE};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> cargv;
  for (auto& a : argv) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<std::string> env{"OMP_NUM_THREADS=1"};  // and the rest of ours
  for (char** e = environ; *e; ++e)
    if (std::string(*e).rfind("OMP_NUM_THREADS=", 0) != 0) env.emplace_back(*e);
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, MCSIM_EXE, &actions, nullptr, cargv.data(), cenv.data()) == 0);
  posix_spawn_file_actions_destroy(&actions);
  return pid;
}

// Exit status of a started process, -signal if a signal ended it.
inline int wait_for(pid_t pid) {
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
}

inline void sleep_s(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

}  // namespace test_exe
