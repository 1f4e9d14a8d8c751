// The lists a new verb must join, checked against the command table itself: every leaf command
// `gentle-ai --help` reaches is classified here as reading or mutating; a mutating verb is in the
// crash sweeps its fault points and its system calls need (tests/lifecycle_crash_test.cc or, for
// the seen ledger, tests/loop_seen_test.cc; tests/syscall_crash_test.cc) or says why not; and
// the history verbs the mutating verbs write are exactly store::HistoryVerb's (the verbs the chain
// verification accepts); a reading verb's domain is in a read-only link check and the verb is in
// the read-only proof that hashes the whole common dir (tests/readonly_commands_test.cc). Adding a
// verb without joining them fails here (docs/design.md, "Adding things").
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "store/history_verb.h"
#include "tests/support/crash_sweeps.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/process.h"
#include "tests/support/read_commands.h"
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

// Commands that change nothing under the git common dir, each with its read-only proofs: the link
// check whose executable holds its domain (every object of that library linked against read
// targets only; <build>/link_checks.txt, written by tests/CMakeLists.txt) and a function of the
// domain that executable must define; and its runs in tests/readonly_commands_test.cc, which hashes
// the whole common dir around each (tests/support/read_commands.h). `writes` states exactly what
// the command may write besides stdout and stderr: the CLI layer (cli/, which links the write
// targets) writes the user's own --output file and nothing else; `seen new` first recovers an
// unanswered `review post` of its PR, which writes.
struct Reading {
  std::string link_check;     // "" only with no_link_check
  std::string domain;         // a function of the verb's domain, as nm -C prints its name
  std::string writes;         // "": nothing
  std::string no_link_check;  // why there is no domain to link-check
};

const std::string kOutputFile = "the file named by --output (cli/, store::WriteFileAtomic)";

const std::map<std::string, Reading> kReading = {
    {"review status",
     {"gentle_transaction_read_only_check", "gentle::transaction::InspectStatus(", "", ""}},
    {"review list",
     {"gentle_transaction_read_only_check", "gentle::transaction::VisitLineages(", "", ""}},
    {"review fsck", {"gentle_transaction_read_only_check", "gentle::transaction::Fsck(", "", ""}},
    {"review export-context",
     {"gentle_export_read_only_check", "gentle::exporter::ExportContext(", kOutputFile, ""}},
    {"review verify",
     {"gentle_export_read_only_check", "gentle::exporter::VerifyLineage(", "", ""}},
    {"review attest",
     {"gentle_export_read_only_check", "gentle::exporter::Attest(", kOutputFile, ""}},
    {"review comment",
     {"gentle_export_read_only_check", "gentle::exporter::ReadRoundVerdict(", "", ""}},
    {"review parse-comment",
     {"gentle_export_read_only_check", "gentle::exporter::ParseComment(", "", ""}},
    {"review show",
     {"gentle_export_read_only_check", "gentle::exporter::ReadShowView(", kOutputFile, ""}},
    {"review ledger", {"gentle_forge_read_only_check", "gentle::forge::RecoverLedger(", "", ""}},
    {"review context import",
     {"gentle_forge_read_only_check", "gentle::forge::ImportGithub(", kOutputFile, ""}},
    {"review seen check",
     {"gentle_loop_read_only_check", "gentle::loop::SeenLedgerReader::Find(", "", ""}},
    {"review seen list",
     {"gentle_loop_read_only_check", "gentle::loop::SeenLedgerReader::List(", "", ""}},
    {"review seen new",
     {"gentle_loop_read_only_check", "gentle::loop::SeenLedgerReader::Unseen(",
      "an unanswered `review post` intent of its PR, recovered first (watch/poster.h "
      "RecoverPosts); none open, nothing written",
      ""}},
    {"review hint parse", {"gentle_loop_read_only_check", "gentle::loop::ParseHint(", "", ""}},
    {"review pr-state show",
     {"gentle_watch_read_only_check", "gentle::watch::LoadPrState(", "", ""}},
    {"version",
     {"", "", "",
      "no domain: cli/version_report.cc prints this build's and its libraries' versions"}},
};

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
  for (const auto& [command, _] : kReading) {
    INFO("listed but not in the command table: " << command);
    CHECK(leaves.count(command) == 1);
  }
  for (const auto& [command, _] : kMutating) {
    INFO("listed but not in the command table: " << command);
    CHECK(leaves.count(command) == 1);
  }
}

TEST_CASE("verb registry: every reading verb's domain is in a read-only link check") {
  std::map<std::string, std::string> checks;  // name -> executable
  std::istringstream listed(ReadFile(std::string(GENTLE_BUILD_DIR) + "/link_checks.txt"));
  std::string name, path;
  while (listed >> name >> path) checks[name] = path;
  REQUIRE(checks.count("gentle_export_read_only_check") == 1);
  std::map<std::string, std::string> symbols;  // check -> nm -C --defined-only of it
  for (const auto& [command, r] : kReading) {
    INFO("reading verb: " << command
                          << " (its link check and domain in tests/verb_registry_test.cc)");
    CHECK(r.link_check.empty() != r.no_link_check.empty());
    if (r.link_check.empty()) continue;
    REQUIRE(checks.count(r.link_check) == 1);
    if (!symbols.count(r.link_check)) {
      RunResult nm = Run({"nm", "-C", "--defined-only", checks[r.link_check]});
      REQUIRE(nm.exit_code == 0);
      symbols[r.link_check] = nm.out;
    }
    INFO("defined by " << r.link_check << ": " << r.domain);
    CHECK(symbols[r.link_check].find(r.domain) != std::string::npos);
  }
}

TEST_CASE("verb registry: every reading verb is in the whole-common-dir read-only proof") {
  std::vector<std::string> leaves;
  for (const auto& [command, _] : kReading) leaves.push_back(command);
  for (const auto& [command, _] : kMutating) leaves.push_back(command);
  ReadInputs in;
  in.lineages = {"review-0123456789abcdef"};
  in.envelopes = {"/nonexistent/envelope.json"};
  in.scratch = "/nonexistent";
  in.comment = "/nonexistent/comment.md";
  std::set<std::string> proven;
  for (const std::vector<std::string>& args : ReadCommands(in)) {
    const std::string command = CommandOf(args, leaves);
    INFO("a run of tests/support/read_commands.cc: " << command);
    REQUIRE(kReading.count(command) == 1);
    proven.insert(command);
    if (std::find(args.begin(), args.end(), "--output") != args.end()) {
      CHECK(kReading.at(command).writes == kOutputFile);
    }
  }
  for (const auto& [command, _] : kReading) {
    INFO("reading verb with no run in tests/support/read_commands.cc: " << command);
    CHECK(proven.count(command) == 1);
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
  CHECK(store::TerminalStateOf(store::HistoryVerbWord::FromText("burn")) ==
        store::TerminalState::kConsumed);
  CHECK(store::TerminalStateOf(store::HistoryVerbWord::FromText("abandon")) ==
        store::TerminalState::kRetired);
  CHECK_FALSE(store::TerminalStateOf(store::HistoryVerbWord::FromText("start")).has_value());
}

}  // namespace
}  // namespace gentle::testing
