// The checksum is computed with OpenSSL's SHA1_Init/Update/Final, not its one-shot SHA1(), which
// OpenSSL 3 routes through EVP_Q_digest: fetching the EVP implementation cost 5M instructions per
// process (see store/sha256.cc). Both take the SHA-NI path where the CPU has it.
#define OPENSSL_API_COMPAT 0x10100000L
#include "store/git/worktree_index.h"

#include <fcntl.h>
#include <openssl/sha.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

namespace gentle::store::git {
namespace {

constexpr size_t kHeaderSize = 12;
constexpr size_t kChecksumSize = 20;
constexpr size_t kFixedEntrySize = 62;  // 10 uint32 fields, 20-byte id, 16-bit flags
constexpr size_t kMaxPath = 4096;       // libgit2's GIT_PATH_MAX: it refuses paths this long (v4)
constexpr uint16_t kFlagExtended = 0x4000;
constexpr uint16_t kNameMask = 0x0fff;

uint32_t Be32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}
uint16_t Be16(const unsigned char* p) { return static_cast<uint16_t>((p[0] << 8) | p[1]); }

// The whole file, in a buffer that is not zeroed first (a 9 MB index was 3% of a status in
// memset alone), `st` its fstat (a regular file); false on a read error or when the file changes
// size while it is read.
bool ReadWholeFile(int fd, const struct stat& st, std::unique_ptr<char[]>* out, size_t* size) {
  *size = static_cast<size_t>(st.st_size);
  out->reset(new char[*size]);
  size_t done = 0;
  while (done < *size) {
    ssize_t n = read(fd, out->get() + done, *size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;  // error, or the file shrank while being read
    done += static_cast<size_t>(n);
  }
  char extra;
  return read(fd, &extra, 1) == 0;  // and it did not grow
}

// A large index mapped read-only, its pages populated at once, as git maps its index: reading a
// kernel-sized index (9 MB) copied it into 2,300 freshly zeroed pages, ~4 ms before the first
// lstat. git and libgit2 replace the index by renaming a new file over it, which leaves this
// mapping on the old file. Map declines (nothing: read the file instead) a small file, where the
// mapping costs more than the copy, and any file it cannot map.
class MappedFile {
 public:
  static constexpr size_t kMinBytes = 256 << 10;

  static std::optional<MappedFile> Map(int fd, const struct stat& st) {
    const size_t size = static_cast<size_t>(st.st_size);
    if (size < kMinBytes) return std::nullopt;
    void* data = mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (data == MAP_FAILED) return std::nullopt;
    return MappedFile(data, size);
  }
  MappedFile(MappedFile&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(other.size_) {}
  MappedFile& operator=(MappedFile&&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) munmap(data_, size_);
  }

  std::string_view bytes() const { return {static_cast<const char*>(data_), size_}; }

 private:
  MappedFile(void* data, size_t size) : data_(data), size_(size) {}

  void* data_;
  size_t size_;
};

// A path component libgit2 (git_path_is_valid with GIT_PATH_REJECT_INDEX_DEFAULTS, protectNTFS on)
// might refuse when loading an index. This is a superset of its rule, so anything it flags is
// left to libgit2's own loader to decide.
// (A '~' anywhere, for NTFS short names such as GIT~1, is checked once for the whole path.)
bool DoubtfulComponent(std::string_view c) {
  if (c.empty() || c == "." || c == "..") return true;
  if (c.size() >= 4 && c[0] == '.' && (c[1] == 'g' || c[1] == 'G') &&
      (c[2] == 'i' || c[2] == 'I') && (c[3] == 't' || c[3] == 'T')) {
    if (c.size() == 4) return true;
    const char next = c[4];
    return next == '.' || next == ' ' || next == ':' || next == '\\';
  }
  return false;
}

// The exact rule, one pass over the path's bytes: the '~' of an NTFS short name anywhere, or a
// doubtful component.
bool DoubtfulPathExact(std::string_view path) {
  if (path.size() >= kMaxPath) return true;
  size_t start = 0;
  for (size_t i = 0; i < path.size(); ++i) {
    if (path[i] == '~') return true;
    if (path[i] != '/') continue;
    if (DoubtfulComponent(path.substr(start, i - start))) return true;
    start = i + 1;
  }
  return DoubtfulComponent(path.substr(start));
}

// 0x80 in each byte of `word` that equals `c`, 0 in every other byte (exact: no carry crosses a
// byte).
constexpr uint64_t kLow7 = 0x7f7f7f7f7f7f7f7fULL;
uint64_t BytesEqual(uint64_t word, unsigned char c) {
  const uint64_t x = word ^ (0x0101010101010101ULL * c);
  return ~(((x & kLow7) + kLow7) | x | kLow7);
}

// The eight path bytes from `p` (fewer at the end: the rest zero), the first in the low byte.
uint64_t LoadWord(const char* p, size_t available) {
  uint64_t word = 0;
  if (available >= 8) {
    std::memcpy(&word, p, 8);
  } else {
    std::memcpy(&word, p, available);
  }
  if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
  return word;
}

// DoubtfulPathExact, eight bytes at a time (a byte loop was the parse's largest cost on a
// kernel-sized index): every component it can flag is empty or starts with '.', so a path with no
// '~', no component starting with '.' or '/', and no trailing '/' is not doubtful; any other is
// left to the exact rule.
bool DoubtfulPath(std::string_view path) {
  if (path.empty() || path.size() >= kMaxPath || path.back() == '/') return true;
  uint64_t starts_next = 0x80;  // the path's first byte starts a component
  for (size_t i = 0; i < path.size(); i += 8) {
    const uint64_t word = LoadWord(path.data() + i, path.size() - i);
    if (BytesEqual(word, '~') != 0) return true;
    const uint64_t slashes = BytesEqual(word, '/');
    const uint64_t starts = (slashes << 8) | starts_next;  // the bytes after a '/'
    starts_next = slashes >> 56;
    if ((starts & (slashes | BytesEqual(word, '.'))) != 0) return DoubtfulPathExact(path);
  }
  return false;
}

// The index's trailing SHA-1 of `data`, on a helper thread for a large index (it is a third of
// the read of a kernel-sized index) while the entries are parsed; on the calling thread when the
// index is small or no thread can be had. Done() joins and returns whether it matches `expected`.
class ChecksumCheck {
 public:
  static constexpr size_t kHelperMinBytes = 1 << 20;

  ChecksumCheck(const unsigned char* data, size_t size, const unsigned char* expected)
      : data_(data), size_(size), expected_(expected) {
    if (size_ < kHelperMinBytes) return;
    try {
      helper_ = std::thread([this] { Compute(); });
    } catch (const std::system_error&) {
      // Compute on the calling thread in Done().
    }
  }
  ~ChecksumCheck() {
    if (helper_.joinable()) helper_.join();
  }
  ChecksumCheck(const ChecksumCheck&) = delete;
  ChecksumCheck& operator=(const ChecksumCheck&) = delete;

  // Called once.
  bool Done() {
    if (helper_.joinable()) {
      helper_.join();
    } else {
      Compute();
    }
    return std::memcmp(digest_, expected_, kChecksumSize) == 0;
  }

 private:
  void Compute() {
    SHA_CTX ctx;
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, data_, size_);
    SHA1_Final(digest_, &ctx);
  }

  const unsigned char* data_;
  size_t size_;
  const unsigned char* expected_;
  unsigned char digest_[SHA_DIGEST_LENGTH] = {};
  std::thread helper_;
};

// Decodes git's offset varint (index-format "N" of version 4); false when it runs past `end`.
bool DecodeVarint(const unsigned char*& p, const unsigned char* end, uint64_t* out) {
  if (p >= end) return false;
  unsigned char c = *p++;
  uint64_t value = c & 0x7f;
  while (c & 0x80) {
    if (p >= end || value >= (uint64_t{1} << 56)) return false;
    c = *p++;
    value = ((value + 1) << 7) | (c & 0x7f);
  }
  *out = value;
  return true;
}

// The decimal number at `p` up to `stop` (an optional '-' first when `negative` is allowed, at
// most 10 digits); false when it is not one.
bool ParseDecimal(const unsigned char*& p, const unsigned char* end, char stop, bool negative_ok,
                  int64_t* out) {
  bool negative = false;
  if (negative_ok && p < end && *p == '-') {
    negative = true;
    ++p;
  }
  int64_t value = 0;
  int digits = 0;
  while (p < end && *p >= '0' && *p <= '9') {
    if (++digits > 10) return false;
    value = value * 10 + (*p++ - '0');
  }
  if (digits == 0 || p >= end || *p != stop) return false;
  ++p;
  *out = negative ? -value : value;
  return true;
}

// The cache-tree extension's data: entries in pre-order, each "<name>\0<entry_count>
// <subtrees>\n" and, when entry_count is not negative, the 20-byte tree id. The root's name is
// empty; every other name is one path component. False when the data is not exactly that.
bool ParseCacheTree(const unsigned char* p, const unsigned char* end,
                    std::vector<CacheTreeDir>* out) {
  struct Level {
    std::string path;
    int64_t subtrees_left;
  };
  std::vector<Level> open;
  bool root_seen = false;
  while (p < end) {
    if (root_seen && open.empty()) return false;  // data after the root's last subtree
    const auto* nul = static_cast<const unsigned char*>(std::memchr(p, 0, end - p));
    if (nul == nullptr) return false;
    const std::string_view name(reinterpret_cast<const char*>(p), nul - p);
    p = nul + 1;
    int64_t entry_count = 0, subtrees = 0;
    if (!ParseDecimal(p, end, ' ', true, &entry_count) ||
        !ParseDecimal(p, end, '\n', false, &subtrees)) {
      return false;
    }
    std::string path;
    if (!root_seen) {
      if (!name.empty()) return false;
      root_seen = true;
    } else {
      if (name.empty() || name.find('/') != std::string_view::npos) return false;
      path = open.back().path;
      path.append(name);
      path.push_back('/');
      if (path.size() >= kMaxPath) return false;
      --open.back().subtrees_left;
    }
    if (entry_count >= 0) {
      if (static_cast<size_t>(end - p) < GIT_OID_RAWSZ) return false;
      CacheTreeDir dir;
      dir.path = path;
      git_oid_fromraw(&dir.id, p);
      dir.entry_count = static_cast<uint32_t>(entry_count);
      out->push_back(std::move(dir));
      p += GIT_OID_RAWSZ;
    }
    open.push_back({std::move(path), subtrees});
    while (!open.empty() && open.back().subtrees_left == 0) open.pop_back();
  }
  return root_seen && open.empty();
}

std::optional<WorktreeIndex> ParseBody(const unsigned char* data, const unsigned char* body_end,
                                       size_t file_size);

std::optional<WorktreeIndex> Parse(std::string_view bytes) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < kHeaderSize + kChecksumSize) return std::nullopt;
  const unsigned char* const body_end = data + bytes.size() - kChecksumSize;
  // The bytes are parsed while their checksum is computed (the parser checks every bound itself);
  // nothing parsed is returned unless the checksum matches.
  ChecksumCheck checksum(data, bytes.size() - kChecksumSize, body_end);
  std::optional<WorktreeIndex> parsed = ParseBody(data, body_end, bytes.size());
  if (!checksum.Done()) return std::nullopt;
  return parsed;
}

std::optional<WorktreeIndex> ParseBody(const unsigned char* data,
                                       const unsigned char* const body_end, size_t file_size) {
  if (std::memcmp(data, "DIRC", 4) != 0) return std::nullopt;

  WorktreeIndex index;
  index.version = Be32(data + 4);
  if (index.version < 2 || index.version > 4) return std::nullopt;
  const uint32_t count = Be32(data + 8);
  if (count > (file_size - kHeaderSize) / kFixedEntrySize) return std::nullopt;
  // Each entry is made where it is filled (a resize first zeroed 7 MB of a kernel-sized index's
  // entries in a pass of its own); `count` is bounded by the file's size above.
  index.entries.reserve(count);

  const unsigned char* p = data + kHeaderSize;
  std::string_view previous;  // the previous entry's path (version 4 strips from it)
  for (uint32_t n = 0; n < count; ++n) {
    WorktreeIndexEntry& e = index.entries.emplace_back();
    const unsigned char* const entry_start = p;
    if (static_cast<size_t>(body_end - p) < kFixedEntrySize) return std::nullopt;
    e.ctime_seconds = Be32(p);
    e.ctime_nanoseconds = Be32(p + 4);
    e.mtime_seconds = Be32(p + 8);
    e.mtime_nanoseconds = Be32(p + 12);
    e.dev = Be32(p + 16);
    e.ino = Be32(p + 20);
    e.mode = Be32(p + 24);
    e.uid = Be32(p + 28);
    e.gid = Be32(p + 32);
    e.file_size = Be32(p + 36);
    std::memcpy(e.id.id, p + 40, GIT_OID_RAWSZ);
    e.flags = Be16(p + 60);
    p += kFixedEntrySize;
    if (e.flags & kFlagExtended) {
      if (index.version < 3 || body_end - p < 2) return std::nullopt;
      e.flags_extended = Be16(p);
      p += 2;
    }
    if (index.version == 4) {
      uint64_t strip = 0;
      if (!DecodeVarint(p, body_end, &strip)) return std::nullopt;
      if (strip > previous.size()) return std::nullopt;
      const auto* nul = static_cast<const unsigned char*>(std::memchr(p, 0, body_end - p));
      if (!nul) return std::nullopt;
      const size_t keep = previous.size() - static_cast<size_t>(strip);
      e.path = index.paths.Add(
          previous.substr(0, keep),
          std::string_view(reinterpret_cast<const char*>(p), static_cast<size_t>(nul - p)));
      p = nul + 1;  // no padding in version 4
    } else {
      const auto* nul = static_cast<const unsigned char*>(std::memchr(p, 0, body_end - p));
      if (!nul) return std::nullopt;
      const size_t length = static_cast<size_t>(nul - p);
      // The 12-bit length field is the path length, or 0xFFF for 0xFFF bytes and more.
      if ((e.flags & kNameMask) != (length < kNameMask ? length : kNameMask)) return std::nullopt;
      e.path = index.paths.Add(std::string_view(reinterpret_cast<const char*>(p), length));
      // 1 to 8 NUL bytes pad the entry to a multiple of eight bytes.
      const size_t unpadded = static_cast<size_t>(nul - entry_start);
      const size_t padded = (unpadded + 8) & ~size_t{7};
      if (static_cast<size_t>(body_end - entry_start) < padded) return std::nullopt;
      for (const unsigned char* q = nul; q < entry_start + padded; ++q) {
        if (*q != 0) return std::nullopt;
      }
      p = entry_start + padded;
    }
    if (DoubtfulPath(e.path)) return std::nullopt;
    previous = e.path;
  }

  // Extensions: 4-byte signature, 32-bit size, data. Uppercase first byte = optional.
  bool tree_seen = false;
  while (p < body_end) {
    if (body_end - p < 8) return std::nullopt;
    if (p[0] < 'A' || p[0] > 'Z') return std::nullopt;  // required: link, sdir, unknown
    const uint32_t size = Be32(p + 4);
    if (static_cast<size_t>(body_end - p - 8) < size) return std::nullopt;
    if (std::memcmp(p, "TREE", 4) == 0) {
      // Malformed, or a second one: left to libgit2, which refuses a cache-tree it cannot parse.
      if (tree_seen || !ParseCacheTree(p + 8, p + 8 + size, &index.cache_tree)) {
        return std::nullopt;
      }
      tree_seen = true;
    }
    p += 8 + size;
  }
  return index;
}

}  // namespace

std::string_view IndexPaths::Add(std::string_view head, std::string_view tail) {
  const size_t size = head.size() + tail.size() + 1;
  if (size > left_) {
    // Blocks double from 64 KiB to 4 MiB: a kernel-sized index's 4 MB of paths take a few dozen.
    constexpr size_t kFirst = 64 << 10, kLargest = 4 << 20;
    const size_t grown = std::min(kLargest, kFirst << std::min<size_t>(blocks_.size(), 6));
    left_ = std::max(grown, size);
    blocks_.push_back(std::unique_ptr<char[]>(new char[left_]));
    next_ = blocks_.back().get();
  }
  char* out = next_;
  if (!head.empty()) std::memcpy(out, head.data(), head.size());  // an empty view may be null
  if (!tail.empty()) std::memcpy(out + head.size(), tail.data(), tail.size());
  out[size - 1] = '\0';
  next_ += size;
  left_ -= size;
  return std::string_view(out, size - 1);
}

std::optional<WorktreeIndex> ReadWorktreeIndex(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    if (errno == ENOENT) return WorktreeIndex{};
    return std::nullopt;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // a FIFO would block the read
    close(fd);
    return std::nullopt;
  }
  if (std::optional<MappedFile> mapped = MappedFile::Map(fd, st)) {
    close(fd);
    return Parse(mapped->bytes());
  }
  std::unique_ptr<char[]> buffer;
  size_t size = 0;
  const bool read_ok = ReadWholeFile(fd, st, &buffer, &size);
  close(fd);
  if (!read_ok) return std::nullopt;
  return Parse(std::string_view(buffer.get(), size));
}

}  // namespace gentle::store::git
