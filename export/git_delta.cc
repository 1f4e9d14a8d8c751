#include "export/git_delta.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "export/delta_ops.h"

namespace gentle::exporter {
namespace {

// Block width of the source index and of the target's sliding window.
constexpr size_t kWindow = 16;
// A match at least this long ends the candidate scan, and a carried-over remainder of at least this
// length is copied on without a new lookup.
constexpr size_t kGoodEnough = 4096;
// Shortest match worth a copy op.
constexpr size_t kMinCopy = 4;
// git keeps at most this many entries per hash bucket.
constexpr size_t kBucketLimit = 64;
// The three largest groups of identical blocks may together hold at most this many entries for the
// result to count as git-identical: git's bucket can then only overflow kBucketLimit if about 25
// unrelated blocks land in the same bucket, while git's table holds about four blocks per bucket.
constexpr size_t kSafeCrowd = 40;

constexpr uint64_t kBase = 0x100000001b3ULL;

uint64_t PowBase(size_t n) {
  uint64_t r = 1;
  for (size_t i = 0; i < n; ++i) r *= kBase;
  return r;
}
const uint64_t kBaseTop = PowBase(kWindow - 1);

uint64_t HashWindow(const unsigned char* w) {
  uint64_t h = 0;
  for (size_t i = 0; i < kWindow; ++i) h = h * kBase + w[i] + 1;
  return h;
}

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
  uint64_t hash;
  size_t anchor;  // offset of the window's last byte; matching starts here
};

// The source index: every 16-byte block src[16k+1 .. 16k+16] with k < (size-1)/16, keyed by
// content. Of a run of consecutive identical blocks only the lowest is kept. Entries of one bucket
// are stored in ascending source order.
class SourceIndex {
 public:
  explicit SourceIndex(std::string_view source)
      : src_(reinterpret_cast<const unsigned char*>(source.data())), size_(source.size()) {
    size_t blocks = size_ ? (size_ - 1) / kWindow : 0;
    std::vector<Entry> kept;
    kept.reserve(blocks);
    for (size_t k = 0; k < blocks; ++k) {
      const unsigned char* w = src_ + kWindow * k + 1;
      if (k > 0 && std::memcmp(w - kWindow, w, kWindow) == 0) continue;
      kept.push_back({HashWindow(w), kWindow * k + kWindow});
    }
    bits_ = 4;
    while ((size_t{1} << bits_) < kept.size()) ++bits_;
    std::vector<uint32_t> count((size_t{1} << bits_) + 1, 0);
    for (const Entry& e : kept) ++count[Bucket(e.hash) + 1];
    for (size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    start_ = count;
    entries_.resize(kept.size());
    for (const Entry& e : kept) entries_[count[Bucket(e.hash)]++] = e;
    ThinGroups();
  }

  size_t Bucket(uint64_t hash) const { return (hash * 0x9E3779B97F4A7C15ULL) >> (64 - bits_); }
  const Entry* begin(size_t bucket) const { return entries_.data() + start_[bucket]; }
  const Entry* end(size_t bucket) const { return entries_.data() + start_[bucket + 1]; }
  // Sum of the three largest groups of identical blocks (before thinning).
  size_t CrowdScore() const { return top_[0] + top_[1] + top_[2]; }

 private:
  // Measures the groups of identical blocks, then thins every group of more than kBucketLimit
  // entries the way git thins an over-full bucket, as if the group were alone in its bucket:
  // walking the entries in source order, each kept entry adds (count - limit) to an accumulator,
  // and while the accumulator is positive the next entry is dropped and the limit subtracted.
  // (Measured against the git CLI with probe files; exact when git's bucket holds nothing else.)
  void ThinGroups() {
    std::vector<Entry> out;
    out.reserve(entries_.size());
    std::vector<uint32_t> new_start(start_.size(), 0);
    std::vector<Entry> bucket;
    for (size_t b = 0; b + 1 < start_.size(); ++b) {
      bucket.assign(entries_.begin() + start_[b], entries_.begin() + start_[b + 1]);
      std::stable_sort(bucket.begin(), bucket.end(),
                       [](const Entry& x, const Entry& y) { return x.hash < y.hash; });
      size_t first_kept = out.size();
      for (size_t i = 0; i < bucket.size();) {
        size_t j = i;
        while (j < bucket.size() && bucket[j].hash == bucket[i].hash) ++j;
        size_t g = j - i;
        NoteGroup(g);
        if (g <= kBucketLimit) {
          out.insert(out.end(), bucket.begin() + i, bucket.begin() + j);
        } else {
          const long excess = static_cast<long>(g - kBucketLimit);
          long acc = 0;
          for (size_t k = i; k < j; ++k) {
            out.push_back(bucket[k]);
            acc += excess;
            while (acc > 0 && k + 1 < j) {
              ++k;  // dropped
              acc -= static_cast<long>(kBucketLimit);
            }
          }
        }
        i = j;
      }
      std::sort(out.begin() + first_kept, out.end(),
                [](const Entry& x, const Entry& y) { return x.anchor < y.anchor; });
      new_start[b + 1] = static_cast<uint32_t>(out.size());
    }
    entries_ = std::move(out);
    start_ = std::move(new_start);
  }

  void NoteGroup(size_t g) {
    if (g > top_[0]) {
      top_[2] = top_[1];
      top_[1] = top_[0];
      top_[0] = g;
    } else if (g > top_[1]) {
      top_[2] = top_[1];
      top_[1] = g;
    } else if (g > top_[2]) {
      top_[2] = g;
    }
  }

  const unsigned char* src_;
  size_t size_;
  int bits_ = 4;
  std::vector<uint32_t> start_;
  std::vector<Entry> entries_;
  size_t top_[3] = {0, 0, 0};
};

bool IsCrowded(const SourceIndex& index) { return index.CrowdScore() > kSafeCrowd; }

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

  // Looks up the window trg[p-15..p]; a candidate must beat the current *msize strictly.
  void FindMatch(size_t p, size_t* msize, size_t* moff) {
    const unsigned char* w = trg_ + p + 1 - kWindow;
    if (hashed_end_ + 1 == p && hashed_valid_) {
      hash_ = (hash_ - (static_cast<uint64_t>(w[-1]) + 1) * kBaseTop) * kBase + trg_[p] + 1;
    } else {
      hash_ = HashWindow(w);
    }
    hashed_end_ = p;
    hashed_valid_ = true;
    size_t bucket = index_.Bucket(hash_);
    size_t trg_left = trg_size_ - p;
    for (const Entry* e = index_.begin(bucket); e != index_.end(bucket); ++e) {
      if (e->hash != hash_) continue;
      size_t limit = std::min(src_size_ - e->anchor, trg_left);
      if (limit <= *msize) break;
      if (std::memcmp(src_ + e->anchor + 1 - kWindow, w, kWindow) != 0) continue;
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
  uint64_t hash_ = 0;
  size_t hashed_end_ = 0;
  bool hashed_valid_ = false;
};

}  // namespace

std::optional<std::string> CreateGitDelta(std::string_view source, std::string_view target,
                                          size_t max_size) {
  if (source.empty() || target.empty()) return std::nullopt;
  SourceIndex index(source);
  return Encoder(source, target, max_size, index).Run();
}

bool DeltaIsGitIdenticalFor(std::string_view source, std::string_view target) {
  if (source.empty() || target.empty()) return true;
  return !IsCrowded(SourceIndex(source));
}

}  // namespace gentle::exporter
