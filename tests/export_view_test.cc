// export-context --view / --max-bytes / --part (docs/commands.md, "Views and parts") through the
// built CLI, on a lineage whose change bumps multi-megabyte lockfiles (package-lock.json,
// Cargo.lock) beside small code changes, with a bundle marked by `linguist-generated` and a
// lockfile whose attribute is unset. The pinned git CLI is the oracle: each part of the full view
// is `git diff <pinned flags> A B -- <its paths>` and the parts concatenate to the whole export;
// the review view is git's sections for hand-written entries and, for generated ones, git's header
// lines and the `--numstat` counts; the interdiff gets the same. A hand-written entry above the
// part size is budget_exceeded naming it; a part out of range is usage; refusals write nothing; a
// part envelope is refused by verify --envelope; old invocations print the same bytes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/lockfiles.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/view_oracle.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr int kPart = 512 * 1024;

// The base commit: lockfiles, a generated bundle, code and docs.
void CommitBase(const LifecycleRepo& repo) {
  repo.Write(".gitattributes", "web/bundle.js linguist-generated\nyarn.lock -linguist-generated\n");
  repo.Write("package-lock.json", NpmLockfile(9000, 0));
  repo.Write("Cargo.lock", CargoLockfile(8000, 0));
  repo.Write("yarn.lock", Prose(200, 0, 9));
  repo.Write("web/bundle.js", Prose(3000, 0, 4));
  repo.Write("src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n");
  repo.Write("docs/guide.md", Prose(2000, 0, 50));
  repo.GitOk({"add", "-A"});
  repo.GitOk({"commit", "-q", "-m", "base"});
}

// The worktree at `generation`: lockfiles bumped, code edited.
void Bump(const LifecycleRepo& repo, int generation) {
  repo.Write("package-lock.json", NpmLockfile(9000, generation));
  repo.Write("Cargo.lock", CargoLockfile(8000, generation));
  repo.Write("yarn.lock", Prose(200, generation, 9));
  repo.Write("web/bundle.js", Prose(3000, generation, 4 + generation));
  repo.Write("src/lib.rs",
             "pub fn answer() -> u32 {\n    4" + std::to_string(generation + 1) + "\n}\n");
  repo.Write("docs/guide.md", Prose(2000, generation, 50 - generation));
}

std::vector<std::string> Strings(const Json& array) {
  std::vector<std::string> out;
  for (const Json& item : array) out.push_back(item.get<std::string>());
  return out;
}

// export-context <args> (raw) and the same with --json, both exit 0.
struct Export {
  std::string raw;
  Json envelope;
};

Export ExportBoth(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  RunResult raw = repo.Review(args, {}, false);
  INFO(raw.err);
  REQUIRE(raw.exit_code == 0);
  RunResult json = repo.Review(args);
  INFO(json.err);
  REQUIRE(json.exit_code == 0);
  return {raw.out, json.Json()};
}

std::vector<std::string> With(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Every part of the full view of `args` (an export-context command without view flags): git's diff
// of its paths, concatenating to `whole`; returns the number of parts.
size_t CheckFullParts(const LifecycleRepo& repo, const std::vector<std::string>& args,
                      const std::string& base, const std::string& candidate,
                      const std::string& whole) {
  std::string joined;
  size_t parts = 0;
  for (size_t k = 1; parts == 0 || k <= parts; ++k) {
    const Export part =
        ExportBoth(repo, With(args, {"--view", "full", "--max-bytes", std::to_string(kPart),
                                     "--part", std::to_string(k)}));
    const Json& e = part.envelope;
    parts = e["parts"];
    CHECK(e["view"] == "full");
    CHECK(e["part"] == k);
    CHECK(e["part_max_bytes"] == kPart);
    CHECK(e["summarised_paths"] == Json::array());
    const std::vector<std::string> paths = Strings(e["part_paths"]);
    REQUIRE_FALSE(paths.empty());
    CHECK(part.raw == PinnedDiff(repo.common_dir(), base, candidate, paths));
    CHECK(e["candidate_diff"]["byte_size"] == part.raw.size());
    CHECK((part.raw.size() <= static_cast<size_t>(kPart) || paths.size() == 1));
    joined += part.raw;
  }
  CHECK(joined == whole);
  return parts;
}

// The review view of `args` in one part: git's sections and summaries, with the summarised paths
// exactly `generated`.
void CheckReview(const LifecycleRepo& repo, const std::vector<std::string>& args,
                 const std::string& base, const std::string& candidate,
                 const std::set<std::string>& generated) {
  const Export review =
      ExportBoth(repo, With(args, {"--view", "review", "--max-bytes", std::to_string(kPart)}));
  const Json& e = review.envelope;
  CHECK(e["view"] == "review");
  CHECK(e["part"] == 1);
  CHECK(e["parts"] == 1);
  const std::vector<std::string> paths = Strings(e["part_paths"]);
  const std::vector<std::string> summarised = Strings(e["summarised_paths"]);
  CHECK(std::set<std::string>(summarised.begin(), summarised.end()) == generated);
  CHECK(review.raw == ReviewViewOracle(repo.common_dir(), base, candidate, paths, generated));
  CHECK(review.raw.size() < static_cast<size_t>(kPart));
  // Without --max-bytes: the same single part, no part size.
  const Export whole = ExportBoth(repo, With(args, {"--view", "review"}));
  CHECK(whole.raw == review.raw);
  CHECK(whole.envelope["part_max_bytes"].is_null());
}

TEST_CASE("export-context views and parts of a lockfile bump are git's bytes", "[view]") {
  LifecycleRepo repo;
  CommitBase(repo);
  Bump(repo, 1);
  repo.Write("src/new.rs", "pub fn more() {}\n");
  RunResult started = repo.Review({"start", "--untracked", "src/new.rs"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const std::vector<std::string> args = {"export-context", "--lineage", lineage};

  const Export plain = ExportBoth(repo, args);
  const std::string base = plain.envelope["snapshot"]["base_tree"];
  const std::string candidate = plain.envelope["snapshot"]["candidate_tree"];
  REQUIRE(plain.raw == PinnedDiff(repo.common_dir(), base, candidate, {}));
  REQUIRE(plain.raw.size() > 2 * static_cast<size_t>(kPart));
  // Old invocations, and --view full alone, print what they always did: no view members.
  CHECK_FALSE(plain.envelope.contains("view"));
  const Export full = ExportBoth(repo, With(args, {"--view", "full"}));
  CHECK(full.raw == plain.raw);
  CHECK(full.envelope == plain.envelope);

  const size_t parts = CheckFullParts(repo, args, base, candidate, plain.raw);
  CHECK(parts >= 3);
  CheckReview(repo, args, base, candidate, {"Cargo.lock", "package-lock.json", "web/bundle.js"});

  // A part out of range, --part without --max-bytes, a bad view or size: usage, nothing written.
  const std::string part_past = std::to_string(parts + 1);
  repo.ExpectRefused(With(args, {"--max-bytes", std::to_string(kPart), "--part", part_past}),
                     "usage", 2);
  repo.ExpectRefused(With(args, {"--part", "1"}), "usage", 2);
  repo.ExpectRefused(With(args, {"--view", "summary"}), "usage", 2);
  repo.ExpectRefused(With(args, {"--max-bytes", "0"}), "usage", 2);
  repo.ExpectRefused(With(args, {"--max-bytes", "4194305"}), "usage", 2);
  repo.ExpectRefused(With(args, {"--view", "review", "--engine", "git"}), "usage", 2);

  // A part envelope is no approval context: verify --envelope refuses it.
  TempDir tmp;
  const std::string file = tmp.path() + "/part.json";
  RunResult part = repo.Review(With(args, {"--view", "review", "--output", file}));
  REQUIRE(part.exit_code == 0);
  RunResult verify = repo.Review({"verify", "--envelope", file});
  CHECK(verify.exit_code == 2);
  CHECK(verify.Json()["error"]["code"] == "usage");
  CHECK(verify.Json()["error"]["details"]["reason"] == "part_envelope");
}

TEST_CASE("export-context review view refuses a hand-written entry above the part size", "[view]") {
  LifecycleRepo repo;
  CommitBase(repo);
  Bump(repo, 1);
  repo.Write("docs/handbook.md", Prose(20000, 0, 1));
  RunResult started = repo.Review({"start", "--untracked", "docs/handbook.md"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const std::vector<std::string> args = {"export-context", "--lineage", lineage};
  const Json envelope = repo.ReviewOk(args);
  const std::string base = envelope["snapshot"]["base_tree"];
  const std::string candidate = envelope["snapshot"]["candidate_tree"];
  const std::string handbook = PinnedDiff(repo.common_dir(), base, candidate, {"docs/handbook.md"});
  REQUIRE(handbook.size() > static_cast<size_t>(kPart));

  TempDir tmp;
  const std::string out = tmp.path() + "/view.patch";
  const std::vector<std::string> review =
      With(args, {"--view", "review", "--max-bytes", std::to_string(kPart), "--output", out});
  repo.ExpectRefused(review, "budget_exceeded", 9);
  const Json error = repo.Review(review).Json()["error"];
  CHECK(error["details"]["path"] == "docs/handbook.md");
  CHECK(error["details"]["byte_size"] == std::to_string(handbook.size()));
  CHECK(error["details"]["max_bytes"] == std::to_string(kPart));
  CHECK_FALSE(Exists(out));

  // The full view carries it as a part of its own.
  CheckFullParts(repo, args, base, candidate, PinnedDiff(repo.common_dir(), base, candidate, {}));
}

TEST_CASE("export-context since-round views and parts are git's bytes of the interdiff", "[view]") {
  LifecycleRepo repo;
  CommitBase(repo);
  Bump(repo, 1);
  RunResult started = repo.Review({"start"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const Json round1 = repo.ReviewOk({"export-context", "--lineage", lineage});
  REQUIRE(repo.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                       "ana", "--role", "reviewer", "--body", "bump again"})
              .exit_code == 0);
  Bump(repo, 2);
  RunResult revised = repo.Review({"revise", "--lineage", lineage});
  INFO(revised.out << revised.err);
  REQUIRE(revised.exit_code == 0);
  const Json round2 = repo.ReviewOk({"export-context", "--lineage", lineage});
  const std::string from = round1["snapshot"]["candidate_tree"];
  const std::string to = round2["snapshot"]["candidate_tree"];
  const std::vector<std::string> args = {"export-context", "--lineage", lineage, "--since-round",
                                         "1"};
  const Export plain = ExportBoth(repo, args);
  REQUIRE(plain.raw == PinnedDiff(repo.common_dir(), from, to, {}));
  CHECK_FALSE(plain.envelope.contains("view"));
  CHECK(CheckFullParts(repo, args, from, to, plain.raw) >= 2);
  CheckReview(repo, args, from, to, {"Cargo.lock", "package-lock.json", "web/bundle.js"});
  // Round 1 of the lineage, exported with --round, has the same view as when it was current.
  const std::vector<std::string> round_args = {"export-context", "--lineage", lineage, "--round",
                                               "1"};
  CheckReview(repo, round_args, round1["snapshot"]["base_tree"], from,
              {"Cargo.lock", "package-lock.json", "web/bundle.js"});
}

TEST_CASE("a lockfile bump past 4 MiB exports in views and parts and verifies whole", "[view]") {
  LifecycleRepo repo;
  repo.Write("package-lock.json", NpmLockfile(16000, 0, 2));
  repo.Write("src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n");
  repo.GitOk({"add", "-A"});
  repo.GitOk({"commit", "-q", "-m", "base"});
  repo.Write("package-lock.json", NpmLockfile(16000, 1, 2));
  repo.Write("src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
  // start on this branch still refuses a diff over 4 MiB (the refusal narrows to hand-written
  // entries with the reviewer budgets); the hook admits it as that start will.
  RunResult started = repo.Review({"start"}, {{"GENTLE_ADMIT_OVERSIZE", "1"}});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  const Json record = repo.RecordState(lineage)["current_snapshot"];
  const std::string base = record["base_tree"];
  const std::string candidate = record["candidate_tree"];
  const std::string whole = PinnedDiff(repo.common_dir(), base, candidate, {});
  REQUIRE(whole.size() > (size_t{4} << 20));
  const std::vector<std::string> args = {"export-context", "--lineage", lineage};

  // The whole diff is no single export: budget_exceeded as before, nothing written.
  repo.ExpectRefused(args, "budget_exceeded", 9);
  // The review view summarises the lockfile; the full view's parts are git's and concatenate.
  CheckReview(repo, args, base, candidate, {"package-lock.json"});
  // The full view: the lockfile is a part of its own, above the 4 MiB a single export carries,
  // so that part is refused naming it; the other part is git's; both concatenate to the diff.
  const std::vector<std::string> parted = With(args, {"--max-bytes", std::to_string(kPart)});
  RunResult first = repo.Review(With(parted, {"--part", "1"}));
  CHECK(first.exit_code == 9);
  CHECK(first.Json()["error"]["code"] == "budget_exceeded");
  CHECK(first.Json()["error"]["details"]["path"] == "package-lock.json");
  const Export second = ExportBoth(repo, With(parted, {"--part", "2"}));
  CHECK(second.envelope["parts"] == 2);
  CHECK(Strings(second.envelope["part_paths"]) == std::vector<std::string>{"src/lib.rs"});
  CHECK(PinnedDiff(repo.common_dir(), base, candidate, {"package-lock.json"}) + second.raw ==
        whole);

  // verify and attest bind the whole diff: its sha256 and size.
  REQUIRE(repo.Review({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                       "--role", "reviewer", "--body", "lockfile bump"})
              .exit_code == 0);
  const Json verified = repo.ReviewOk({"verify", "--lineage", lineage});
  CHECK(verified["byte_size"] == whole.size());
  const Json attested = repo.ReviewOk({"attest", "--lineage", lineage});
  CHECK(attested.dump().find(store::Sha256Hex(whole)) != std::string::npos);
}

}  // namespace
}  // namespace gentle::testing
