#include "tests/support/view_oracle.h"

#include <catch2/catch.hpp>

#include "export/git_flags.h"
#include "tests/support/git_env.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

uint64_t BlobSize(const std::string& git_dir, const std::string& tree, const std::string& path) {
  RunResult r =
      Run({"git", "--git-dir=" + git_dir, "cat-file", "-s", tree + ":" + path}, "", OracleEnv());
  if (r.exit_code != 0) return 0;  // absent on that side
  return std::stoull(Trim(r.out));
}

}  // namespace

std::string PinnedDiff(const std::string& git_dir, const std::string& base,
                       const std::string& candidate, const std::vector<std::string>& paths) {
  std::vector<std::string> argv = exporter::OracleArgv(base, candidate);
  argv.insert(argv.begin() + 1, "--git-dir=" + git_dir);
  argv.insert(argv.end(), paths.begin(), paths.end());
  RunResult r = Run(argv, "", OracleEnv());
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return r.out;
}

std::string NumstatSummaryLine(const std::string& git_dir, const std::string& base,
                               const std::string& candidate, const std::string& path) {
  // --numstat alone: the pinned --binary would add the patch.
  std::vector<std::string> argv = {"git", "--git-dir=" + git_dir};
  argv.insert(argv.end(), exporter::PinnedConfigArgs().begin(), exporter::PinnedConfigArgs().end());
  for (const std::string arg : {"diff", "--numstat", "--no-renames", "--no-ext-diff",
                                "--no-textconv", "--diff-algorithm=myers"}) {
    argv.push_back(arg);
  }
  argv.insert(argv.end(), {base, candidate, "--", path});
  RunResult r = Run(argv, "", OracleEnv());
  REQUIRE(r.exit_code == 0);
  const std::string& line = r.out;
  const size_t tab = line.find('\t');
  const size_t tab2 = line.find('\t', tab + 1);
  REQUIRE(tab2 != std::string::npos);
  REQUIRE(line.substr(tab2 + 1) == path + "\n");
  return "summary: added=" + line.substr(0, tab) +
         " deleted=" + line.substr(tab + 1, tab2 - tab - 1) +
         " old_size=" + std::to_string(BlobSize(git_dir, base, path)) +
         " new_size=" + std::to_string(BlobSize(git_dir, candidate, path)) + "\n";
}

std::string SectionHeaderLines(const std::string& section) {
  size_t at = 0;
  while (at < section.size()) {
    const size_t end = section.find('\n', at);
    const std::string line = section.substr(at, end - at);
    if (line.rfind("--- ", 0) == 0 || line.rfind("Binary files", 0) == 0 ||
        line.rfind("GIT binary patch", 0) == 0) {
      break;
    }
    at = end + 1;
  }
  return section.substr(0, at);
}

std::string ReviewViewOracle(const std::string& git_dir, const std::string& base,
                             const std::string& candidate, const std::vector<std::string>& paths,
                             const std::set<std::string>& summarised) {
  std::string out;
  for (const std::string& path : paths) {
    const std::string section = PinnedDiff(git_dir, base, candidate, {path});
    if (summarised.count(path) == 0) {
      out += section;
    } else {
      out += SectionHeaderLines(section) + NumstatSummaryLine(git_dir, base, candidate, path);
    }
  }
  return out;
}

std::string Prose(size_t lines, int generation, size_t edit_every) {
  std::string out;
  for (size_t i = 0; i < lines; ++i) {
    out += "line " + std::to_string(i) + ": the reviewer reads this sentence";
    if (generation > 0 && i % edit_every == 0) out += " again, reworded";
    out += "\n";
  }
  return out;
}

}  // namespace gentle::testing
