#include "export/tree_delta.h"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "export/file_section.h"
#include "store/raw_tree.h"
#include "store/repository.h"
#include "store/tree_rows.h"

namespace gentle::exporter {
namespace {

using store::OidHex;
using store::RawTree;
using store::RawTreeEntry;

// Any failure to read a tree that must be read (absent, not a tree, malformed, or not hashing to
// its id) is objects_missing, naming the tree.
Result<RawTree> ReadTree(git_odb* odb, const git_oid& id) {
  auto tree = store::ReadTree(odb, id);
  if (tree.ok()) return tree;
  return Status(Code::kObjectsMissing, "tree " + OidHex(id) + " cannot be read from the object " +
                                           "database: " + tree.status().message())
      .WithDetail("object", OidHex(id));
}

// What one DiffTrees call shares across its recursion.
struct Walk {
  git_odb* odb;
  bool canonical = true;  // every tree read so far is in git's canonical order
};

// A subtree under the root `root_hex` that store::AppendTreeRows could not read: objects_missing,
// naming that subtree.
Status UnderRoot(const Status& read, const std::string& root_hex) {
  if (read.ok()) return read;
  Status status(Code::kObjectsMissing,
                "cannot read a tree under " + root_hex + ": " + read.message());
  if (auto object = read.details().find("object"); object != read.details().end()) {
    status.WithDetail("object", object->second);
  }
  return status;
}

// Every row of `tree` / of `entry` (store::AppendTreeRows), for one side of the walk.
Status CollectAll(Walk* walk, const RawTree& tree, const std::string& prefix,
                  const std::string& root_hex, store::TreeRows* out) {
  return UnderRoot(store::AppendTreeRows(walk->odb, tree, prefix, out, &walk->canonical), root_hex);
}
Status CollectEntry(Walk* walk, const RawTreeEntry& entry, const std::string& prefix,
                    const std::string& root_hex, store::TreeRows* out) {
  return UnderRoot(store::AppendEntryRows(walk->odb, entry, prefix, out, &walk->canonical),
                   root_hex);
}

// The rows of `a` and of `b` (trees at the same path) that can differ: entries equal on both
// sides (same name, type, canonical mode and id) are left out, and equal subtrees are not read.
// BuildManifest over these subsets yields exactly what it yields over the full flattened trees,
// because the rows left out are present, identical, on both sides. Trees not in canonical order
// (hash-object --literally) are taken whole, and the walk records that it met one.
Status DiffRows(Walk* walk, const RawTree& a, const RawTree& b, const std::string& prefix,
                const std::string& a_hex, const std::string& b_hex, store::TreeRows* out_a,
                store::TreeRows* out_b) {
  if (!a.CanonicalOrder() || !b.CanonicalOrder()) {
    GENTLE_RETURN_IF_ERROR(CollectAll(walk, a, prefix, a_hex, out_a));
    return CollectAll(walk, b, prefix, b_hex, out_b);
  }
  // Both are in tree order: walk them together. Entries with equal keys have the same name and
  // type; a file and a subtree of one name have different keys and are taken whole on each side,
  // which is what a type change needs.
  const std::vector<RawTreeEntry>& ea = a.entries();
  const std::vector<RawTreeEntry>& eb = b.entries();
  size_t i = 0, j = 0;
  while (i < ea.size() || j < eb.size()) {
    const int order = i == ea.size()   ? 1
                      : j == eb.size() ? -1
                                       : store::TreeOrderCompare(ea[i], eb[j]);
    if (order < 0) {
      GENTLE_RETURN_IF_ERROR(CollectEntry(walk, ea[i++], prefix, a_hex, out_a));
      continue;
    }
    if (order > 0) {
      GENTLE_RETURN_IF_ERROR(CollectEntry(walk, eb[j++], prefix, b_hex, out_b));
      continue;
    }
    const RawTreeEntry& x = ea[i++];
    const RawTreeEntry& y = eb[j++];
    const bool same_id = git_oid_equal(&x.id, &y.id);
    if (x.is_tree() && y.is_tree()) {
      if (same_id) continue;
      GENTLE_ASSIGN_OR_RETURN(RawTree sa, ReadTree(walk->odb, x.id));
      GENTLE_ASSIGN_OR_RETURN(RawTree sb, ReadTree(walk->odb, y.id));
      std::string sub = prefix;
      sub.append(x.name);
      sub.push_back('/');
      GENTLE_RETURN_IF_ERROR(DiffRows(walk, sa, sb, sub, a_hex, b_hex, out_a, out_b));
      continue;
    }
    if (!x.is_tree() && !y.is_tree() && same_id && CanonicalMode(x.mode) == CanonicalMode(y.mode)) {
      continue;
    }
    GENTLE_RETURN_IF_ERROR(CollectEntry(walk, x, prefix, a_hex, out_a));
    GENTLE_RETURN_IF_ERROR(CollectEntry(walk, y, prefix, b_hex, out_b));
  }
  return Status::Ok();
}

// The rows of both trees that can differ, each sorted bytewise (see DiffRows). The empty tree is
// known to libgit2 without being stored. *canonical: whether every tree read was in git's order.
Status ChangedRows(git_repository* repo, const git_oid& base_id, const git_oid& candidate_id,
                   store::TreeRows* base, store::TreeRows* candidate, bool* canonical) {
  GENTLE_ASSIGN_OR_RETURN(store::OdbPtr odb, store::RepositoryOdb(repo));
  const std::string base_hex = OidHex(base_id), candidate_hex = OidHex(candidate_id);
  GENTLE_ASSIGN_OR_RETURN(RawTree a, ReadTree(odb.get(), base_id));
  GENTLE_ASSIGN_OR_RETURN(RawTree b, ReadTree(odb.get(), candidate_id));
  Walk walk{odb.get()};
  GENTLE_RETURN_IF_ERROR(DiffRows(&walk, a, b, "", base_hex, candidate_hex, base, candidate));
  *canonical = walk.canonical;
  auto by_path = [](const store::TreeRow& x, const store::TreeRow& y) { return x.path < y.path; };
  if (!std::is_sorted(base->begin(), base->end(), by_path)) {
    std::sort(base->begin(), base->end(), by_path);
  }
  if (!std::is_sorted(candidate->begin(), candidate->end(), by_path)) {
    std::sort(candidate->begin(), candidate->end(), by_path);
  }
  return Status::Ok();
}

}  // namespace

Result<std::vector<TreeChange>> DiffTrees(git_repository* repo, const git_oid& base_tree,
                                          const git_oid& candidate_tree, bool* canonical_order) {
  store::TreeRows base, candidate;
  bool canonical = true;
  GENTLE_RETURN_IF_ERROR(
      ChangedRows(repo, base_tree, candidate_tree, &base, &candidate, &canonical));
  if (canonical_order != nullptr) *canonical_order = canonical;
  std::vector<TreeChange> out;
  git_oid zero;
  std::memset(&zero, 0, sizeof(zero));
  auto added = [&](const store::TreeRow& r) {
    out.push_back({r.path, 'A', 0, r.mode, zero, r.oid});
  };
  auto deleted = [&](const store::TreeRow& r) {
    out.push_back({r.path, 'D', r.mode, 0, r.oid, zero});
  };
  size_t i = 0, j = 0;
  while (i < base.size() || j < candidate.size()) {
    if (j == candidate.size() || (i < base.size() && base[i].path < candidate[j].path)) {
      deleted(base[i++]);
    } else if (i == base.size() || candidate[j].path < base[i].path) {
      added(candidate[j++]);
    } else {
      const store::TreeRow& a = base[i++];
      const store::TreeRow& b = candidate[j++];
      if (a.mode == b.mode && git_oid_equal(&a.oid, &b.oid)) continue;
      const char status = (a.mode & 0170000) == (b.mode & 0170000) ? 'M' : 'T';
      out.push_back({a.path, status, a.mode, b.mode, a.oid, b.oid});
    }
  }
  return out;
}

}  // namespace gentle::exporter
