// Corpus replay: every file of fixtures/fuzz/<target>/ (the seeds plus every input a fuzzing run
// found interesting or crashing) runs through the same entry function as the libFuzzer target
// (fuzz/entries.h), without libFuzzer, so CI keeps every past finding fixed.
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <iostream>

#include "fuzz/cli_scratch.h"
#include "fuzz/entries.h"
#include "tests/support/files.h"

namespace gentle::testing {
namespace {

void Replay(const std::string& target, const std::function<std::string(std::string_view)>& entry) {
  const std::filesystem::path dir = std::filesystem::path(GENTLE_FIXTURES_DIR) / "fuzz" / target;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  REQUIRE(files.size() >= 3);
  for (const auto& file : files) {
    INFO("corpus file: " << file.string());
    CHECK(entry(ReadFile(file.string())) == "");
  }
}

// Sends stdout and stderr to /dev/null while the CLI runs, so the replay log stays readable.
class Silenced {
 public:
  Silenced() {
    Flush();
    saved_out_ = dup(1);
    saved_err_ = dup(2);
    const int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
    dup2(null, 1);
    dup2(null, 2);
    close(null);
  }
  ~Silenced() {
    Flush();
    dup2(saved_out_, 1);
    dup2(saved_err_, 2);
    close(saved_out_);
    close(saved_err_);
  }
  Silenced(const Silenced&) = delete;
  Silenced& operator=(const Silenced&) = delete;

 private:
  static void Flush() {
    std::cout.flush();
    std::cerr.flush();
    std::fflush(stdout);
    std::fflush(stderr);
  }
  int saved_out_;
  int saved_err_;
};

}  // namespace

TEST_CASE("fuzz replay: record codec") { Replay("record_codec", fuzz::FuzzRecordCodec); }

TEST_CASE("fuzz replay: context envelope reader") {
  Replay("envelope_reader", fuzz::FuzzEnvelopeReader);
}

TEST_CASE("fuzz replay: lineage id validation") { Replay("lineage_id", fuzz::FuzzLineageId); }

TEST_CASE("fuzz replay: hint line parser") { Replay("hint_line", fuzz::FuzzHintLine); }

TEST_CASE("fuzz replay: worktree index reader") {
  Replay("worktree_index", fuzz::FuzzWorktreeIndex);
}

TEST_CASE("fuzz replay: posted comment parser") {
  Replay("posted_comment", fuzz::FuzzPostedComment);
}

TEST_CASE("fuzz replay: CLI argument surface") {
  Replay("cli_arguments", [](std::string_view data) {
    Silenced quiet;
    return fuzz::FuzzCliArguments(data);
  });
}

TEST_CASE("the CLI fuzz target confines every path to its scratch directory") {
  const fuzz::CliScratch scratch{"/s", "/s/repo", "review-1", "/s/envelope.json"};
  auto argv = fuzz::CliArgv(
      std::string_view("review\nstart\n--cwd\n/\n--output=/etc/x\n--cwd=..\n\0@lineage\n@envelope",
                       65),
      scratch);
  CHECK(argv == std::vector<std::string>{"review", "start", "--cwd=/s/repo", "/s/rooted/",
                                         "--output=/s/export.out", "--cwd=/s/repo", "", "review-1",
                                         "/s/envelope.json"});
}

}  // namespace gentle::testing
