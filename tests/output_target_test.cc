// --output FILE (cli/output_file.h; docs/commands.md, "Output files") of every verb that has it:
// export-context, attest, show --html and context import. Each target kind is tried with each
// verb: a FIFO, a symbolic link to a regular file, to /dev/null and to nothing, a directory and the
// character device /dev/null itself are refused with `usage` naming what is there, and stay exactly
// as they were; a new path is created 0644, and an existing regular file gets the bytes the verb
// prints on stdout and keeps its mode. No temporary file is left beside the target.
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

constexpr int kTimeoutMs = 60000;  // a command blocked on a FIFO fails instead of hanging

constexpr const char* kPrView =
    R"({"title":"t","body":"b","author":{"login":"o"},"state":"OPEN","baseRefName":"main",)"
    R"("headRefName":"f","headRefOid":"abc"})";

// The four verbs, each as the arguments before `--output FILE`, run in one repository with an
// approved lineage.
class Verbs {
 public:
  Verbs() : lineage_(repo_.StartApproved().lineage) {
    WriteFile(inputs_.path() + "/view.json", kPrView);
  }

  std::vector<std::vector<std::string>> All() const {
    return {{"export-context", "--lineage", lineage_},
            {"attest", "--lineage", lineage_},
            {"show", "--lineage", lineage_, "--html"},
            {"context", "import", "--forge", "github", "--pr-view", inputs_.path() + "/view.json"}};
  }

  // `args` [--output FILE], in the repository (human output: show --html takes no --json).
  RunResult Run(const std::vector<std::string>& args, const std::string& output = "") const {
    std::vector<std::string> full = repo_.ReviewArgs(args, false);
    if (!output.empty()) full.insert(full.end(), {"--output", output});
    return GentleAi(full, repo_.root(), {}, {}, kTimeoutMs);
  }

 private:
  LifecycleRepo repo_;
  std::string lineage_;
  TempDir inputs_;
};

struct Entry {
  bool exists = false;
  mode_t mode = 0;
  dev_t rdev = 0;
  ino_t ino = 0;
  std::string link;  // a symlink's target text
};

Entry Look(const std::string& path) {
  Entry e;
  struct stat st;
  if (lstat(path.c_str(), &st) != 0) return e;
  e.exists = true;
  e.mode = st.st_mode;
  e.rdev = st.st_rdev;
  e.ino = st.st_ino;
  if (S_ISLNK(st.st_mode)) e.link = fs::read_symlink(path).string();
  return e;
}

bool Same(const Entry& a, const Entry& b) {
  return a.exists == b.exists && a.mode == b.mode && a.rdev == b.rdev && a.ino == b.ino &&
         a.link == b.link;
}

// The names in `dir` (no temporary file may be left among them).
std::vector<std::string> Names(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Every verb with `--output target` is refused: exit 2, `usage` with the message naming `what` on
// stderr, nothing on stdout, and `target` (and what it points to) exactly as before.
void ExpectRefusedEverywhere(const std::string& target, const std::string& what,
                             const std::vector<std::string>& also_unchanged = {}) {
  Verbs verbs;
  for (const auto& args : verbs.All()) {
    INFO(args[0] << " --output " << target);
    std::vector<Entry> before = {Look(target)};
    for (const std::string& path : also_unchanged) before.push_back(Look(path));
    const std::vector<std::string> names = Names(fs::path(target).parent_path().string());
    RunResult run = verbs.Run(args, target);
    INFO("stdout: " << run.out << "\nstderr: " << run.err);
    CHECK_FALSE(run.timed_out);
    CHECK(run.exit_code == 2);
    CHECK(run.out.empty());
    CHECK(run.err == "gentle-ai: usage: --output " + target + " is " + what +
                         ": --output writes only to a regular file or a new path; nothing "
                         "written\n");
    CHECK(Same(Look(target), before[0]));
    for (size_t i = 0; i < also_unchanged.size(); ++i) {
      CHECK(Same(Look(also_unchanged[i]), before[i + 1]));
    }
    CHECK(Names(fs::path(target).parent_path().string()) == names);
  }
}

TEST_CASE("output: a FIFO at --output is refused and never opened") {
  TempDir dir;
  const std::string fifo = dir.path() + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0644) == 0);
  ExpectRefusedEverywhere(fifo, "a FIFO");
  CHECK(S_ISFIFO(Look(fifo).mode));
}

TEST_CASE("output: a symbolic link to a regular file is refused - link and file unchanged") {
  TempDir dir;
  const std::string file = dir.path() + "/real.txt";
  WriteFile(file, "keep me\n");
  const std::string link = dir.path() + "/link";
  fs::create_symlink(file, link);
  ExpectRefusedEverywhere(link, "a symbolic link", {file});
  CHECK(fs::is_symlink(link));
  CHECK(ReadFile(file) == "keep me\n");
}

TEST_CASE("output: a symbolic link to /dev/null is refused - /dev/null stays a character device") {
  TempDir dir;
  const std::string link = dir.path() + "/null";
  fs::create_symlink("/dev/null", link);
  ExpectRefusedEverywhere(link, "a symbolic link", {"/dev/null"});
  CHECK(fs::is_symlink(link));
  CHECK(S_ISCHR(Look("/dev/null").mode));
}

TEST_CASE("output: a dangling symbolic link is refused - nothing created where it points") {
  TempDir dir;
  const std::string link = dir.path() + "/dangling";
  fs::create_symlink(dir.path() + "/nowhere", link);
  ExpectRefusedEverywhere(link, "a symbolic link");
  CHECK(fs::is_symlink(link));
  CHECK_FALSE(Exists(dir.path() + "/nowhere"));
}

TEST_CASE("output: a directory at --output is refused and left empty") {
  TempDir dir;
  const std::string sub = dir.path() + "/sub";
  fs::create_directory(sub);
  ExpectRefusedEverywhere(sub, "a directory");
  CHECK(fs::is_directory(sub));
  CHECK(Names(sub).empty());
}

TEST_CASE("output: the character device /dev/null at --output is refused and stays one") {
  const Entry before = Look("/dev/null");
  REQUIRE(S_ISCHR(before.mode));
  ExpectRefusedEverywhere("/dev/null", "a character device");
  const Entry after = Look("/dev/null");
  CHECK(S_ISCHR(after.mode));
  CHECK(after.rdev == makedev(1, 3));
}

TEST_CASE("output: a new path is created 0644 with the bytes stdout would carry") {
  Verbs verbs;
  const mode_t mask = umask(022);
  umask(mask);
  for (const auto& args : verbs.All()) {
    INFO(args[0]);
    TempDir dir;
    const std::string path = dir.path() + "/out";
    RunResult printed = verbs.Run(args);
    REQUIRE(printed.exit_code == 0);
    RunResult written = verbs.Run(args, path);
    INFO(written.err);
    CHECK(written.exit_code == 0);
    CHECK(written.out.empty());
    CHECK(ReadFile(path) == printed.out);
    CHECK((Look(path).mode & 07777) == 0644);
    CHECK(S_ISREG(Look(path).mode));
    CHECK(Names(dir.path()) == std::vector<std::string>{"out"});
  }
}

TEST_CASE("output: an existing regular file is replaced whole and keeps its mode") {
  Verbs verbs;
  for (const auto& args : verbs.All()) {
    INFO(args[0]);
    TempDir dir;
    const std::string path = dir.path() + "/out";
    WriteFile(path, "old bytes, longer than nothing\n");
    REQUIRE(chmod(path.c_str(), 0600) == 0);
    RunResult printed = verbs.Run(args);
    REQUIRE(printed.exit_code == 0);
    RunResult written = verbs.Run(args, path);
    INFO(written.err);
    CHECK(written.exit_code == 0);
    CHECK(written.out.empty());
    CHECK(ReadFile(path) == printed.out);
    CHECK((Look(path).mode & 07777) == 0600);
    CHECK(S_ISREG(Look(path).mode));
    CHECK(Names(dir.path()) == std::vector<std::string>{"out"});
  }
}

}  // namespace
}  // namespace gentle::testing
