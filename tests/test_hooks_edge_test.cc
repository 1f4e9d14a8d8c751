// The edges of the command line: an exception that escapes a command is `internal` (exit 1, the
// JSON error envelope under --json), never an abort; reading a failed Result is a checked failure;
// the test hooks (fault points, the fixed clock) exist only in the test build's gentle-ai-test,
// not in the gentle-ai that `cmake --install` puts in place.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "store/status.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

// A repository with one changed file, ready for `review start`.
std::string RepoWithChange(const TempDir& tmp) {
  std::string repo = InitRepo(tmp.path());
  WriteFile(repo + "/a.txt", "changed\n");
  return repo;
}

}  // namespace

TEST_CASE("an exception escaping a command is internal with exit 1 in the JSON envelope") {
  for (const std::string kind : {"bad_alloc", "json", "other"}) {
    INFO("kind: " << kind);
    TempDir tmp;
    std::string repo = RepoWithChange(tmp);
    RunResult r = GentleAi({"review", "start", "--json"}, repo,
                           {{"GENTLE_FAULT_THROW", "start:locked@" + kind}});
    CHECK(r.exit_code == 1);
    auto envelope = nlohmann::json::parse(r.out);
    CHECK(envelope["schema"] == "gentle-ai.review-error/v1");
    CHECK(envelope["error"]["code"] == "internal");
    const std::string message = envelope["error"]["message"];
    CHECK(message.rfind("unexpected exception: ", 0) == 0);
    if (kind == "bad_alloc") CHECK(message == "unexpected exception: out of memory");
    if (kind == "json") CHECK(message.find("type must be string") != std::string::npos);
    if (kind == "other") CHECK(message == "unexpected exception: not a std::exception");

    RunResult human =
        GentleAi({"review", "start"}, repo, {{"GENTLE_FAULT_THROW", "start:locked@" + kind}});
    CHECK(human.exit_code == 1);
    CHECK(human.out.empty());
    CHECK(human.err.rfind("gentle-ai: internal: unexpected exception: ", 0) == 0);

    // The store took no record, and the next start proceeds normally.
    RunResult next = GentleAi({"review", "start", "--json"}, repo);
    CHECK(next.exit_code == 0);
    CHECK(nlohmann::json::parse(next.out)["created"] == true);
  }
}

TEST_CASE("reading the value of a failed Result throws BadResultAccess") {
  Result<int> failed(Status(Code::kNotFound, "no such lineage"));
  CHECK_THROWS_AS(failed.value(), BadResultAccess);
  CHECK_THROWS_AS(*failed, BadResultAccess);
  CHECK_THROWS_WITH(failed.value(), "value of a failed Result read: not_found: no such lineage");
  Result<std::string> text(Status(Code::kCorrupted, "bad"));
  CHECK_THROWS_AS(text->size(), BadResultAccess);
  Result<int> fine(7);
  CHECK(fine.value() == 7);
}

TEST_CASE("the installed gentle-ai ignores GENTLE_FAULT_POINT and GENTLE_FIXED_TIME") {
  TempDir tmp;
  const std::string prefix = tmp.path() + "/prefix";
  RunResult install = Run({"cmake", "--install", GENTLE_BUILD_DIR, "--prefix", prefix});
  REQUIRE(install.exit_code == 0);
  const std::string installed = prefix + "/bin/gentle-ai";
  const Env hooks = {{"GENTLE_FAULT_POINT", "start:locked"},
                     {"GENTLE_FAULT_THROW", "start:locked"},
                     {"GENTLE_FIXED_TIME", "2001-02-03T04:05:06Z"}};
  const std::string repo = RepoWithChange(tmp);

  // The test build's executable honours them: the fault point stops it.
  RunResult hooked = GentleAi({"review", "start", "--json"}, repo, hooks);
  CHECK(hooked.exit_code == 86);

  RunResult r = Run({installed, "review", "start", "--json"}, repo, hooks);
  REQUIRE(r.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(r.out)["lineage"];
  const std::string record =
      ReadFile(repo + "/.git/gentle-ai/review-transactions/v2/" + lineage + "/review-state.json");
  CHECK(record.find("2001-02-03T04:05:06Z") == std::string::npos);
  // The time lives in the history commit (records hold no time member): the real one.
  RunResult history =
      Run({"git", "-C", repo, "log", "-1", "--format=%B", "refs/gentle-ai/reviews/" + lineage});
  REQUIRE(history.exit_code == 0);
  CHECK(history.out.find("\nAt: ") != std::string::npos);
  CHECK(history.out.find("2001-02-03T04:05:06Z") == std::string::npos);

  // The binary holds none of the hook variables' names at all.
  const std::string image = ReadFile(installed);
  for (const char* name :
       {"GENTLE_FAULT_POINT", "GENTLE_FAULT_TRACE", "GENTLE_FAULT_THROW", "GENTLE_FAULT_PAUSE",
        "GENTLE_FIXED_TIME", "GENTLE_ADMIT_OVERSIZE", "GENTLE_GIT_SECTION_MIN_BYTES",
        "GENTLE_CHILD_DEADLINE_MS", "GENTLE_FORGE_TIMEOUT_MS"}) {
    INFO(name);
    CHECK(image.find(name) == std::string::npos);
  }
  CHECK(ReadFile(GENTLE_AI_BIN).find("GENTLE_FAULT_POINT") != std::string::npos);
}

}  // namespace gentle::testing
