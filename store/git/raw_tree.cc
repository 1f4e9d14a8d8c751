#include "store/git/raw_tree.h"

#include <algorithm>
#include <cstring>

#include "store/git/git_util.h"

namespace gentle::store::git {
namespace {

// An average git tree entry ("100644 name\0" + 20-byte id) takes about 40 bytes; reserving for
// entries of 28 bytes avoids regrowing the vector on nearly every tree.
constexpr size_t kSmallEntryBytes = 28;

Status Malformed(const git_oid& id) {
  return Status(Code::kObjectsMissing, "tree " + OidHex(id) + " is malformed")
      .WithDetail(DetailKey::kObject, OidHex(id))
      .WithDetail(DetailKey::kReason, "malformed");
}

}  // namespace

bool ParseTree(std::string_view data, std::vector<RawTreeEntry>* out) {
  out->clear();
  out->reserve(data.size() / kSmallEntryBytes + 1);
  size_t pos = 0;
  while (pos < data.size()) {
    uint32_t mode = 0;
    const size_t mode_start = pos;
    while (pos < data.size() && data[pos] >= '0' && data[pos] <= '7') {
      mode = mode * 8 + static_cast<uint32_t>(data[pos] - '0');
      if (mode > 0xFFFF) return false;
      ++pos;
    }
    if (pos == mode_start || pos >= data.size() || data[pos] != ' ') return false;
    ++pos;
    const size_t nul = data.find('\0', pos);
    if (nul == std::string_view::npos || nul == pos || nul - pos > 0xFFFF) return false;
    if (data.size() - (nul + 1) < GIT_OID_RAWSZ) return false;
    RawTreeEntry entry;
    entry.mode = mode;
    entry.name = data.substr(pos, nul - pos);
    std::memcpy(entry.id.id, data.data() + nul + 1, GIT_OID_RAWSZ);
    out->push_back(entry);
    pos = nul + 1 + GIT_OID_RAWSZ;
  }
  return true;
}

int TreeOrderCompare(const RawTreeEntry& a, const RawTreeEntry& b) {
  const size_t common = std::min(a.name.size(), b.name.size());
  if (const int cmp = std::memcmp(a.name.data(), b.name.data(), common); cmp != 0) return cmp;
  // One name is a prefix of the other: compare the next byte, '/' standing in after a subtree's
  // name and nothing (0) after a file's.
  auto next = [common](const RawTreeEntry& e) -> int {
    if (e.name.size() > common) return static_cast<unsigned char>(e.name[common]);
    return e.is_tree() ? '/' : 0;
  };
  return next(a) - next(b);
}

bool RawTree::CanonicalOrder() const {
  for (size_t i = 1; i < entries_.size(); ++i) {
    if (!TreeOrderLess(entries_[i - 1], entries_[i])) return false;
  }
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].is_tree() && FileNamedLikeSubtree(i)) return false;
  }
  return true;
}

bool RawTree::FileNamedLikeSubtree(size_t subtree) const {
  // In tree order a file "foo" sorts as "foo" and the subtree "foo" as "foo/"; only names that
  // extend "foo" with a byte below '/' ("foo.c", "foo-x/") can sit between them. Walk back over
  // those: usually none, so the whole check stays linear.
  const std::string_view name = entries_[subtree].name;
  for (size_t j = subtree; j > 0; --j) {
    const RawTreeEntry& before = entries_[j - 1];
    if (before.name == name) return !before.is_tree();
    const bool extends_below_slash = before.name.size() > name.size() &&
                                     before.name.substr(0, name.size()) == name &&
                                     static_cast<unsigned char>(before.name[name.size()]) < '/';
    if (!extends_below_slash) return false;
  }
  return false;
}

Result<RawTree> ReadTree(git_odb* odb, const git_oid& id, uint64_t max_bytes) {
  auto object = ReadObject(odb, id, GIT_OBJECT_TREE, max_bytes);
  if (!object.ok()) return object.status();
  RawTree tree;
  tree.object_ = std::move(object).value();
  const std::string_view data(static_cast<const char*>(git_odb_object_data(tree.object_.get())),
                              git_odb_object_size(tree.object_.get()));
  if (!ParseTree(data, &tree.entries_)) return Malformed(id);
  return tree;
}

Result<RawTree> ParseRawTree(std::string data, const git_oid& id) {
  RawTree tree;
  tree.in_memory_ = std::make_shared<const std::string>(std::move(data));
  if (!ParseTree(*tree.in_memory_, &tree.entries_)) return Malformed(id);
  return tree;
}

}  // namespace gentle::store::git
