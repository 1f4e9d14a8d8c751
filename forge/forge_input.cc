#include "forge/forge_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "forge/forge_json.h"
#include "forge/review_context.h"

namespace gentle::forge {
namespace {

// `unread`: refused from its size alone (a regular file), not after reading up to the limit.
Status TooLarge(const Source& source, bool unread) {
  return Status(Code::kBudgetExceeded, source.label + " (" + source.file + "): larger than " +
                                           std::to_string(kMaxForgeInputBytes) +
                                           " bytes (64 MiB), " +
                                           (unread ? "refused unread" : "refused"))
      .WithDetail(DetailKey::kInput, source.label)
      .WithDetail(DetailKey::kFile, source.file)
      .WithDetail(DetailKey::kMaxBytes, std::to_string(kMaxForgeInputBytes));
}

Status CannotRead(const Source& source, int error) {
  return Status(Code::kUsage,
                source.label + " (" + source.file + "): cannot read: " + std::strerror(error))
      .WithDetail(DetailKey::kInput, source.label)
      .WithDetail(DetailKey::kFile, source.file);
}

}  // namespace

Result<std::string> ReadForgeInput(const Source& source) {
  const bool is_stdin = source.file == "-";
  const int fd = is_stdin ? STDIN_FILENO : ::open(source.file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return CannotRead(source, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    if (!is_stdin) ::close(fd);
    return CannotRead(source, error);
  }
  if (S_ISDIR(st.st_mode)) {
    if (!is_stdin) ::close(fd);
    return CannotRead(source, EISDIR);
  }
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > kMaxForgeInputBytes) {
    if (!is_stdin) ::close(fd);
    return TooLarge(source, true);
  }
  std::string text;
  char buffer[65536];
  Status status = Status::Ok();
  while (text.size() <= kMaxForgeInputBytes) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = CannotRead(source, errno);
      break;
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  if (!is_stdin) ::close(fd);
  if (!status.ok()) return status;
  if (text.size() > kMaxForgeInputBytes) return TooLarge(source, false);
  return text;
}

Result<Json> ReadForgeJson(const Source& source) {
  GENTLE_ASSIGN_OR_RETURN(std::string text, ReadForgeInput(source));
  return ParseForgeJson(source, text);
}

}  // namespace gentle::forge
