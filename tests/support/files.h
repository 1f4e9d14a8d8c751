// File helpers for tests: whole-file reads and writes, existence without following symlinks,
// recursive copies, a hash of a directory tree to prove a command changed nothing, and CRLF text.
//
// Needs no test framework. WriteFile creates missing parent directories and throws
// std::runtime_error (or std::filesystem::filesystem_error) when it cannot write every byte;
// ReadFile returns "" for a file that cannot be opened.
#ifndef GENTLE_TESTS_SUPPORT_FILES_H_
#define GENTLE_TESTS_SUPPORT_FILES_H_

#include <map>
#include <string>
#include <string_view>

namespace gentle::testing {

std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, std::string_view bytes);

// True when `path` names anything, a dangling symlink included (lstat).
bool Exists(const std::string& path);

// A copy of `from` (recursively, symlinks copied as symlinks) at `to`.
void CopyTree(const std::string& from, const std::string& to);

// path -> sha256 of content (symlinks: of their target text; directories listed as entries), for
// every entry below `root`. Equal maps mean no byte, name or link changed.
std::map<std::string, std::string> HashTree(const std::string& root);

// `text` with every LF written as CRLF, as Windows tools and forge APIs hand text back.
std::string WithCrlf(std::string_view text);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_FILES_H_
