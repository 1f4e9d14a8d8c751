// GeneratedPaths: the history file `generated-paths` of a round's opening commit (start or
// revise; docs/format.md, "The history tree"): the round's changed paths marked generated at
// start (transaction/generated_marks.h), each followed by a NUL, in bytewise order. A round with
// no generated entry has no such file, so a history is byte for byte what it was before marks
// existed unless a mark was made.
//
// Contract: Decode refuses (false) bytes that are not NUL-terminated paths in strictly increasing
// order with no empty path; a history holding such a file is corrupted.
#ifndef GENTLE_STORE_GENERATED_PATHS_H_
#define GENTLE_STORE_GENERATED_PATHS_H_

#include <string>
#include <string_view>
#include <vector>

namespace gentle::store {

std::string EncodeGeneratedPaths(const std::vector<std::string>& marked);
bool DecodeGeneratedPaths(std::string_view bytes, std::vector<std::string>* out);

}  // namespace gentle::store

#endif  // GENTLE_STORE_GENERATED_PATHS_H_
