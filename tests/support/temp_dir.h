// TempDir: a fresh directory under the system temp dir, its path canonical (symlinks resolved, so
// paths built from it compare equal to the ones the store records), removed recursively when the
// TempDir is destroyed. Needs no test framework: throws std::runtime_error when it cannot be made.
#ifndef GENTLE_TESTS_SUPPORT_TEMP_DIR_H_
#define GENTLE_TESTS_SUPPORT_TEMP_DIR_H_

#include <string>

namespace gentle::testing {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_TEMP_DIR_H_
