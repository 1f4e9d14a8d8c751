#include "store/git/object_file_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <string_view>

#include "store/git/file_inflater.h"
#include "store/git/git_util.h"
#include "store/git/loose_object_guard.h"
#include "store/git/object_hash_stream.h"
#include "store/git/pack_entry.h"

namespace gentle::store::git {
namespace {

// "<type> <size>\0": the longest type name is 6 bytes, a size at most 20 digits.
constexpr size_t kMaxHeaderBytes = 32;

}  // namespace

struct ObjectFileStream::State {
  FileInflater inflater;
  git_object_t type = GIT_OBJECT_INVALID;
  uint64_t size = 0;
  uint64_t read = 0;
  // Data inflated with the header, handed out first.
  std::string carried;
  size_t carried_at = 0;
};

ObjectFileStream::ObjectFileStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
ObjectFileStream::~ObjectFileStream() = default;
ObjectFileStream::ObjectFileStream(ObjectFileStream&&) noexcept = default;
ObjectFileStream& ObjectFileStream::operator=(ObjectFileStream&&) noexcept = default;

git_object_t ObjectFileStream::type() const { return state_->type; }
uint64_t ObjectFileStream::size() const { return state_->size; }

std::optional<ObjectFileStream> ObjectFileStream::OpenLoose(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  auto state = std::make_unique<State>();
  if (!state->inflater.Start(fd, 0)) return std::nullopt;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  // The header and whatever data one input buffer's worth inflates to with it.
  unsigned char first[kMaxHeaderBytes];
  const ssize_t got = state->inflater.Inflate(first, sizeof first);
  if (got <= 0) return std::nullopt;
  const auto* end = static_cast<const unsigned char*>(std::memchr(first, '\0', got));
  if (end == nullptr) return std::nullopt;
  const std::string header(reinterpret_cast<const char*>(first), end - first);
  const size_t space = header.find(' ');
  if (space == std::string::npos || space + 1 == header.size()) return std::nullopt;
  state->type = git_object_string2type(header.substr(0, space).c_str());
  if (state->type == GIT_OBJECT_INVALID) return std::nullopt;
  uint64_t size = 0;
  for (size_t i = space + 1; i < header.size(); ++i) {
    const char c = header[i];
    if (c < '0' || c > '9' || size > (UINT64_MAX - 9) / 10) {
      return std::nullopt;
    }
    size = size * 10 + static_cast<uint64_t>(c - '0');
  }
  state->size = size;
  state->carried.assign(reinterpret_cast<const char*>(end + 1), first + got - (end + 1));
  return ObjectFileStream(std::move(state));
}

std::optional<ObjectFileStream> ObjectFileStream::OpenPacked(
    const std::vector<std::string>& object_dirs, const git_oid& id) {
  std::optional<PackEntry> entry = FindWholePackEntry(object_dirs, id);
  if (!entry) return std::nullopt;
  auto state = std::make_unique<State>();
  if (!state->inflater.Start(entry->fd, entry->data_offset)) return std::nullopt;
  state->type = entry->type;
  state->size = entry->size;
  return ObjectFileStream(std::move(state));
}

Result<size_t> ObjectFileStream::Read(char* buffer, size_t n) {
  State& s = *state_;
  const uint64_t left = s.size - s.read;
  if (n > left) n = static_cast<size_t>(left);
  size_t done = 0;
  const size_t carried = std::min(n, s.carried.size() - s.carried_at);
  std::memcpy(buffer, s.carried.data() + s.carried_at, carried);
  s.carried_at += carried;
  done += carried;
  while (done < n) {
    // zlib counts in 32 bits.
    const size_t piece = std::min<size_t>(n - done, size_t{1} << 30);
    const ssize_t got = s.inflater.Inflate(reinterpret_cast<unsigned char*>(buffer) + done, piece);
    if (got < 0) return Status(Code::kInternal, "the object's data does not inflate");
    if (got == 0) return Status(Code::kInternal, "the object's data ends before its size");
    done += static_cast<size_t>(got);
  }
  s.read += done;
  return done;
}

Status ObjectFileStream::Finish() {
  State& s = *state_;
  unsigned char extra;
  const bool more = s.carried_at < s.carried.size() || s.inflater.Inflate(&extra, 1) != 0;
  if (more || !s.inflater.ended()) {
    return Status(Code::kInternal, "the object's data does not end at its declared size");
  }
  return Status::Ok();
}

namespace {

// The blob `id` read whole from `stream` into `out`.
Status ReadWhole(ObjectFileStream& stream, const git_oid& id, std::string* out) {
  auto failed = [&](Code code, const std::string& why) {
    return Status(code, "object " + OidHex(id) + " " + why)
        .WithDetail(DetailKey::kObject, OidHex(id));
  };
  if (stream.type() != GIT_OBJECT_BLOB) {
    return failed(Code::kObjectsMissing, "is not a blob")
        .WithDetail(DetailKey::kReason, "not_a_blob");
  }
  out->resize(static_cast<size_t>(stream.size()));
  ObjectHashStream hash;
  hash.Start(GIT_OBJECT_BLOB, stream.size());
  // Hashed in pieces as they are inflated, while they are still in the cache.
  constexpr size_t kPiece = size_t{1} << 20;
  for (size_t at = 0; at < out->size();) {
    auto got = stream.Read(out->data() + at, std::min(kPiece, out->size() - at));
    if (!got.ok()) return failed(Code::kInternal, "cannot be read: " + got.status().message());
    hash.Update(std::string_view(out->data() + at, *got));
    at += *got;
  }
  if (Status end = stream.Finish(); !end.ok()) {
    return failed(Code::kInternal, "cannot be read: " + end.message());
  }
  std::optional<git_oid> actual = hash.Finish();
  if (!actual || !git_oid_equal(&*actual, &id)) {
    return failed(Code::kObjectsMissing,
                  "does not hash to its id (replaced or corrupted in the object database)")
        .WithDetail(DetailKey::kReason, "hash_mismatch");
  }
  return Status::Ok();
}

}  // namespace

Status ReadBlobInPieces(git_odb* odb, const git_oid& id, std::string* out) {
  const std::string path = LooseObjectFile(odb, id);
  std::optional<ObjectFileStream> loose =
      path.empty() ? std::nullopt : ObjectFileStream::OpenLoose(path);
  if (loose) return ReadWhole(*loose, id, out);
  std::optional<ObjectFileStream> packed = ObjectFileStream::OpenPacked(GuardedObjectDirs(odb), id);
  if (packed) return ReadWhole(*packed, id, out);
  return Status(Code::kNotFound,
                "object " + OidHex(id) + " has neither a loose file nor a whole pack entry");
}

}  // namespace gentle::store::git
