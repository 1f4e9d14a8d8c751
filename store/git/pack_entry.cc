#include "store/git/pack_entry.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "store/posix_fd.h"

namespace gentle::store::git {
namespace {

// Pack index version 2: magic, version, 256 cumulative counts, then per object its id, its CRC-32
// and its 31-bit offset (or, with the top bit set, the position of its 64-bit offset in the table
// that follows), then the pack's and the index's checksums.
constexpr unsigned char kIdxMagic[4] = {0xff, 't', 'O', 'c'};
constexpr uint64_t kFanoutAt = 8;
constexpr uint64_t kIdsAt = kFanoutAt + 256 * 4;
constexpr uint64_t kChecksumsBytes = 2 * GIT_OID_RAWSZ;
// A pack's header: "PACK", version, count.
constexpr uint64_t kPackHeaderBytes = 12;
// An entry's header: the type and up to 64 bits of size, 7 bits a byte after the first 4.
constexpr size_t kMaxEntryHeaderBytes = 10;

uint32_t Be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}

// Exactly `n` bytes at `offset`, or false.
bool ReadAt(int fd, uint64_t offset, void* out, size_t n) {
  size_t done = 0;
  while (done < n) {
    const ssize_t got =
        pread(fd, static_cast<char*>(out) + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

// A regular file opened for reading (no final symlink, no wait on a FIFO), and its size; -1 when
// it is not one.
int OpenRegular(const std::string& path, uint64_t* size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return -1;
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return -1;
  }
  *size = static_cast<uint64_t>(st.st_size);
  return fd;
}

// The offset of `id` in the pack that `idx_path` indexes, or nullopt (absent, or the index is
// not a well-formed version 2 index of this size).
std::optional<uint64_t> FindOffset(const std::string& idx_path, const git_oid& id) {
  uint64_t idx_size = 0;
  const int raw = OpenRegular(idx_path, &idx_size);
  if (raw < 0) return std::nullopt;
  Fd fd(raw);
  unsigned char head[kIdsAt];
  if (idx_size < kIdsAt + kChecksumsBytes || !ReadAt(fd.get(), 0, head, sizeof head)) {
    return std::nullopt;
  }
  if (std::memcmp(head, kIdxMagic, 4) != 0 || Be32(head + 4) != 2) return std::nullopt;
  const uint64_t count = Be32(head + kFanoutAt + 255 * 4);
  const uint64_t crcs_at = kIdsAt + count * GIT_OID_RAWSZ;
  const uint64_t offsets_at = crcs_at + count * 4;
  const uint64_t large_at = offsets_at + count * 4;
  if (large_at + kChecksumsBytes > idx_size) return std::nullopt;
  const unsigned char first = id.id[0];
  uint64_t lo = first == 0 ? 0 : Be32(head + kFanoutAt + (first - 1) * 4);
  uint64_t hi = Be32(head + kFanoutAt + first * 4);
  if (lo > hi || hi > count) return std::nullopt;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    unsigned char candidate[GIT_OID_RAWSZ];
    if (!ReadAt(fd.get(), kIdsAt + mid * GIT_OID_RAWSZ, candidate, sizeof candidate)) {
      return std::nullopt;
    }
    const int order = std::memcmp(candidate, id.id, GIT_OID_RAWSZ);
    if (order < 0) {
      lo = mid + 1;
    } else if (order > 0) {
      hi = mid;
    } else {
      unsigned char word[4];
      if (!ReadAt(fd.get(), offsets_at + mid * 4, word, sizeof word)) return std::nullopt;
      const uint32_t offset = Be32(word);
      if ((offset & 0x80000000u) == 0) return offset;
      const uint64_t slot = large_at + uint64_t{offset & 0x7fffffffu} * 8;
      unsigned char wide[8];
      if (slot + 8 + kChecksumsBytes > idx_size || !ReadAt(fd.get(), slot, wide, sizeof wide)) {
        return std::nullopt;
      }
      return (uint64_t{Be32(wide)} << 32) | Be32(wide + 4);
    }
  }
  return std::nullopt;
}

// The pack files' indexes in `dir`/pack, in name order (as stable as a listing can be).
std::vector<std::string> PackIndexes(const std::string& dir) {
  std::vector<std::string> out;
  const std::string pack_dir = dir + "/pack";
  DIR* handle = opendir(pack_dir.c_str());
  if (handle == nullptr) return out;
  while (const dirent* entry = readdir(handle)) {
    const std::string name = entry->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".idx") == 0) {
      out.push_back(pack_dir + "/" + name);
    }
  }
  closedir(handle);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

std::optional<PackEntry> FindWholePackEntry(const std::vector<std::string>& object_dirs,
                                            const git_oid& id) {
  for (const std::string& dir : object_dirs) {
    for (const std::string& idx : PackIndexes(dir)) {
      std::optional<uint64_t> offset = FindOffset(idx, id);
      if (!offset) continue;
      uint64_t pack_size = 0;
      const int raw = OpenRegular(idx.substr(0, idx.size() - 4) + ".pack", &pack_size);
      if (raw < 0) continue;
      Fd fd(raw);
      if (*offset < kPackHeaderBytes || *offset >= pack_size) continue;
      unsigned char header[kMaxEntryHeaderBytes];
      const size_t want =
          static_cast<size_t>(std::min<uint64_t>(sizeof header, pack_size - *offset));
      if (!ReadAt(fd.get(), *offset, header, want)) continue;
      const int type = (header[0] >> 4) & 7;
      if (type < GIT_OBJECT_COMMIT || type > GIT_OBJECT_TAG) continue;  // a delta, or invalid
      uint64_t size = header[0] & 15;
      size_t used = 1;
      unsigned shift = 4;
      bool more = (header[0] & 0x80) != 0;
      while (more && used < want && shift < 64) {
        size |= uint64_t{header[used] & 0x7fu} << shift;
        more = (header[used] & 0x80) != 0;
        shift += 7;
        ++used;
      }
      if (more) continue;  // the size does not end within the header's bound
      return PackEntry{fd.release(), *offset + used, static_cast<git_object_t>(type), size};
    }
  }
  return std::nullopt;
}

}  // namespace gentle::store::git
