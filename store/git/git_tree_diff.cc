#include "store/git/git_tree_diff.h"

#include <algorithm>
#include <cstring>

#include "store/git/tree_rows.h"

namespace gentle::store::git {
namespace {

class Walk {
 public:
  Walk(const SubtreeReader& read, std::vector<TreeChange>* out) : read_(read), out_(out) {
    std::memset(&zero_, 0, sizeof(zero_));
  }

  // Merges the entries of `a` (base) and `b` (candidate), both at `prefix_`.
  Status Both(const RawTree& a, const RawTree& b) {
    const std::vector<RawTreeEntry>& ea = a.entries();
    const std::vector<RawTreeEntry>& eb = b.entries();
    size_t i = 0, j = 0;
    while (i < ea.size() || j < eb.size()) {
      // Most entries of two trees of one history are the same entry: same name, mode and id.
      if (i < ea.size() && j < eb.size() && SameEntry(ea[i], eb[j])) {
        ++i, ++j;
        continue;
      }
      const int order = i == ea.size() ? 1 : j == eb.size() ? -1 : TreeOrderCompare(ea[i], eb[j]);
      if (order < 0) {
        GENTLE_RETURN_IF_ERROR(OneSide(ea[i++], 'D'));
        continue;
      }
      if (order > 0) {
        GENTLE_RETURN_IF_ERROR(OneSide(eb[j++], 'A'));
        continue;
      }
      GENTLE_RETURN_IF_ERROR(Paired(ea[i++], eb[j++]));
    }
    return Status::Ok();
  }

 private:
  // Whether `x` and `y` are one entry, byte for byte: nothing to report and nothing to enter.
  static bool SameEntry(const RawTreeEntry& x, const RawTreeEntry& y) {
    return x.mode == y.mode && git_oid_equal(&x.id, &y.id) && x.name == y.name;
  }

  Status Paired(const RawTreeEntry& x, const RawTreeEntry& y) {
    const bool same_id = git_oid_equal(&x.id, &y.id);
    if (x.is_tree() && y.is_tree()) {
      if (same_id) return Status::Ok();
      GENTLE_ASSIGN_OR_RETURN(RawTree sa, read_(x.id));
      GENTLE_ASSIGN_OR_RETURN(RawTree sb, read_(y.id));
      const size_t length = Enter(x.name);
      GENTLE_RETURN_IF_ERROR(Both(sa, sb));
      prefix_.resize(length);
      return Status::Ok();
    }
    if (x.is_tree() || y.is_tree()) {
      // Equal in tree order yet of two kinds: a name containing '/' (see the header).
      GENTLE_RETURN_IF_ERROR(OneSide(x, 'D'));
      return OneSide(y, 'A');
    }
    const uint32_t old_mode = CanonicalMode(x.mode);
    const uint32_t new_mode = CanonicalMode(y.mode);
    if (same_id && old_mode == new_mode) return Status::Ok();
    const char status = (old_mode & 0170000) == (new_mode & 0170000) ? 'M' : 'T';
    out_->push_back({Path(x.name), status, old_mode, new_mode, x.id, y.id});
    return Status::Ok();
  }

  // `entry`, present on one side only: deleted ('D') or added ('A'), a subtree entry by entry.
  Status OneSide(const RawTreeEntry& entry, char status) {
    if (!entry.is_tree()) {
      const uint32_t mode = CanonicalMode(entry.mode);
      if (status == 'D') {
        out_->push_back({Path(entry.name), 'D', mode, 0, entry.id, zero_});
      } else {
        out_->push_back({Path(entry.name), 'A', 0, mode, zero_, entry.id});
      }
      return Status::Ok();
    }
    GENTLE_ASSIGN_OR_RETURN(RawTree sub, read_(entry.id));
    const size_t length = Enter(entry.name);
    for (const RawTreeEntry& inner : sub.entries()) GENTLE_RETURN_IF_ERROR(OneSide(inner, status));
    prefix_.resize(length);
    return Status::Ok();
  }

  // Appends "name/" to the prefix; returns the prefix's length before. (A failed walk is abandoned
  // whole, so only a walk that succeeds restores the prefix.)
  size_t Enter(std::string_view name) {
    const size_t length = prefix_.size();
    prefix_.append(name);
    prefix_.push_back('/');
    return length;
  }

  std::string Path(std::string_view name) const {
    std::string path;
    path.reserve(prefix_.size() + name.size());
    path.append(prefix_);
    path.append(name);
    return path;
  }

  const SubtreeReader& read_;
  std::vector<TreeChange>* out_;
  std::string prefix_;
  git_oid zero_;
};

}  // namespace

Result<std::vector<TreeChange>> GitTreeDiff(const SubtreeReader& read_subtree, const RawTree& base,
                                            const RawTree& candidate) {
  std::vector<TreeChange> changes;
  Walk walk(read_subtree, &changes);
  GENTLE_RETURN_IF_ERROR(walk.Both(base, candidate));
  return changes;
}

std::vector<std::string> SortedPaths(const std::vector<TreeChange>& changes) {
  std::vector<std::string> paths;
  paths.reserve(changes.size());
  for (const TreeChange& change : changes) paths.push_back(change.path);
  // Already sorted when every tree walked was in git's canonical order.
  if (!std::is_sorted(paths.begin(), paths.end())) std::sort(paths.begin(), paths.end());
  return paths;
}

}  // namespace gentle::store::git
