#include "export/patch_bound.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include "export/binary_patch.h"
#include "export/file_section.h"
#include "store/git/object_reader.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;
// "Subproject commit " + 40 hex + "\n": a gitlink's side of its text section.
constexpr uint64_t kGitlinkTextBytes = 18 + GIT_OID_HEXSZ + 1;
// "diff --git a/" + path + " b/" + path + "\n", without quoting.
constexpr uint64_t kDiffLineFixedBytes = 17;
// "index " + 40 hex + ".." + 40 hex + "\n", without a mode.
constexpr uint64_t kIndexLineBytes = 6 + GIT_OID_HEXSZ + 2 + GIT_OID_HEXSZ + 1;
constexpr uint64_t kBinaryPatchLineBytes = 17;  // "GIT binary patch\n"

// `lo`: the bound with what is known; `hi`: the bound once every unknown kind is known, at best.
struct Bound {
  uint64_t lo = 0;
  uint64_t hi = 0;
};

struct Side {
  uint32_t mode;
  git_oid oid;
  SideFacts facts;
};

uint64_t LiteralLowerBound(uint64_t size) {
  return LiteralHunkSize(size, DeflatedLowerBound(size));
}

Bound SectionBound(std::string_view path, const Side& o, const Side& n) {
  uint64_t fixed = kDiffLineFixedBytes + 2 * static_cast<uint64_t>(path.size());
  if (git_oid_equal(&o.oid, &n.oid) != 0) return {fixed, fixed};
  fixed += kIndexLineBytes;
  const uint64_t old_size = o.facts.size;
  const uint64_t new_size = n.facts.size;
  const uint64_t text = old_size > new_size ? old_size - new_size : new_size - old_size;
  if (o.mode == kModeGitlink || n.mode == kModeGitlink) {
    return {SaturatingAdd(fixed, text), SaturatingAdd(fixed, text)};
  }
  uint64_t binary = kBinaryPatchLineBytes;
  if (old_size == 0) binary = SaturatingAdd(binary, LiteralLowerBound(new_size));
  if (new_size == 0) binary = SaturatingAdd(binary, LiteralLowerBound(old_size));
  const ContentKind a = o.facts.kind;
  const ContentKind b = n.facts.kind;
  uint64_t lo, hi;
  if (a == ContentKind::kBinary || b == ContentKind::kBinary) {
    lo = hi = binary;
  } else if (a == ContentKind::kText && b == ContentKind::kText) {
    lo = hi = text;
  } else {
    lo = std::min(text, binary);
    hi = std::max(text, binary);
  }
  return {SaturatingAdd(fixed, lo), SaturatingAdd(fixed, hi)};
}

Bound ChangeBound(const TreeChange& c, const ChangeFacts& f) {
  if (!f.known) return {};
  const Side old_side{c.old_mode, c.old_oid, f.old_side};
  const Side new_side{c.new_mode, c.new_oid, f.new_side};
  if (c.status == 'T') {
    const Side absent{0, git_oid{}, SideFacts{}};
    const Bound deleted = SectionBound(c.path, old_side, absent);
    const Bound added = SectionBound(c.path, absent, new_side);
    return {SaturatingAdd(deleted.lo, added.lo), SaturatingAdd(deleted.hi, added.hi)};
  }
  return SectionBound(c.path, old_side, new_side);
}

// What the object database says about one side; nullopt when it cannot describe it as a blob.
std::optional<SideFacts> Describe(git_odb* odb, uint32_t mode, const git_oid& oid) {
  if (mode == 0) return SideFacts{0, ContentKind::kText};
  if (mode == kModeGitlink) return SideFacts{kGitlinkTextBytes, ContentKind::kText};
  auto header = store::git::ReadObjectHeader(odb, oid);
  if (!header.ok() || header->type != GIT_OBJECT_BLOB) {
    git_error_clear();
    return std::nullopt;
  }
  return SideFacts{header->size, KindFromSize(header->size)};
}

// The kind of a blob from its first bytes, when it is loose; kUnknown otherwise.
ContentKind Peek(git_odb* odb, const git_oid& oid, uint64_t size) {
  std::optional<store::git::BlobStream> stream = store::git::BlobStream::Open(odb, oid);
  if (!stream || stream->size() != size) return ContentKind::kUnknown;
  std::string prefix(static_cast<size_t>(std::min<uint64_t>(size, kFirstFewBytes)), '\0');
  auto got = stream->Read(prefix.data(), prefix.size());
  if (!got.ok() || *got != prefix.size()) return ContentKind::kUnknown;
  return KindFromPrefix(size, prefix);
}

}  // namespace

ContentKind KindFromSize(uint64_t size) {
  if (size == 0) return ContentKind::kText;
  if (size > kBigFileThreshold) return ContentKind::kBinary;
  return ContentKind::kUnknown;
}

ContentKind KindFromPrefix(uint64_t size, std::string_view prefix) {
  const ContentKind by_size = KindFromSize(size);
  if (by_size != ContentKind::kUnknown) return by_size;
  const size_t n = std::min<size_t>(prefix.size(), kFirstFewBytes);
  return std::memchr(prefix.data(), '\0', n) != nullptr ? ContentKind::kBinary : ContentKind::kText;
}

uint64_t DeflatedLowerBound(uint64_t n) { return 6 + n / 1032; }

ChangeFacts DescribeChange(git_odb* odb, const TreeChange& change) {
  std::optional<SideFacts> old_side = Describe(odb, change.old_mode, change.old_oid);
  if (!old_side) return ChangeFacts{};
  std::optional<SideFacts> new_side = Describe(odb, change.new_mode, change.new_oid);
  if (!new_side) return ChangeFacts{};
  return ChangeFacts{true, *old_side, *new_side};
}

void KeepKnownPrefix(std::vector<ChangeFacts>* facts) {
  auto first =
      std::find_if(facts->begin(), facts->end(), [](const ChangeFacts& f) { return !f.known; });
  std::fill(first, facts->end(), ChangeFacts{});
}

std::vector<ChangeFacts> GatherFacts(git_odb* odb, const std::vector<TreeChange>& changes) {
  std::vector<ChangeFacts> facts(changes.size());
  for (size_t i = 0; i < changes.size(); ++i) {
    facts[i] = DescribeChange(odb, changes[i]);
    if (!facts[i].known) break;
  }
  return facts;
}

uint64_t ChangeLowerBound(const TreeChange& change, const ChangeFacts& facts) {
  return ChangeBound(change, facts).lo;
}

uint64_t ProvenLowerBound(git_odb* odb, const std::vector<TreeChange>& changes, size_t max_bytes,
                          std::vector<ChangeFacts>* facts) {
  std::vector<Bound> bounds(changes.size());
  uint64_t lo = 0;
  uint64_t hi = 0;
  for (size_t i = 0; i < changes.size(); ++i) {
    bounds[i] = ChangeBound(changes[i], (*facts)[i]);
    lo = SaturatingAdd(lo, bounds[i].lo);
    hi = SaturatingAdd(hi, bounds[i].hi);
  }
  if (lo > max_bytes || hi <= max_bytes) return lo;

  // Only a side's kind can still raise the bound: read first bytes where that gains the most.
  std::vector<size_t> order;
  for (size_t i = 0; i < changes.size(); ++i) {
    if (bounds[i].hi > bounds[i].lo) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return bounds[a].hi - bounds[a].lo > bounds[b].hi - bounds[b].lo;
  });
  for (size_t i : order) {
    const TreeChange& c = changes[i];
    ChangeFacts& f = (*facts)[i];
    if (f.old_side.kind == ContentKind::kUnknown) {
      f.old_side.kind = Peek(odb, c.old_oid, f.old_side.size);
    }
    if (f.new_side.kind == ContentKind::kUnknown) {
      f.new_side.kind = Peek(odb, c.new_oid, f.new_side.size);
    }
    const Bound now = ChangeBound(c, f);
    lo = SaturatingAdd(lo - bounds[i].lo, now.lo);
    hi = SaturatingAdd(hi - bounds[i].hi, now.hi);
    bounds[i] = now;
    if (lo > max_bytes || hi <= max_bytes) return lo;
  }
  return lo;
}

Status RefuseIfProvablyOverBudget(git_odb* odb, const std::vector<TreeChange>& changes,
                                  size_t max_bytes, std::vector<ChangeFacts>* facts) {
  const uint64_t lo = ProvenLowerBound(odb, changes, max_bytes, facts);
  if (lo <= max_bytes) return Status::Ok();
  return Status(Code::kBudgetExceeded, "derived patch exceeds the budget of " +
                                           std::to_string(max_bytes) + " bytes (at least " +
                                           std::to_string(lo) +
                                           " bytes, from the sizes of the objects)");
}

namespace {

// zlib's compressBound: no zlib stream of n bytes (default window and memory level, any level)
// is longer.
uint64_t DeflatedUpperBound(uint64_t n) {
  return SaturatingAdd(n, (n >> 12) + (n >> 14) + (n >> 25) + 13);
}

// "diff --git", mode, index, "---" and "+++" lines, every path byte quoted as "\ooo".
uint64_t HeaderUpperBound(std::string_view path) {
  return 256 + 16 * static_cast<uint64_t>(path.size());
}

constexpr uint64_t kHunkLineMaxBytes = 176;
constexpr uint64_t kNoNewlineLinesBytes = 2 * 30;

uint64_t TextUpperBound(uint64_t o, uint64_t n) {
  const uint64_t lines = SaturatingAdd(SaturatingAdd(o, n), SaturatingAdd(o, n));
  const uint64_t hunks = 1 + std::min(o, n) / 7;
  const uint64_t hunk_lines = hunks > std::numeric_limits<uint64_t>::max() / kHunkLineMaxBytes
                                  ? std::numeric_limits<uint64_t>::max()
                                  : hunks * kHunkLineMaxBytes;
  return SaturatingAdd(SaturatingAdd(lines, hunk_lines), kNoNewlineLinesBytes);
}

uint64_t LiteralUpperBound(uint64_t size) {
  return LiteralHunkSize(size, DeflatedUpperBound(size));
}

uint64_t SectionUpperBound(std::string_view path, const Side& o, const Side& n) {
  const uint64_t header = HeaderUpperBound(path);
  if (git_oid_equal(&o.oid, &n.oid) != 0) return header;
  const uint64_t text = TextUpperBound(o.facts.size, n.facts.size);
  if (o.mode == kModeGitlink || n.mode == kModeGitlink) return SaturatingAdd(header, text);
  const uint64_t binary = SaturatingAdd(
      kBinaryPatchLineBytes,
      SaturatingAdd(LiteralUpperBound(n.facts.size), LiteralUpperBound(o.facts.size)));
  const ContentKind a = o.facts.kind;
  const ContentKind b = n.facts.kind;
  uint64_t body;
  if (a == ContentKind::kBinary || b == ContentKind::kBinary) {
    body = binary;
  } else if (a == ContentKind::kText && b == ContentKind::kText) {
    body = text;
  } else {
    body = std::max(text, binary);
  }
  return SaturatingAdd(header, body);
}

}  // namespace

uint64_t ChangeUpperBound(const TreeChange& c, const ChangeFacts& f) {
  if (!f.known) return std::numeric_limits<uint64_t>::max();
  const Side old_side{c.old_mode, c.old_oid, f.old_side};
  const Side new_side{c.new_mode, c.new_oid, f.new_side};
  if (c.status == 'T') {
    const Side absent{0, git_oid{}, SideFacts{}};
    return SaturatingAdd(SectionUpperBound(c.path, old_side, absent),
                         SectionUpperBound(c.path, absent, new_side));
  }
  return SectionUpperBound(c.path, old_side, new_side);
}

}  // namespace gentle::exporter
