// OpenSSL's direct SHA-1 functions, as store/git/object_reader.cc uses them.
#define OPENSSL_API_COMPAT 0x10100000L
#include "store/git/object_hash_stream.h"

#include <fcntl.h>
#include <openssl/sha.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <vector>

namespace gentle::store::git {

struct ObjectHashStream::State {
  SHA_CTX ctx;
  uint64_t declared = 0;
  uint64_t given = 0;
};

ObjectHashStream::ObjectHashStream() : state_(std::make_unique<State>()) {}
ObjectHashStream::~ObjectHashStream() = default;
ObjectHashStream::ObjectHashStream(ObjectHashStream&&) noexcept = default;
ObjectHashStream& ObjectHashStream::operator=(ObjectHashStream&&) noexcept = default;

void ObjectHashStream::Start(git_object_t type, uint64_t size) {
  // "<type> <size>" fits: the longest type name is 6 bytes, a 64-bit size at most 20 digits.
  char header[32];
  const int n =
      std::snprintf(header, sizeof(header), "%s %" PRIu64, git_object_type2string(type), size);
  SHA1_Init(&state_->ctx);
  SHA1_Update(&state_->ctx, header, static_cast<size_t>(n) + 1);  // with the NUL
  state_->declared = size;
  state_->given = 0;
}

void ObjectHashStream::Update(std::string_view bytes) {
  SHA1_Update(&state_->ctx, bytes.data(), bytes.size());
  state_->given += bytes.size();
}

std::optional<git_oid> ObjectHashStream::Finish() {
  git_oid id;
  static_assert(SHA_DIGEST_LENGTH == GIT_OID_RAWSZ);
  SHA1_Final(id.id, &state_->ctx);
  if (state_->given != state_->declared) return std::nullopt;
  return id;
}

Result<git_oid> HashFileAsBlob(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status(Code::kInternal, "cannot open " + path + " to hash it");
  struct Closer {
    int fd;
    ~Closer() { close(fd); }
  } closer{fd};
  struct stat st;
  if (fstat(fd, &st) != 0) return Status(Code::kInternal, "cannot stat " + path + " to hash it");
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  ObjectHashStream hash;
  hash.Start(GIT_OBJECT_BLOB, size);
  // No more than the file needs: status hashes many small files.
  std::vector<char> buffer(static_cast<size_t>(std::min<uint64_t>(size, 64 * 1024)) + 1);
  uint64_t left = size;
  while (left > 0) {
    const size_t want = left < buffer.size() ? static_cast<size_t>(left) : buffer.size();
    const ssize_t n = read(fd, buffer.data(), want);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status(Code::kInternal, "cannot read " + path + " to hash it");
    hash.Update(std::string_view(buffer.data(), static_cast<size_t>(n)));
    left -= static_cast<uint64_t>(n);
  }
  std::optional<git_oid> id = hash.Finish();
  if (!id) return Status(Code::kInternal, "cannot read " + path + " to hash it");
  return *id;
}

}  // namespace gentle::store::git
