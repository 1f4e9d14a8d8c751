// Decoders for the binary-patch tests (base85, zlib, GIT binary patch sections, delta op
// listings), used to compare the engine's binary patches against the git CLI oracle's.
#ifndef GENTLE_TESTS_SUPPORT_BINARY_PATCH_DECODE_H_
#define GENTLE_TESTS_SUPPORT_BINARY_PATCH_DECODE_H_

#include <map>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::testing {

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

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_BINARY_PATCH_DECODE_H_
