// FuzzCliArguments and CliArgv: see fuzz/entries.h.
#include <vector>

#include "cli/app.h"
#include "fuzz/cli_scratch.h"
#include "fuzz/entries.h"

namespace gentle::fuzz {
namespace {

constexpr size_t kMaxTokens = 24;

bool StartsWith(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::vector<std::string> CliArgv(std::string_view data, const CliScratch& scratch) {
  std::vector<std::string> tokens;
  size_t start = 0;
  for (size_t i = 0; i <= data.size() && tokens.size() < kMaxTokens; ++i) {
    if (i == data.size() || data[i] == '\n' || data[i] == '\0') {
      if (i < data.size() || i > start) tokens.emplace_back(data.substr(start, i - start));
      start = i + 1;
    }
  }
  for (std::string& t : tokens) {
    if (t == "--cwd" || StartsWith(t, "--cwd=")) {
      t = "--cwd=" + scratch.repo;
    } else if (t == "--output" || StartsWith(t, "--output=")) {
      t = "--output=" + scratch.dir + "/export.out";
    } else if (StartsWith(t, "/")) {
      t = scratch.dir + "/rooted" + t;
    } else if (t == "@lineage") {
      t = scratch.lineage;
    } else if (t == "@envelope") {
      t = scratch.envelope;
    }
  }
  return tokens;
}

std::string FuzzCliArguments(std::string_view data) {
  const CliScratch& scratch = GetCliScratch();
  std::vector<std::string> args = CliArgv(data, scratch);
  args.insert(args.begin(), "gentle-ai");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int exit_code = cli::Run(static_cast<int>(args.size()), argv.data());
  if (exit_code < 0 || exit_code > 12) {
    return "undocumented exit code " + std::to_string(exit_code);
  }
  return "";
}

}  // namespace gentle::fuzz
