// The reviewer's view and its parts (export/view_plan.h, export/entry_summary.h; docs/commands.md,
// "Views and parts"), on a history the test writes with the git CLI: multi-megabyte lockfiles
// (package-lock.json, Cargo.lock) bumped beside small code changes, a generated file marked by a
// `linguist-generated` attribute, a lockfile whose attribute is unset, and a hand-written file
// larger than a part. The marks are the real ones (transaction/generated_marks.h). The pinned git
// CLI is the oracle: each part of the full view is `git diff <pinned flags> A B -- <its paths>`,
// the parts concatenate to the whole diff, the split is the fewest parts, every entry the review
// view does not summarise is git's section, and a summary is git's header lines followed by the
// counts `git diff --numstat` prints and the two blob sizes.
#include "export/view_plan.h"

#include <git2.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "export/entry_summary.h"
#include "export/git_flags.h"
#include "export/tree_delta.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/lockfiles.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "tests/support/view_oracle.h"
#include "transaction/generated_marks.h"

namespace gentle::testing {
namespace {

using exporter::View;

constexpr uint64_t kPart = 512 * 1024;

struct History {
  std::string repo;
  std::string git_dir;
  std::string base;       // tree A
  std::string candidate;  // tree B: lockfiles bumped, code edited
  std::string oversize;   // tree C: B plus a hand-written file larger than a part
};

std::string Tree(const std::string& repo, const std::string& rev) {
  return Trim(Git(repo, {"rev-parse", rev + "^{tree}"}));
}

History MakeHistory(const std::string& parent) {
  History h;
  h.repo = InitRepo(parent);
  h.git_dir = h.repo + "/.git";
  const std::string& r = h.repo;
  REQUIRE(mkdir((r + "/src").c_str(), 0755) == 0);
  REQUIRE(mkdir((r + "/web").c_str(), 0755) == 0);
  REQUIRE(mkdir((r + "/docs").c_str(), 0755) == 0);
  WriteFile(r + "/.gitattributes",
            "web/bundle.js linguist-generated\nyarn.lock -linguist-generated\n");
  WriteFile(r + "/package-lock.json", NpmLockfile(9000, 0));
  WriteFile(r + "/Cargo.lock", CargoLockfile(8000, 0));
  WriteFile(r + "/yarn.lock", Prose(200, 0, 9));
  WriteFile(r + "/web/bundle.js", Prose(3000, 0, 4));
  WriteFile(r + "/src/lib.rs", "pub fn answer() -> u32 {\n    41\n}\n");
  WriteFile(r + "/docs/guide.md", Prose(2000, 0, 50));
  Git(r, {"add", "-A"});
  Git(r, {"commit", "-q", "-m", "A"});
  h.base = Tree(r, "HEAD");

  WriteFile(r + "/package-lock.json", NpmLockfile(9000, 1));
  WriteFile(r + "/Cargo.lock", CargoLockfile(8000, 1));
  WriteFile(r + "/yarn.lock", Prose(200, 1, 9));
  WriteFile(r + "/web/bundle.js", Prose(3000, 1, 4));
  WriteFile(r + "/src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
  WriteFile(r + "/src/new.rs", "pub fn more() {}\n");
  WriteFile(r + "/a.txt", "alpha, edited\n");
  WriteFile(r + "/docs/guide.md", Prose(2000, 1, 50));
  Git(r, {"add", "-A"});
  Git(r, {"commit", "-q", "-m", "B"});
  h.candidate = Tree(r, "HEAD");

  WriteFile(r + "/docs/handbook.md", Prose(20000, 0, 1));
  Git(r, {"add", "-A"});
  Git(r, {"commit", "-q", "-m", "C"});
  h.oversize = Tree(r, "HEAD");
  return h;
}

std::string Oracle(const History& h, const std::string& base, const std::string& candidate,
                   const std::vector<std::string>& paths) {
  return PinnedDiff(h.git_dir, base, candidate, paths);
}

std::vector<exporter::TreeChange> Changes(git_repository* repo, const std::string& base,
                                          const std::string& candidate) {
  auto a = store::git::ParseOidHex(base);
  auto b = store::git::ParseOidHex(candidate);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  auto changes = exporter::DiffTrees(repo, *a, *b);
  REQUIRE(changes.ok());
  return *changes;
}

std::vector<std::string> Marks(git_repository* repo, const std::string& candidate,
                               const std::vector<exporter::TreeChange>& changes) {
  std::vector<std::string> paths;
  for (const auto& c : changes) paths.push_back(c.path);
  auto odb = store::git::RepositoryOdb(repo);
  REQUIRE(odb.ok());
  auto marks = transaction::MarkGenerated(odb->get(), candidate, paths);
  REQUIRE(marks.ok());
  return *marks;
}

std::string Part(git_repository* repo, const std::vector<exporter::TreeChange>& changes,
                 const exporter::ViewPlan& plan, size_t index) {
  std::string out;
  Status status = exporter::AppendViewPart(repo, changes, plan, index, &out);
  INFO(status.message());
  REQUIRE(status.ok());
  return out;
}

std::vector<std::string> PartPaths(const exporter::ViewPlan& plan, size_t index) {
  std::vector<std::string> paths;
  const auto& part = plan.parts[index];
  for (size_t i = part.first; i < part.first + part.count; ++i) {
    paths.push_back(plan.entries[i].path);
  }
  return paths;
}

// The fewest parts: every part fits (or is one entry), and no part could take the next entry.
void RequireFewestParts(const exporter::ViewPlan& plan) {
  size_t next = 0;
  for (size_t k = 0; k < plan.parts.size(); ++k) {
    const auto& part = plan.parts[k];
    REQUIRE(part.first == next);
    REQUIRE(part.count > 0);
    uint64_t sum = 0;
    for (size_t i = part.first; i < part.first + part.count; ++i) sum += plan.entries[i].bytes;
    REQUIRE(part.bytes == sum);
    REQUIRE((part.bytes <= plan.max_bytes || part.count == 1));
    if (k + 1 < plan.parts.size()) {
      REQUIRE(part.bytes + plan.entries[part.first + part.count].bytes > plan.max_bytes);
    }
    next = part.first + part.count;
  }
  REQUIRE(next == plan.entries.size());
}

TEST_CASE("view plan full view parts are git's diff of their paths and the fewest", "[view]") {
  TempDir tmp;
  const History h = MakeHistory(tmp.path());
  RepoHandle repo(h.git_dir);
  const auto changes = Changes(repo.get(), h.base, h.candidate);
  const std::string whole = Oracle(h, h.base, h.candidate, {});
  REQUIRE(whole.size() > 2 * kPart);

  const auto marks = Marks(repo.get(), h.candidate, changes);
  auto plan = exporter::PlanView(repo.get(), changes, marks, View::kFull, kPart);
  REQUIRE(plan.ok());
  REQUIRE(plan->entries.size() == changes.size());
  REQUIRE(plan->parts.size() >= 3);
  RequireFewestParts(*plan);
  std::string joined;
  for (size_t k = 0; k < plan->parts.size(); ++k) {
    const std::string part = Part(repo.get(), changes, *plan, k);
    const std::string expected = Oracle(h, h.base, h.candidate, PartPaths(*plan, k));
    INFO("part " << k + 1 << ": " << FirstDifference(expected, part));
    REQUIRE(part == expected);
    REQUIRE(part.size() == plan->parts[k].bytes);
    joined += part;
  }
  REQUIRE(joined == whole);
  for (const auto& entry : plan->entries) REQUIRE_FALSE(entry.summarised);

  // No limit: one part, the whole diff.
  auto one = exporter::PlanView(repo.get(), changes, marks, View::kFull, exporter::kNoPartLimit);
  REQUIRE(one.ok());
  REQUIRE(one->parts.size() == 1);
  REQUIRE(Part(repo.get(), changes, *one, 0) == whole);

  // A limit below every entry: each entry is a part of its own, still git's bytes.
  auto tiny = exporter::PlanView(repo.get(), changes, marks, View::kFull, 1);
  REQUIRE(tiny.ok());
  REQUIRE(tiny->parts.size() == changes.size());
  RequireFewestParts(*tiny);
}

TEST_CASE("view plan review view summarises generated entries with git's numstat", "[view]") {
  TempDir tmp;
  const History h = MakeHistory(tmp.path());
  RepoHandle repo(h.git_dir);
  const auto changes = Changes(repo.get(), h.base, h.candidate);
  const auto marks = Marks(repo.get(), h.candidate, changes);
  // The default list marks both lockfiles, the attribute marks the bundle, and the unset
  // attribute keeps yarn.lock a hand-written entry.
  REQUIRE(marks == std::vector<std::string>{"Cargo.lock", "package-lock.json", "web/bundle.js"});

  auto plan = exporter::PlanView(repo.get(), changes, marks, View::kReview, kPart);
  INFO((plan.ok() ? "" : plan.status().message()));
  REQUIRE(plan.ok());
  RequireFewestParts(*plan);
  const std::set<std::string> marked(marks.begin(), marks.end());
  std::string joined;
  for (size_t k = 0; k < plan->parts.size(); ++k) joined += Part(repo.get(), changes, *plan, k);
  std::string expected_view;
  for (const auto& entry : plan->entries) {
    REQUIRE(entry.summarised == (marked.count(entry.path) > 0));
    const std::string section = Oracle(h, h.base, h.candidate, {entry.path});
    if (!entry.summarised) {
      REQUIRE(entry.bytes == section.size());
      expected_view += section;
      continue;
    }
    const std::string summary = SectionHeaderLines(section) +
                                NumstatSummaryLine(h.git_dir, h.base, h.candidate, entry.path);
    REQUIRE(entry.bytes == summary.size());
    expected_view += summary;
  }
  INFO(FirstDifference(expected_view, joined));
  REQUIRE(joined == expected_view);
  // Everything fits one part: the lockfiles are a few hundred bytes each.
  REQUIRE(plan->parts.size() == 1);
  REQUIRE(joined.size() < kPart);
}

TEST_CASE("view plan review view refuses a hand-written entry above the part size", "[view]") {
  TempDir tmp;
  const History h = MakeHistory(tmp.path());
  RepoHandle repo(h.git_dir);
  const auto changes = Changes(repo.get(), h.base, h.oversize);
  const auto marks = Marks(repo.get(), h.oversize, changes);
  const std::string handbook = Oracle(h, h.base, h.oversize, {"docs/handbook.md"});
  REQUIRE(handbook.size() > kPart);

  auto plan = exporter::PlanView(repo.get(), changes, marks, View::kReview, kPart);
  REQUIRE_FALSE(plan.ok());
  REQUIRE(plan.status().code() == Code::kBudgetExceeded);
  REQUIRE(plan.status().message() ==
          "the entry docs/handbook.md is " + std::to_string(handbook.size()) +
              " bytes, over the part size of 524288 bytes, and is not generated; nothing is "
              "truncated");
  REQUIRE(*plan.status().detail(DetailKey::kPath) == "docs/handbook.md");
  REQUIRE(*plan.status().detail(DetailKey::kByteSize) == std::to_string(handbook.size()));
  REQUIRE(*plan.status().detail(DetailKey::kByteSizeBound) == "exact");

  // The full view carries it as a part of its own, git's bytes.
  auto full = exporter::PlanView(repo.get(), changes, marks, View::kFull, kPart);
  REQUIRE(full.ok());
  RequireFewestParts(*full);
  bool alone = false;
  for (size_t k = 0; k < full->parts.size(); ++k) {
    if (PartPaths(*full, k) == std::vector<std::string>{"docs/handbook.md"}) {
      alone = true;
      REQUIRE(Part(repo.get(), changes, *full, k) == handbook);
    }
  }
  REQUIRE(alone);
}

TEST_CASE("view plan summary counts equal git numstat for binary and added entries", "[view]") {
  TempDir tmp;
  const std::string r = InitRepo(tmp.path());
  std::string binary(5000, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7);
  WriteFile(r + "/app.min.js", binary);
  WriteFile(r + "/old.map", "one\ntwo\n");
  Git(r, {"add", "-A"});
  Git(r, {"commit", "-q", "-m", "A"});
  const std::string a = Tree(r, "HEAD");
  binary[100] = 'x';
  WriteFile(r + "/app.min.js", binary);
  Git(r, {"rm", "-q", "old.map"});
  WriteFile(r + "/go.sum", "mod v1 h1:abc\nmod v1/go.mod h1:def\nno newline at end");
  Git(r, {"add", "-A"});
  Git(r, {"commit", "-q", "-m", "B"});
  const std::string b = Tree(r, "HEAD");
  History h;
  h.git_dir = r + "/.git";
  RepoHandle repo(h.git_dir);
  const auto changes = Changes(repo.get(), a, b);
  const auto marks = Marks(repo.get(), b, changes);
  REQUIRE(marks == std::vector<std::string>{"app.min.js", "go.sum", "old.map"});
  auto plan = exporter::PlanView(repo.get(), changes, marks, View::kReview, kPart);
  REQUIRE(plan.ok());
  std::string expected;
  for (const auto& entry : plan->entries) {
    REQUIRE(entry.summarised);
    expected += SectionHeaderLines(Oracle(h, a, b, {entry.path})) +
                NumstatSummaryLine(h.git_dir, a, b, entry.path);
  }
  REQUIRE(expected.find("summary: added=- deleted=- old_size=5000 new_size=5000\n") !=
          std::string::npos);
  REQUIRE(Part(repo.get(), changes, *plan, 0) == expected);
}

}  // namespace
}  // namespace gentle::testing
