#include "export/tree_delta.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string_view>

#include "export/file_section.h"
#include "store/repository.h"
#include "store/tree_rows.h"

namespace gentle::exporter {
namespace {

using store::LastGitError;
using store::OidHex;

struct TreeFree {
  void operator()(git_tree* tree) const { git_tree_free(tree); }
};
using TreePtr = std::unique_ptr<git_tree, TreeFree>;

Status MissingTree(const git_oid& id, const std::string& /*root_hex*/) {
  return Status(Code::kObjectsMissing, "tree " + OidHex(id) + " is not in the object database")
      .WithDetail("object", OidHex(id));
}

struct WalkPayload {
  const std::string* prefix;
  store::TreeRows* rows;
};

int CollectRow(const char* root, const git_tree_entry* entry, void* payload) {
  if (git_tree_entry_type(entry) == GIT_OBJECT_TREE) return 0;
  auto* p = static_cast<WalkPayload*>(payload);
  p->rows->push_back({*p->prefix + root + git_tree_entry_name(entry),
                      CanonicalMode(git_tree_entry_filemode_raw(entry)),
                      *git_tree_entry_id(entry)});
  return 0;
}

// Every non-tree entry under `tree`, its paths prefixed with `prefix` (FlattenTree's rows).
Status CollectAll(const git_tree* tree, const std::string& prefix, const std::string& root_hex,
                  store::TreeRows* out) {
  WalkPayload payload{&prefix, out};
  if (git_tree_walk(tree, GIT_TREEWALK_PRE, CollectRow, &payload) != 0) {
    return Status(Code::kObjectsMissing, "cannot read a tree under " + root_hex + ": " +
                                             LastGitError())
        .WithDetail("object", root_hex);
  }
  return Status::Ok();
}

// The rows of one side's entry: itself, or everything under it when it is a tree.
Status CollectEntry(git_repository* repo, const git_tree_entry* entry, const std::string& prefix,
                    const std::string& root_hex, store::TreeRows* out) {
  const std::string name = git_tree_entry_name(entry);
  if (git_tree_entry_type(entry) != GIT_OBJECT_TREE) {
    out->push_back({prefix + name, CanonicalMode(git_tree_entry_filemode_raw(entry)),
                    *git_tree_entry_id(entry)});
    return Status::Ok();
  }
  git_tree* raw = nullptr;
  if (git_tree_lookup(&raw, repo, git_tree_entry_id(entry)) != 0) {
    return MissingTree(*git_tree_entry_id(entry), root_hex);
  }
  TreePtr sub(raw);
  return CollectAll(sub.get(), prefix + name + "/", root_hex, out);
}

// Entry names strictly increasing in git's tree order (a subtree compares as "name/"): what
// git_tree_entry_byname's binary search needs, and true of every tree git itself writes.
bool CanonicalOrder(const git_tree* tree) {
  const size_t n = git_tree_entrycount(tree);
  auto key = [](const git_tree_entry* e) {
    std::string k = git_tree_entry_name(e);
    if (git_tree_entry_type(e) == GIT_OBJECT_TREE) k.push_back('/');
    return k;
  };
  std::vector<std::string_view> names;
  names.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (i > 0 &&
        !(key(git_tree_entry_byindex(tree, i - 1)) < key(git_tree_entry_byindex(tree, i)))) {
      return false;
    }
    names.push_back(git_tree_entry_name(git_tree_entry_byindex(tree, i)));
  }
  // A file and a subtree of the same name would be adjacent in neither order: check names alone.
  std::sort(names.begin(), names.end());
  return std::adjacent_find(names.begin(), names.end()) == names.end();
}

// The rows of `a` and of `b` (trees at the same path) that can differ: entries equal on both
// sides (same name, type, canonical mode and id) are left out, and equal subtrees are not read.
// BuildManifest over these subsets yields exactly what it yields over the full flattened trees,
// because the rows left out are present, identical, on both sides. Trees not in canonical order
// (hash-object --literally) are taken whole, as before.
Status DiffRows(git_repository* repo, const git_tree* a, const git_tree* b,
                const std::string& prefix, const std::string& a_hex, const std::string& b_hex,
                store::TreeRows* out_a, store::TreeRows* out_b) {
  if (!CanonicalOrder(a) || !CanonicalOrder(b)) {
    GENTLE_RETURN_IF_ERROR(CollectAll(a, prefix, a_hex, out_a));
    return CollectAll(b, prefix, b_hex, out_b);
  }
  const size_t na = git_tree_entrycount(a);
  for (size_t i = 0; i < na; ++i) {
    const git_tree_entry* ea = git_tree_entry_byindex(a, i);
    const char* name = git_tree_entry_name(ea);
    const git_tree_entry* eb = git_tree_entry_byname(b, name);
    if (eb == nullptr) {
      GENTLE_RETURN_IF_ERROR(CollectEntry(repo, ea, prefix, a_hex, out_a));
      continue;
    }
    const bool a_tree = git_tree_entry_type(ea) == GIT_OBJECT_TREE;
    const bool b_tree = git_tree_entry_type(eb) == GIT_OBJECT_TREE;
    const bool same_id = git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb));
    if (a_tree && b_tree) {
      if (same_id) continue;
      git_tree* ra = nullptr;
      if (git_tree_lookup(&ra, repo, git_tree_entry_id(ea)) != 0) {
        return MissingTree(*git_tree_entry_id(ea), a_hex);
      }
      TreePtr sa(ra);
      git_tree* rb = nullptr;
      if (git_tree_lookup(&rb, repo, git_tree_entry_id(eb)) != 0) {
        return MissingTree(*git_tree_entry_id(eb), b_hex);
      }
      TreePtr sb(rb);
      GENTLE_RETURN_IF_ERROR(DiffRows(repo, sa.get(), sb.get(), prefix + name + "/", a_hex, b_hex,
                                      out_a, out_b));
      continue;
    }
    if (!a_tree && !b_tree && same_id &&
        CanonicalMode(git_tree_entry_filemode_raw(ea)) ==
            CanonicalMode(git_tree_entry_filemode_raw(eb))) {
      continue;
    }
    GENTLE_RETURN_IF_ERROR(CollectEntry(repo, ea, prefix, a_hex, out_a));
    GENTLE_RETURN_IF_ERROR(CollectEntry(repo, eb, prefix, b_hex, out_b));
  }
  const size_t nb = git_tree_entrycount(b);
  for (size_t j = 0; j < nb; ++j) {
    const git_tree_entry* eb = git_tree_entry_byindex(b, j);
    if (git_tree_entry_byname(a, git_tree_entry_name(eb)) != nullptr) continue;
    GENTLE_RETURN_IF_ERROR(CollectEntry(repo, eb, prefix, b_hex, out_b));
  }
  return Status::Ok();
}

Result<TreePtr> LookupRoot(git_repository* repo, const git_oid& oid) {
  git_tree* raw = nullptr;
  if (git_tree_lookup(&raw, repo, &oid) != 0) return MissingTree(oid, OidHex(oid));
  return TreePtr(raw);
}

// The rows of both trees that can differ, each sorted bytewise (see DiffRows). The empty tree is
// known to libgit2 without being stored.
Status ChangedRows(git_repository* repo, const git_oid& base_id, const git_oid& candidate_id,
                   store::TreeRows* base, store::TreeRows* candidate) {
  const std::string base_hex = OidHex(base_id), candidate_hex = OidHex(candidate_id);
  GENTLE_ASSIGN_OR_RETURN(TreePtr a, LookupRoot(repo, base_id));
  GENTLE_ASSIGN_OR_RETURN(TreePtr b, LookupRoot(repo, candidate_id));
  GENTLE_RETURN_IF_ERROR(DiffRows(repo, a.get(), b.get(), "", base_hex, candidate_hex, base,
                                  candidate));
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
                                          const git_oid& candidate_tree) {
  store::TreeRows base, candidate;
  GENTLE_RETURN_IF_ERROR(ChangedRows(repo, base_tree, candidate_tree, &base, &candidate));
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
