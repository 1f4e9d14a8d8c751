// The lists a new verb must join, checked against the command table itself: every leaf command
// `gentle-ai --help` reaches is classified here as reading or mutating; a mutating verb is in the
// crash sweeps its fault points and its system calls need (tests/lifecycle_crash_test.cc or, for
// the seen ledger, tests/loop_seen_test.cc; tests/syscall_crash_test.cc) or says why not; and
// the history verbs the mutating verbs write are exactly store::HistoryVerb's (the verbs the chain
// verification accepts). Adding a verb without joining them fails here (docs/design.md, "Adding
// things").
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "store/history_verb.h"
#include "tests/support/crash_sweeps.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// The leaf commands (no subcommands of their own) below `gentle-ai`, as "review start",
// "review index rebuild", "version", from each command's --help.
std::set<std::string> LeafCommands(const std::string& cwd) {
  std::set<std::string> leaves;
  std::vector<std::vector<std::string>> pending = {{}};
  while (!pending.empty()) {
    const std::vector<std::string> path = pending.back();
    pending.pop_back();
    std::vector<std::string> args = path;
    args.push_back("--help");
    RunResult help = GentleAi(args, cwd);
    REQUIRE(help.exit_code == 0);
    std::istringstream lines(help.out);
    std::string line;
    bool in_subcommands = false, any = false;
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == ':' && line[0] != ' ') {
        in_subcommands = line == "Subcommands:";
        continue;
      }
      if (!in_subcommands || line.rfind("  ", 0) != 0) continue;
      std::istringstream words(line);
      std::string sub;
      words >> sub;
      std::vector<std::string> sub_path = path;
      sub_path.push_back(sub);
      pending.push_back(sub_path);
      any = true;
    }
    if (!any && !path.empty()) {
      std::string name;
      for (const std::string& word : path) name += (name.empty() ? "" : " ") + word;
      leaves.insert(name);
    }
  }
  return leaves;
}

// Commands that change nothing under the git common dir (tests/readonly_commands_test.cc runs
// them), or only print.
const std::set<std::string> kReading = {
    "review status",    "review list",     "review export-context", "review verify",
    "review attest",    "review comment",  "review parse-comment",  "review show",
    "review fsck",      "review ledger",   "review context import", "review seen check",
    "review seen list", "review seen new", "review hint parse",     "review pr-state show",
    "version"};

struct Mutating {
  std::set<std::string> history_verbs;  // the verbs of the history commits it writes
  bool fault_point_sweep = false;       // in tests/lifecycle_crash_test.cc (seen: loop_seen_test)
  bool syscall_sweep = false;           // in tests/syscall_crash_test.cc
  std::string not_swept;                // why it is in neither sweep
};

const std::map<std::string, Mutating> kMutating = {
    {"review start", {{"start"}, true, true, ""}},
    {"review verdict", {{"verdict", "co-approve"}, true, true, ""}},
    {"review revise", {{"revise"}, true, false, ""}},
    {"review burn", {{"burn"}, true, true, ""}},
    {"review abandon", {{"abandon"}, true, true, ""}},
    {"review reclaim", {{}, true, true, ""}},
    {"review invalidate", {{"invalidate"}, true, true, ""}},
    {"review store reset", {{}, true, false, ""}},
    {"review index rebuild", {{"sync"}, true, true, ""}},
    {"review repair",
     {{"sync"}, false, false, "its steps are the history sync's, swept by import"}},
    {"review import", {{}, true, true, ""}},
    {"review push", {{}, false, false, "the user's git writes the remote, nothing local"}},
    {"review fetch", {{}, false, false, "the user's git writes the fetched refs"}},
    {"review post", {{}, false, true, ""}},
    {"review seen add", {{}, true, true, ""}},
    {"review seen baseline", {{}, true, true, ""}},
    {"review pr-state set", {{}, false, false, "one SQLite transaction of review-loop.sqlite"}},
    {"review watch", {{}, false, false, "the daemon's state is review-loop.sqlite's transactions"}},
};

TEST_CASE("verb registry: every command of the command table is classified reading or mutating") {
  TempDir dir;
  const std::set<std::string> leaves = LeafCommands(dir.path());
  REQUIRE(leaves.count("review start") == 1);
  for (const std::string& command : leaves) {
    INFO("command: " << command << " (classify it in tests/verb_registry_test.cc)");
    CHECK(kReading.count(command) + kMutating.count(command) == 1);
  }
  for (const std::string& command : kReading) {
    INFO("listed but not in the command table: " << command);
    CHECK(leaves.count(command) == 1);
  }
  for (const auto& [command, _] : kMutating) {
    INFO("listed but not in the command table: " << command);
    CHECK(leaves.count(command) == 1);
  }
}

TEST_CASE("verb registry: every mutating verb is in a crash sweep or says why not") {
  std::vector<std::string> fault = FaultPointSweepOperations();
  for (const std::string& name : SeenFaultPointSweepOperations()) fault.push_back(name);
  const std::vector<std::string> syscall = SyscallSweepOperations();
  auto in = [](const std::vector<std::string>& names, const std::string& command) {
    return std::find(names.begin(), names.end(), command.substr(7)) != names.end();
  };
  for (const auto& [command, m] : kMutating) {
    INFO("mutating verb: " << command);
    CHECK(in(fault, command) == m.fault_point_sweep);
    CHECK(in(syscall, command) == m.syscall_sweep);
    CHECK((m.fault_point_sweep || m.syscall_sweep) == m.not_swept.empty());
  }
}

TEST_CASE("verb registry: the history verbs written are exactly those the chain accepts") {
  std::set<std::string> written;
  for (const auto& [command, m] : kMutating) {
    for (const std::string& verb : m.history_verbs) {
      INFO(command << " writes " << verb);
      CHECK(store::ParseHistoryVerb(verb).has_value());
      written.insert(verb);
    }
  }
  std::set<std::string> accepted;
  for (store::HistoryVerb verb : store::kAllHistoryVerbs) {
    accepted.insert(std::string(store::HistoryVerbName(verb)));
    CHECK(store::ParseHistoryVerb(store::HistoryVerbName(verb)) == verb);
  }
  CHECK(written == accepted);
  CHECK(store::TerminalStateOf("burn") == "consumed");
  CHECK(store::TerminalStateOf("abandon") == "retired");
  CHECK(store::TerminalStateOf("start").empty());
}

}  // namespace
}  // namespace gentle::testing
