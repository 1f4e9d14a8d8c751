// ScratchDir: a private temporary directory under the system's temp dir ($TMPDIR, else /tmp),
// removed with everything in it when the object goes. For files a subprocess needs for one run
// (the oracle runner's bare GIT_DIR skeleton; the key and signature files ssh-keygen reads); it
// knows nothing of the review store and cannot reach it: it only creates and removes paths below
// the directory it made.
//
// Create() makes "<temp dir>/<prefix>XXXXXX" (mkdtemp, mode 0700); nullopt when that fails.
// MakeDirectory and WriteFile take a name relative to it (no "..": callers pass fixed names) and
// answer false on failure. Files are written plainly (no fsync): nothing survives the run.
#ifndef GENTLE_STORE_SCRATCH_DIR_H_
#define GENTLE_STORE_SCRATCH_DIR_H_

#include <optional>
#include <string>
#include <string_view>

namespace gentle::store {

class ScratchDir {
 public:
  static std::optional<ScratchDir> Create(std::string_view prefix);
  ScratchDir(ScratchDir&& other) noexcept;
  ScratchDir& operator=(ScratchDir&&) = delete;
  ScratchDir(const ScratchDir&) = delete;
  ~ScratchDir();

  const std::string& path() const { return path_; }
  bool MakeDirectory(std::string_view name) const;
  bool WriteFile(std::string_view name, std::string_view bytes) const;

 private:
  explicit ScratchDir(std::string path) : path_(std::move(path)) {}
  std::string path_;  // empty once moved from
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_SCRATCH_DIR_H_
