#include "store/scratch_dir.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>
#include <utility>

namespace gentle::store {

std::optional<ScratchDir> ScratchDir::Create(std::string_view prefix) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern =
      std::string(tmp && *tmp ? tmp : "/tmp") + "/" + std::string(prefix) + "XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) return std::nullopt;
  return ScratchDir(std::move(pattern));
}

ScratchDir::ScratchDir(ScratchDir&& other) noexcept : path_(std::exchange(other.path_, "")) {}

ScratchDir::~ScratchDir() {
  if (path_.empty()) return;
  // remove_all does not follow symlinks; failures are ignored (a leftover temp dir is harmless).
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

bool ScratchDir::MakeDirectory(std::string_view name) const {
  return mkdir((path_ + "/" + std::string(name)).c_str(), 0700) == 0;
}

bool ScratchDir::WriteFile(std::string_view name, std::string_view bytes) const {
  const std::string file = path_ + "/" + std::string(name);
  const int fd = open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    done += static_cast<size_t>(n);
  }
  return close(fd) == 0 && done == bytes.size();
}

}  // namespace gentle::store
