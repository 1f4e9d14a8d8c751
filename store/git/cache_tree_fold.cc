#include "store/git/cache_tree_fold.h"

#include <algorithm>
#include <cstdint>
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

// The row of an index entry as its own tree holds it.
TreeRow EntryRow(const WorktreeIndexEntry& e) {
  return {std::string(e.path), CanonicalMode(e.mode), e.id};
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

std::vector<const CacheTreeFold::Dir*> CacheTreeFold::CleanDirs(
    const std::vector<char>& entry_is_row, const std::vector<std::string>& intended) const {
  // not_rows[k]: how many of the first k entries are not their own rows, so that a directory's
  // entries are all rows when the count does not grow across them.
  std::vector<uint32_t> not_rows(entry_is_row.size() + 1, 0);
  for (size_t k = 0; k < entry_is_row.size(); ++k) {
    not_rows[k + 1] = not_rows[k] + (entry_is_row[k] ? 0 : 1);
  }
  std::vector<const Dir*> out;
  size_t taken_up_to = 0;  // the entries of the directories taken so far end here
  for (const Dir& dir : dirs_) {
    // Sorted by path, a directory inside one taken starts before that one's entries end; any
    // other starts after them.
    if (dir.first < taken_up_to || dir.last >= not_rows.size()) continue;
    if (not_rows[dir.last] != not_rows[dir.first] || AnyUnder(intended, dir.path)) continue;
    out.push_back(&dir);
    taken_up_to = dir.last;
  }
  return out;
}

// With no intended-untracked path under the directory, its candidate rows come only from its index
// entries, in index order: at most one row per entry, or one folded row (CleanDirs) for all the
// entries of a subdirectory. Walking the rows against the entries, each folded row must start at
// the next entry and end where its directory's entries end; with as many entries accounted for as
// the directory has, rows and entries then pair one for one in order, so comparing each pair's
// mode and id compares path, mode and id.
bool CacheTreeFold::Clean(const Dir& dir, const std::vector<WorktreeIndexEntry>& entries,
                          const std::vector<std::string>& intended,
                          const TreeRows& candidate) const {
  if (AnyUnder(intended, dir.path)) return false;
  auto [row, row_end] = UnderDir(candidate, dir.path);
  if (row == row_end && row > 0) {
    // Inside a candidate fold: every entry under it, and so under `dir`, is its own row.
    const TreeRow& above = candidate[row - 1];
    const Dir* folded = above.mode == 040000 ? Find(above.path) : nullptr;
    if (folded != nullptr && dir.path.compare(0, folded->path.size(), folded->path) == 0) {
      return folded->first <= dir.first && dir.last <= folded->last;
    }
  }
  size_t k = dir.first;
  for (; row < row_end; ++row) {
    const TreeRow& r = candidate[row];
    if (r.mode == 040000) {
      const Dir* sub = Find(r.path);
      if (sub == nullptr || sub->first != k || !git_oid_equal(&sub->id, &r.oid)) return false;
      k = sub->last;
      continue;
    }
    if (k == dir.last) return false;
    const WorktreeIndexEntry& e = entries[k++];
    if (e.stage() != 0 || (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD)) return false;
    if (r.mode != CanonicalMode(e.mode) || !git_oid_equal(&r.oid, &e.id)) return false;
  }
  return k == dir.last;
}

Status CacheTreeFold::UnfoldCandidate(const std::vector<WorktreeIndexEntry>& entries,
                                      const TreeRows& base, TreeRows* candidate) const {
  std::vector<const std::string*> base_folds;  // sorted, as the rows are; none inside another
  for (const TreeRow& row : base) {
    if (row.mode == 040000) base_folds.push_back(&row.path);
  }
  // Whether a base fold is `path` or a directory above it: then it is the greatest fold not after
  // `path` (a fold between the two would be inside it).
  auto in_base_fold = [&base_folds](const std::string& path) {
    auto it = std::upper_bound(base_folds.begin(), base_folds.end(), path,
                               [](const std::string& p, const std::string* f) { return p < *f; });
    return it != base_folds.begin() && path.compare(0, (*(it - 1))->size(), **(it - 1)) == 0;
  };
  auto unshared = [&](const TreeRow& row) { return row.mode == 040000 && !in_base_fold(row.path); };
  if (std::none_of(candidate->begin(), candidate->end(), unshared)) return Status::Ok();
  TreeRows out;
  out.reserve(candidate->size());
  for (TreeRow& row : *candidate) {
    if (!unshared(row)) {
      out.push_back(std::move(row));
      continue;
    }
    const Dir* dir = Find(row.path);
    if (dir == nullptr) return Status(Code::kInternal, "a candidate fold with no cache-tree entry");
    for (size_t k = dir->first; k < dir->last; ++k) {
      out.push_back(EntryRow(entries[k]));
    }
  }
  *candidate = std::move(out);
  return Status::Ok();
}

// The base's subtree at `dir` has the cache-tree's id (condition 2), which is the tree of the index
// entries under `dir` (condition 1, trusted as git's diff-index trusts it): so its rows are those
// entries, less the intent-to-add ones no tree holds (git leaves their directories invalid
// anyway), each subdirectory the candidate left clean folded again. No tree is read: a changed
// file in a directory of 11,000 files cost a read of that directory's tree object.
bool CacheTreeFold::AppendIndexRows(const Dir& dir, const std::vector<WorktreeIndexEntry>& entries,
                                    const std::vector<std::string>& intended,
                                    const TreeRows& candidate, TreeRows* out) const {
  for (size_t k = dir.first; k < dir.last; ++k) {
    if (entries[k].stage() != 0) return false;  // not from git: the tree is read instead
  }
  // The directories after `dir` in path order: its subdirectories first, each at its first entry.
  auto sub = std::upper_bound(dirs_.begin(), dirs_.end(), dir.path,
                              [](const std::string& p, const Dir& d) { return p < d.path; });
  for (size_t k = dir.first; k < dir.last;) {
    while (sub != dirs_.end() && sub->first < k) ++sub;  // inside a subdirectory already passed
    const Dir* folded = nullptr;
    for (auto s = sub; s != dirs_.end() && s->first == k; ++s) {  // outermost first
      if (s->path.compare(0, dir.path.size(), dir.path) == 0 &&
          Clean(*s, entries, intended, candidate)) {
        folded = &*s;
        break;
      }
    }
    if (folded != nullptr) {
      out->push_back({folded->path, 040000, folded->id});
      k = folded->last;
      continue;
    }
    const WorktreeIndexEntry& e = entries[k++];
    if (e.flags_extended & GIT_INDEX_ENTRY_INTENT_TO_ADD) continue;
    out->push_back(EntryRow(e));
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
    if (AppendIndexRows(*dir, entries, intended, *candidate, &base_out)) continue;
    Result<RawTree> sub = ReadTree(odb, row.oid);
    Status read =
        sub.ok() ? AppendTreeRows(odb, *sub, row.path, &base_out, canonical, nullptr, &unfolding)
                 : sub.status();
    if (!read.ok()) {
      return Status(Code::kObjectsMissing,
                    "cannot read tree " + OidHex(row.oid) + ": " + read.message())
          .WithDetail(DetailKey::kObject, OidHex(row.oid));
    }
  }
  *base = std::move(base_out);
  GENTLE_RETURN_IF_ERROR(UnfoldCandidate(entries, *base, candidate));

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
