#include "store/git/cache_tree_fold.h"

#include <algorithm>
#include <utility>

#include "store/git/git_util.h"
#include "store/git/raw_tree.h"

namespace gentle::store::git {
namespace {

// The items of sorted `items`, from `from` on, whose path starts with `dir` ("a/b/"): they are
// exactly those from `dir` up to `dir` with its last '/' made '0', the next byte.
template <typename Item>
std::pair<size_t, size_t> UnderDir(const std::vector<Item>& items, const std::string& dir,
                                   size_t from = 0) {
  std::string past = dir;
  past.back() = '0';
  auto less = [](const Item& item, const std::string& key) { return item.path < key; };
  auto first =
      std::lower_bound(items.begin() + static_cast<std::ptrdiff_t>(from), items.end(), dir, less);
  auto last = std::lower_bound(first, items.end(), past, less);
  return {static_cast<size_t>(first - items.begin()), static_cast<size_t>(last - items.begin())};
}

bool AnyUnder(const std::vector<std::string>& sorted, const std::string& dir) {
  auto it = std::lower_bound(sorted.begin(), sorted.end(), dir);
  return it != sorted.end() && it->compare(0, dir.size(), dir) == 0;
}

}  // namespace

class CacheTreeFold::Unfolding : public SubtreeFold {
 public:
  Unfolding(const CacheTreeFold& fold, const std::vector<WorktreeIndexEntry>& entries,
            const std::vector<std::string>& intended, const TreeRows& candidate)
      : fold_(fold), entries_(entries), intended_(intended), candidate_(candidate) {}

  bool Fold(const std::string& path, const git_oid& id) const override {
    const Dir* dir = fold_.Find(path);
    return dir != nullptr && git_oid_equal(&dir->id, &id) &&
           fold_.Clean(*dir, entries_, intended_, candidate_);
  }

 private:
  const CacheTreeFold& fold_;
  const std::vector<WorktreeIndexEntry>& entries_;
  const std::vector<std::string>& intended_;
  const TreeRows& candidate_;
};

// Directories sorted by path, so each one's first entry is found from the previous one's on
// (galloping, not a search of the whole index), and its count is checked at its two ends.
CacheTreeFold::CacheTreeFold(const std::vector<WorktreeIndexEntry>& entries,
                             const std::vector<CacheTreeDir>& dirs) {
  std::vector<const CacheTreeDir*> sorted;
  sorted.reserve(dirs.size());
  for (const CacheTreeDir& dir : dirs) {
    if (!dir.path.empty()) sorted.push_back(&dir);  // the root: its top-level rows are always made
  }
  std::sort(sorted.begin(), sorted.end(),
            [](const CacheTreeDir* a, const CacheTreeDir* b) { return a->path < b->path; });
  auto under = [&](size_t k, const std::string& dir) {
    return k < entries.size() && entries[k].path.compare(0, dir.size(), dir) == 0;
  };
  size_t from = 0;
  for (const CacheTreeDir* dir : sorted) {
    size_t step = 1, hi = from;
    while (hi < entries.size() && entries[hi].path < dir->path) {
      from = hi + 1;
      hi += step;
      step *= 2;
    }
    auto less = [](const WorktreeIndexEntry& e, const std::string& key) { return e.path < key; };
    const auto begin = entries.begin() + static_cast<std::ptrdiff_t>(from);
    const auto end = entries.begin() + static_cast<std::ptrdiff_t>(std::min(hi, entries.size()));
    from = static_cast<size_t>(std::lower_bound(begin, end, dir->path, less) - entries.begin());
    const size_t last = from + dir->entry_count;
    if (dir->entry_count == 0 || !under(from, dir->path) || !under(last - 1, dir->path) ||
        under(last, dir->path)) {
      continue;  // the count does not match the entries under it
    }
    dirs_.push_back({dir->path, dir->id, from, last});
  }
}

const CacheTreeFold::Dir* CacheTreeFold::Find(const std::string& path) const {
  auto it = std::lower_bound(dirs_.begin(), dirs_.end(), path,
                             [](const Dir& d, const std::string& p) { return d.path < p; });
  return it != dirs_.end() && it->path == path ? &*it : nullptr;
}

bool CacheTreeFold::Fold(const std::string& path, const git_oid& id) const {
  const Dir* dir = Find(path);
  return dir != nullptr && git_oid_equal(&dir->id, &id);
}

// With no intended-untracked path under the directory, its candidate rows come only from its index
// entries, in index order and at most one per entry; as many rows as entries is then one row per
// entry, so comparing them pairwise compares path, mode and id.
bool CacheTreeFold::Clean(const Dir& dir, const std::vector<WorktreeIndexEntry>& entries,
                          const std::vector<std::string>& intended,
                          const TreeRows& candidate) const {
  if (AnyUnder(intended, dir.path)) return false;
  auto [row, row_end] = UnderDir(candidate, dir.path);
  if (row_end - row != dir.last - dir.first) return false;
  for (size_t k = dir.first; k < dir.last; ++k, ++row) {
    const WorktreeIndexEntry& e = entries[k];
    const TreeRow& r = candidate[row];
    if (e.stage() != 0 || (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD)) return false;
    if (r.mode != CanonicalMode(e.mode) || !git_oid_equal(&r.oid, &e.id)) return false;
  }
  return true;
}

Status CacheTreeFold::Finish(git_odb* odb, const std::vector<WorktreeIndexEntry>& entries,
                             const std::vector<std::string>& intended, TreeRows* base,
                             TreeRows* candidate, bool* canonical) const {
  const Unfolding unfolding(*this, entries, intended, *candidate);
  TreeRows base_out;
  base_out.reserve(base->size());
  for (TreeRow& row : *base) {
    if (row.mode != 040000) {
      base_out.push_back(std::move(row));
      continue;
    }
    const Dir* dir = Find(row.path);
    if (dir == nullptr) return Status(Code::kInternal, "a folded row with no cache-tree entry");
    if (Clean(*dir, entries, intended, *candidate)) {
      base_out.push_back(std::move(row));
      continue;
    }
    Result<RawTree> sub = ReadTree(odb, row.oid);
    Status read =
        sub.ok() ? AppendTreeRows(odb, *sub, row.path, &base_out, canonical, nullptr, &unfolding)
                 : sub.status();
    if (!read.ok()) {
      return Status(Code::kObjectsMissing,
                    "cannot read tree " + OidHex(row.oid) + ": " + read.message())
          .WithDetail("object", OidHex(row.oid));
    }
  }
  *base = std::move(base_out);

  // Every fold left in the base is clean: the candidate's rows under it become its folded row.
  TreeRows candidate_out;
  candidate_out.reserve(candidate->size());
  size_t next = 0;
  for (const TreeRow& row : *base) {
    if (row.mode != 040000) continue;
    auto [first, last] = UnderDir(*candidate, row.path, next);  // rows before `next` moved out
    for (; next < first; ++next) candidate_out.push_back(std::move((*candidate)[next]));
    candidate_out.push_back(row);
    next = last;
  }
  for (; next < candidate->size(); ++next) candidate_out.push_back(std::move((*candidate)[next]));
  *candidate = std::move(candidate_out);
  return Status::Ok();
}

}  // namespace gentle::store::git
