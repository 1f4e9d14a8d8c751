#include "store/raw_tree.h"

#include <algorithm>
#include <cstring>

#include "store/tree_rows.h"

namespace gentle::store {
namespace {

// Orders an entry against (name, is_tree) in git's tree order: names compare bytewise, a subtree's
// as if it ended in '/'.
bool KeyLess(std::string_view a, bool a_tree, std::string_view b, bool b_tree) {
  const size_t common = std::min(a.size(), b.size());
  if (const int cmp = std::memcmp(a.data(), b.data(), common); cmp != 0) return cmp < 0;
  auto next = [common](std::string_view name, bool tree) -> unsigned {
    if (name.size() > common) return static_cast<unsigned char>(name[common]);
    return tree ? '/' : 0;
  };
  return next(a, a_tree) < next(b, b_tree);
}

}  // namespace

bool ParseTree(std::string_view data, std::vector<RawTreeEntry>* out) {
  out->clear();
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

bool TreeOrderLess(const RawTreeEntry& a, const RawTreeEntry& b) {
  return KeyLess(a.name, a.is_tree(), b.name, b.is_tree());
}

bool RawTree::CanonicalOrder() const {
  for (size_t i = 1; i < entries_.size(); ++i) {
    if (!TreeOrderLess(entries_[i - 1], entries_[i])) return false;
  }
  // A file and a subtree of the same name need not be adjacent in tree order ("foo", "foo.c",
  // "foo/"): look each subtree's name up as a file (the entries are now known to be in order).
  for (const RawTreeEntry& e : entries_) {
    if (e.is_tree() && FindAs(e.name, /*as_tree=*/false) != nullptr) return false;
  }
  return true;
}

const RawTreeEntry* RawTree::FindAs(std::string_view name, bool as_tree) const {
  auto it = std::lower_bound(entries_.begin(), entries_.end(), name,
                             [as_tree](const RawTreeEntry& e, std::string_view n) {
                               return KeyLess(e.name, e.is_tree(), n, as_tree);
                             });
  return it != entries_.end() && it->name == name && it->is_tree() == as_tree ? &*it : nullptr;
}

Result<RawTree> ReadTree(git_odb* odb, const git_oid& id) {
  auto object = ReadObject(odb, id, GIT_OBJECT_TREE);
  if (!object.ok()) return object.status();
  RawTree tree;
  tree.object_ = std::move(object).value();
  const std::string_view data(static_cast<const char*>(git_odb_object_data(tree.object_.get())),
                              git_odb_object_size(tree.object_.get()));
  if (!ParseTree(data, &tree.entries_)) {
    return Status(Code::kObjectsMissing, "tree " + OidHex(id) + " is malformed")
        .WithDetail("object", OidHex(id))
        .WithDetail("reason", "malformed");
  }
  return tree;
}

}  // namespace gentle::store
