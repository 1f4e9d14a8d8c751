#include "tests/support/syscall_fault.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/strace_kill.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

bool IsFdCall(const std::string& name) {
  return name == "write" || name == "pwrite64" || name == "fsync" || name == "fdatasync" ||
         name == "sync_file_range";
}

// The paths one strace line (`-y`) names for the call: for a call on a file descriptor, the path
// the descriptor resolves to; otherwise every quoted argument, joined to the directory descriptor
// before it when relative.
std::vector<std::string> CallPaths(const std::string& name, const std::string& call_args) {
  std::vector<std::string> out;
  if (IsFdCall(name)) {
    const size_t open = call_args.find('<');
    const size_t close = call_args.find('>', open);
    if (open != std::string::npos && close != std::string::npos && call_args.find('"') > open) {
      out.push_back(call_args.substr(open + 1, close - open - 1));
    }
    return out;
  }
  std::string dir;
  for (size_t i = 0; i < call_args.size(); ++i) {
    if (call_args[i] == '<') {
      const size_t close = call_args.find('>', i);
      if (close == std::string::npos) break;
      dir = call_args.substr(i + 1, close - i - 1);
      i = close;
    } else if (call_args[i] == '"') {
      const size_t close = call_args.find('"', i + 1);
      if (close == std::string::npos) break;
      std::string path = call_args.substr(i + 1, close - i - 1);
      if (!path.empty() && path[0] != '/' && !dir.empty()) path = dir + "/" + path;
      out.push_back(path);
      dir.clear();
      i = close;
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& FaultSyscalls() {
  static const std::vector<std::string> kinds = {"write",     "pwrite64", "rename",   "renameat",
                                                 "renameat2", "unlink",   "unlinkat", "rmdir",
                                                 "fsync",     "fdatasync"};
  return kinds;
}

namespace {

// What TraceStoreCalls lists: the fault system calls and sync_file_range, which starts or waits for
// a file's writeback (the object batches, store/git/loose_batch.h) and is never a kill point.
const std::vector<std::string>& TracedSyscalls() {
  static const std::vector<std::string> kinds = [] {
    std::vector<std::string> all = FaultSyscalls();
    all.push_back("sync_file_range");
    return all;
  }();
  return kinds;
}

}  // namespace

std::vector<StoreCall> TraceStoreCalls(const LifecycleRepo& repo,
                                       const std::vector<std::string>& args,
                                       const std::string& under, RunResult* run, const Env& env) {
  TempDir dir;
  const std::string trace = dir.path() + "/trace";
  std::string kinds;
  for (const std::string& kind : TracedSyscalls()) kinds += (kinds.empty() ? "" : ",") + kind;
  const std::vector<std::string> strace = {"strace",         "-f", "-qq", "-y", "-s", "0", "-e",
                                           "trace=" + kinds, "-o", trace};
  Env all = TracedCommandEnv();
  for (const auto& [key, value] : env) all[key] = value;
  *run = GentleAi(repo.ReviewArgs(args), repo.root(), all, strace);

  // One traced call: its process, its name and its store path (empty when it acts on none).
  struct Traced {
    std::string pid, name, path;
  };
  std::vector<Traced> traced;
  std::istringstream lines(ReadFile(trace));
  for (std::string line; std::getline(lines, line);) {
    const size_t space = line.find(' ');
    if (space == std::string::npos) continue;
    const std::string rest = line.substr(line.find_first_not_of(' ', space));
    const size_t paren = rest.find('(');
    if (rest.rfind("<...", 0) == 0 || paren == std::string::npos) continue;  // resumed, signal
    const std::string name = rest.substr(0, paren);
    if (std::find(TracedSyscalls().begin(), TracedSyscalls().end(), name) ==
        TracedSyscalls().end()) {
      continue;
    }
    Traced call{line.substr(0, space), name, ""};
    for (const std::string& path : CallPaths(name, rest.substr(paren + 1))) {
      if (path.compare(0, under.size() + 1, under + "/") == 0) {
        call.path = path;
        break;
      }
    }
    traced.push_back(std::move(call));
  }
  // The command's own process is the one that acts on the store; a child it runs (the user's
  // git, gh) must not. strace counts each process's calls apart, so the ordinals are its own.
  std::string command_pid;
  for (const Traced& call : traced) {
    if (!call.path.empty() && command_pid.empty()) command_pid = call.pid;
  }
  std::vector<StoreCall> out;
  std::map<std::string, int> ordinals;
  for (const Traced& call : traced) {
    if (call.pid != command_pid) {
      INFO("a child's call on the store: " << call.name << " " << call.path);
      CHECK(call.path.empty());
      continue;
    }
    const int ordinal = ++ordinals[call.name];
    if (!call.path.empty()) out.push_back({call.name, ordinal, call.path});
  }
  return out;
}

size_t SweepRunsPerSyscall(size_t full) {
  return SanitizerBuild() ? std::min(full, kSanitizerSampleRuns) : full;
}

StoreCopy::StoreCopy(const LifecycleRepo& repo)
    : root_(repo.root()), saved_(repo.root() + ".saved") {
  RunResult copy = Run({"cp", "-a", root_, saved_}, "/");
  INFO(copy.err);
  REQUIRE(copy.exit_code == 0);
}

StoreCopy::~StoreCopy() {
  std::error_code ignored;
  std::filesystem::remove_all(saved_, ignored);
}

void StoreCopy::Restore() const {
  std::filesystem::remove_all(root_);
  RunResult copy = Run({"cp", "-a", saved_, root_}, "/");
  INFO(copy.err);
  REQUIRE(copy.exit_code == 0);
}

}  // namespace gentle::testing
