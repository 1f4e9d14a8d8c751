#include "export/git_delta.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "export/delta_ops.h"
#include "export/window_fingerprint.h"

namespace gentle::exporter {
namespace {

// Block width of the source index and of the target's sliding window.
constexpr size_t kWindow = kFingerprintWindow;
// A match at least this long ends the candidate scan, and a carried-over remainder of at least this
// length is copied on without a new lookup.
constexpr size_t kGoodEnough = 4096;
// Shortest match worth a copy op.
constexpr size_t kMinCopy = 4;
// git keeps at most this many entries per hash bucket.
constexpr size_t kBucketLimit = 64;

// Length of the common prefix of a and b, at most limit.
size_t CommonPrefix(const unsigned char* a, const unsigned char* b, size_t limit) {
  size_t n = 0;
  while (n + 8 <= limit) {
    uint64_t x, y;
    std::memcpy(&x, a + n, 8);
    std::memcpy(&y, b + n, 8);
    if (x != y) return n + (__builtin_ctzll(x ^ y) >> 3);
    n += 8;
  }
  while (n < limit && a[n] == b[n]) ++n;
  return n;
}

struct Entry {
  uint32_t fp;      // fingerprint of the 16-byte window ending at anchor
  uint32_t anchor;  // offset of the window's last byte; matching starts here (sources < 4 GiB)
};

// The source index, laid out as git lays out its own:
//  - block k covers src[16k+1 .. 16k+16] for every k < (size-1)/16, keyed by its fingerprint;
//  - of a run of consecutive blocks with equal fingerprints only the lowest is kept;
//  - the table has the smallest power of two >= blocks/4 buckets (at least 16), bucket = fp & mask,
//    entries of a bucket in ascending source order;
//  - a bucket of more than 64 entries is thinned to 64: walking it in order, each kept entry adds
//    (count - 64) to an accumulator, and while the accumulator is positive the next entry is
//    dropped and 64 subtracted.
// All of it was established by probing the git CLI with crafted files (docs/binary-patch.md).
// Memory: one 8-byte entry per kept block and one 4-byte count per bucket. The blocks' fingerprints
// are computed twice (a counting pass, then a placing pass) so that no second copy of the entries
// is ever held; thinning compacts the table in place.
class SourceIndex {
 public:
  explicit SourceIndex(std::string_view source) {
    const auto* src = reinterpret_cast<const unsigned char*>(source.data());
    const WindowFingerprint& fingerprint = Fingerprinter();
    const size_t blocks = source.empty() ? 0 : (source.size() - 1) / kWindow;
    bits_ = 4;
    while ((size_t{1} << bits_) < blocks / 4) ++bits_;
    const size_t buckets = size_t{1} << bits_;
    // Calls visit(fp, anchor) for every kept block, in source order.
    auto each_kept = [&](auto&& visit) {
      uint32_t prev = 0;
      for (size_t k = 0; k < blocks; ++k) {
        const uint32_t fp = fingerprint.Of(src + kWindow * k + 1);
        if (k == 0 || fp != prev) visit(fp, static_cast<uint32_t>(kWindow * k + kWindow));
        prev = fp;
      }
    };
    // start_[b] .. start_[b + 1]: bucket b, once counted and summed.
    start_.assign(buckets + 1, 0);
    each_kept([&](uint32_t fp, uint32_t) { ++start_[Bucket(fp) + 1]; });
    for (size_t i = 1; i <= buckets; ++i) start_[i] += start_[i - 1];
    entries_.resize(start_[buckets]);
    {
      std::vector<uint32_t> fill(start_.begin(), start_.end() - 1);
      each_kept([&](uint32_t fp, uint32_t anchor) { entries_[fill[Bucket(fp)]++] = {fp, anchor}; });
    }
    // Thinning, compacting every bucket towards the front.
    size_t out = 0;
    size_t first = 0;
    for (size_t b = 0; b < buckets; ++b) {
      const size_t last = start_[b + 1];
      const size_t n = last - first;
      if (n <= kBucketLimit) {
        if (out != first) std::memmove(&entries_[out], &entries_[first], n * sizeof(Entry));
        out += n;
      } else {
        const long excess = static_cast<long>(n - kBucketLimit);
        long acc = 0;
        for (size_t k = 0; k < n; ++k) {
          entries_[out++] = entries_[first + k];
          acc += excess;
          while (acc > 0 && k + 1 < n) {
            ++k;  // dropped
            acc -= static_cast<long>(kBucketLimit);
          }
        }
      }
      start_[b + 1] = static_cast<uint32_t>(out);
      first = last;
    }
    entries_.resize(out);
  }

  size_t Bucket(uint32_t fp) const { return fp & ((size_t{1} << bits_) - 1); }
  const Entry* begin(size_t bucket) const { return entries_.data() + start_[bucket]; }
  const Entry* end(size_t bucket) const { return entries_.data() + start_[bucket + 1]; }

 private:
  int bits_ = 4;
  std::vector<uint32_t> start_;
  std::vector<Entry> entries_;
};

class Encoder {
 public:
  Encoder(std::string_view source, std::string_view target, size_t max_size,
          const SourceIndex& index)
      : src_(reinterpret_cast<const unsigned char*>(source.data())),
        src_size_(source.size()),
        trg_(reinterpret_cast<const unsigned char*>(target.data())),
        trg_size_(target.size()),
        max_size_(max_size),
        index_(index) {}

  std::optional<std::string> Run() {
    AppendDeltaVarint(src_size_, &out_);
    AppendDeltaVarint(trg_size_, &out_);
    size_t p = std::min(kWindow, trg_size_);
    pending_start_ = 0;
    pending_ = p;
    size_t msize = 0;
    size_t moff = 0;
    while (p < trg_size_) {
      if (msize < kGoodEnough) FindMatch(p, &msize, &moff);
      if (msize < kMinCopy) {
        if (pending_ == 0) pending_start_ = p;
        ++pending_;
        ++p;
        if (pending_ == kMaxInsertSize) FlushInsert();
        msize = 0;
      } else {
        if (pending_ > 0) {
          while (pending_ > 0 && moff > 0 && src_[moff - 1] == trg_[p - 1]) {
            --moff;
            --p;
            ++msize;
            --pending_;
          }
          FlushInsert();
        }
        size_t copy = std::min(msize, kMaxCopySize);
        AppendCopyOp(moff, copy, &out_);
        p += copy;
        moff += copy;
        msize -= copy;
      }
      if (OverBudget()) return std::nullopt;
    }
    FlushInsert();
    if (OverBudget()) return std::nullopt;
    return std::move(out_);
  }

 private:
  // Size the output has reached, counting a pending insert with its count byte.
  bool OverBudget() const {
    size_t used = out_.size() + (pending_ ? pending_ + 1 : 0);
    return max_size_ != 0 && used > max_size_;
  }

  void FlushInsert() {
    if (pending_ == 0) return;
    AppendInsertOp(std::string_view(reinterpret_cast<const char*>(trg_) + pending_start_, pending_),
                   &out_);
    pending_ = 0;
  }

  // Looks up the window trg[p-15..p]; a candidate must beat the current *msize strictly. Like git,
  // candidates are matched on the fingerprint alone, and the comparison starts at the window's last
  // byte.
  void FindMatch(size_t p, size_t* msize, size_t* moff) {
    const WindowFingerprint& fingerprint = Fingerprinter();
    if (fp_valid_ && fp_end_ + 1 == p) {
      fp_ = fingerprint.Roll(fp_, trg_[p - kWindow], trg_[p]);
    } else {
      fp_ = fingerprint.Of(trg_ + p + 1 - kWindow);
    }
    fp_end_ = p;
    fp_valid_ = true;
    size_t bucket = index_.Bucket(fp_);
    size_t trg_left = trg_size_ - p;
    for (const Entry* e = index_.begin(bucket); e != index_.end(bucket); ++e) {
      if (e->fp != fp_) continue;
      size_t limit = std::min(src_size_ - e->anchor, trg_left);
      if (limit <= *msize) break;
      size_t len = CommonPrefix(src_ + e->anchor, trg_ + p, limit);
      if (len > *msize) {
        *msize = len;
        *moff = e->anchor;
        if (len >= kGoodEnough) break;
      }
    }
  }

  const unsigned char* src_;
  size_t src_size_;
  const unsigned char* trg_;
  size_t trg_size_;
  size_t max_size_;
  const SourceIndex& index_;
  std::string out_;
  size_t pending_start_ = 0;
  size_t pending_ = 0;
  uint32_t fp_ = 0;
  size_t fp_end_ = 0;
  bool fp_valid_ = false;
};

}  // namespace

std::optional<std::string> CreateGitDelta(std::string_view source, std::string_view target,
                                          size_t max_size) {
  if (source.empty() || target.empty()) return std::nullopt;
  // Offsets into the source are kept in 32 bits (and copy offsets are encoded in at most four
  // bytes): a larger source gets no delta (DeltaIsGitIdenticalFor is false for it anyway).
  if (source.size() > 0xffffffffu) return std::nullopt;
  SourceIndex index(source);
  return Encoder(source, target, max_size, index).Run();
}

bool DeltaIsGitIdenticalFor(std::string_view source, std::string_view target) {
  // Copy offsets are encoded in at most four bytes; git switches to other rules past 4 GiB.
  return source.size() <= 0xffffffffu && target.size() <= 0xffffffffu;
}

}  // namespace gentle::exporter
