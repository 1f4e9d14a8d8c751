// `review pr-state show|set` (docs/watch.md "PR state"): exact Markdown and JSON, field-by-field
// updates, and refusals that change nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

const std::string kPr = "github:acme/webapp#47";

TEST_CASE("pr-state: set records fields and show prints them as Markdown and JSON") {
  LifecycleRepo repo;
  const Env at = {{"GENTLE_FIXED_TIME", "2026-12-02T10:00:00Z"}};
  RunResult none = repo.Review({"pr-state", "show", "--pr", kPr}, {}, false);
  CHECK(none.exit_code == 3);
  CHECK(none.err.find("not_found") != std::string::npos);
  RunResult first =
      repo.Review({"pr-state", "set", "--pr", kPr, "--round", "1", "--asked", "x"}, at, false);
  CHECK(first.exit_code == 2);
  CHECK(first.err ==
        "gentle-ai: usage: pr-state: " + kPr + " has no state yet: the first set needs --phase\n");
  RunResult set = repo.Review({"pr-state", "set", "--pr", kPr, "--phase", "fixing review",
                               "--round", "1", "--asked", "rename x\nadd a test"},
                              at, false);
  INFO(set.err);
  REQUIRE(set.exit_code == 0);
  CHECK(set.out ==
        "# PR state: github:acme/webapp#47\n\n- Phase: fixing review\n- Head: (not recorded)\n"
        "- Blocked on: nothing\n- Updated: 2026-12-02T10:00:00Z\n\n## Rounds\n\n### Round 1\n\n"
        "rename x\nadd a test\n");
  const std::string sha(40, 'c');
  REQUIRE(repo.Review({"pr-state", "set", "--pr", kPr, "--head-sha", sha, "--blocked-on",
                       "CI on the new head", "--round", "2", "--asked", "split the file"},
                      {{"GENTLE_FIXED_TIME", "2026-12-02T11:00:00Z"}}, false)
              .exit_code == 0);
  RunResult json = repo.Review({"pr-state", "show", "--pr", kPr});
  REQUIRE(json.exit_code == 0);
  CHECK(
      json.out ==
      R"({"schema":"gentle-ai.review-pr-state/v1","pr":"github:acme/webapp#47",)"
      R"("phase":"fixing review","head_sha":")" +
          sha +
          R"(","blocked_on":"CI on the new head","rounds":[{"round":1,"asked":"rename x\nadd a test"},)"
          R"({"round":2,"asked":"split the file"}],"updated_at":"2026-12-02T11:00:00Z"})"
          "\n");
  // Refusals name the flag and change nothing.
  const std::string before = ReadFile(repo.common_dir() + "/gentle-ai/review-loop.sqlite");
  const std::vector<std::vector<std::string>> refused = {
      {"--phase", ""},
      {"--phase", "two\nlines"},
      {"--head-sha", "ABC"},
      {"--blocked-on", "a\tb"},
      {"--round", "0", "--asked", "x"},
      {"--round", "1"},
      {},
  };
  for (const auto& flags : refused) {
    std::vector<std::string> args = {"pr-state", "set", "--pr", kPr};
    args.insert(args.end(), flags.begin(), flags.end());
    RunResult run = repo.Review(args);
    INFO(run.out);
    CHECK(run.exit_code == 2);
    CHECK(run.Json()["error"]["code"] == "usage");
  }
  CHECK(ReadFile(repo.common_dir() + "/gentle-ai/review-loop.sqlite") == before);
  CHECK(repo.Review({"pr-state", "show", "--pr", kPr}).out == json.out);
  // The seen ledger in the same file is untouched and still reads.
  RunResult seen = repo.Review({"seen", "list", "--pr", kPr});
  CHECK(seen.exit_code == 0);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out);
  CHECK(fsck.exit_code == 0);
}

TEST_CASE(
    "pr-state: an empty ledger file a killed writer left is migrated - the seen ledger's writers "
    "still take it") {
  LifecycleRepo repo;
  // A seen-ledger writer killed after SQLite created the file and before its migration
  // committed leaves an empty database: schema version 0, no tables.
  std::filesystem::create_directories(repo.common_dir() + "/gentle-ai");
  WriteFile(repo.common_dir() + "/gentle-ai/review-loop.sqlite", "");
  RunResult set = repo.Review({"pr-state", "set", "--pr", kPr, "--phase", "reviewing"},
                              {{"GENTLE_FIXED_TIME", "2026-12-02T10:00:00Z"}}, false);
  INFO(set.err);
  REQUIRE(set.exit_code == 0);
  RunResult add = repo.Review({"seen", "add", "--pr", kPr, "--id", "1001"});
  INFO(add.out << add.err);
  REQUIRE(add.exit_code == 0);
  RunResult list = repo.Review({"seen", "list", "--pr", kPr});
  INFO(list.out << list.err);
  REQUIRE(list.exit_code == 0);
  CHECK(list.out.find("1001") != std::string::npos);
  RunResult show = repo.Review({"pr-state", "show", "--pr", kPr}, {}, false);
  CHECK(show.exit_code == 0);
  CHECK(show.out.find("- Phase: reviewing") != std::string::npos);
}

}  // namespace
}  // namespace gentle::testing
