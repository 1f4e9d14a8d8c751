// Helpers for the binary-patch tests: temp dirs, running a shell command with its stdout captured
// byte for byte, a pinned git environment, and decoders (base85, zlib, GIT binary patch sections,
// delta op listings) used to compare against the git CLI oracle.
#ifndef GENTLE_TESTS_BINARY_TEST_SUPPORT_H_
#define GENTLE_TESTS_BINARY_TEST_SUPPORT_H_

#include <map>
#include <string>
#include <string_view>

#include "store/status.h"
#include "tests/test_repo.h"

namespace gentle::binary_test {

// A fresh directory under the system temp dir, removed recursively on destruction.
using ::gentle::testing::TempDir;

// Runs `command` through /bin/sh; returns its stdout exactly; *exit_code gets the exit status.
std::string RunCapture(const std::string& command, int* exit_code);

// Quotes `s` for /bin/sh.
std::string ShellQuote(std::string_view s);

// "cd DIR && <pinned env> git -c ... " ready for a git subcommand to be appended.
std::string GitIn(const std::string& dir);

void WriteFileBytes(const std::string& path, std::string_view data);

// Decodes base85 lines (length char, 5-digit groups, '\n') back to bytes.
Result<std::string> DecodeBase85Lines(std::string_view text);

Result<std::string> InflateZlib(std::string_view data);

struct BinaryHunk {
  bool is_delta = false;
  size_t declared_size = 0;  // the number after "literal"/"delta"
  std::string payload;       // inflated
};

// Parses "GIT binary patch\n" + two hunks; `rest` receives anything after them.
Result<std::pair<BinaryHunk, BinaryHunk>> ParseBinarySection(std::string_view section);

// Maps each file path of a `git diff --binary` output to its text from "GIT binary patch\n" up to
// the next "diff --git" line (or the end).
std::map<std::string, std::string> SplitBinarySections(std::string_view diff);

// One line per op of a raw delta ("copy off=.. len=.." / "insert n=..").
std::string DescribeDelta(std::string_view delta);

}  // namespace gentle::binary_test

#endif  // GENTLE_TESTS_BINARY_TEST_SUPPORT_H_
