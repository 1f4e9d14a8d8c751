#include "export/derivation.h"

#include <algorithm>
#include <cstdio>

#include "export/oracle_runner.h"
#include "store/digests.h"
#include "store/tree_rows.h"

namespace gentle::exporter {
namespace {

std::string Mode(uint32_t mode) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "%06o", mode);
  return buffer;
}

const std::string& ZeroOid() {
  static const std::string zero(40, '0');
  return zero;
}

Result<store::TreeRows> RowsOf(git_repository* repo, const std::string& tree_hex) {
  if (tree_hex == store::kEmptyTreeSha1) return store::TreeRows();
  git_oid oid;
  if (git_oid_fromstr(&oid, tree_hex.c_str()) != 0) {
    return Status(Code::kCorrupted, "malformed tree id " + tree_hex);
  }
  auto rows = store::FlattenTree(repo, oid);
  if (!rows.ok()) {
    Status st = rows.status();
    return st.WithDetail("object", tree_hex);
  }
  return rows;
}

std::vector<ManifestEntry> BuildManifest(const store::TreeRows& base,
                                         const store::TreeRows& candidate) {
  std::vector<ManifestEntry> out;
  auto added = [&](const store::TreeRow& r) {
    out.push_back({r.path, 'A', "000000", Mode(r.mode), ZeroOid(), store::OidHex(r.oid)});
  };
  auto deleted = [&](const store::TreeRow& r) {
    out.push_back({r.path, 'D', Mode(r.mode), "000000", store::OidHex(r.oid), ZeroOid()});
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
      out.push_back(
          {a.path, status, Mode(a.mode), Mode(b.mode), store::OidHex(a.oid), store::OidHex(b.oid)});
    }
  }
  return out;
}

Status Mismatch(const std::string& what) { return Status(Code::kIntegrityMismatch, what); }

}  // namespace

Result<Derived> DeriveContext(const store::Repository& repo, const store::Snapshot& snapshot,
                              const std::string& engine, PathsCheck paths_check, size_t max_bytes) {
  GENTLE_ASSIGN_OR_RETURN(store::TreeRows base, RowsOf(repo.raw(), snapshot.base_tree));
  GENTLE_ASSIGN_OR_RETURN(store::TreeRows candidate, RowsOf(repo.raw(), snapshot.candidate_tree));
  Derived derived;
  derived.manifest = BuildManifest(base, candidate);
  std::vector<std::string> paths;
  for (const ManifestEntry& e : derived.manifest) paths.push_back(e.path);
  if (paths_check == PathsCheck::kListAndDigest && paths != snapshot.paths) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths");
  }
  if (store::PathsDigest(paths) != snapshot.paths_digest) {
    return Mismatch("the trees' changed paths do not reproduce the record's paths_digest");
  }

  if (engine == "git") {
    GENTLE_ASSIGN_OR_RETURN(derived.patch, RunOracleDiff(repo.common_dir(), snapshot.base_tree,
                                                         snapshot.candidate_tree, max_bytes));
    derived.engine = "git";
    return derived;
  }
  git_oid base_oid, candidate_oid;
  git_oid_fromstr(&base_oid, snapshot.base_tree.c_str());
  git_oid_fromstr(&candidate_oid, snapshot.candidate_tree.c_str());
  PatchOptions options;
  options.max_bytes = max_bytes;
  GENTLE_ASSIGN_OR_RETURN(DerivedPatch patch,
                          DerivePatch(repo.raw(), base_oid, candidate_oid, options));
  std::vector<std::string> engine_paths;
  for (const ManifestEntry& e : patch.manifest) engine_paths.push_back(e.path);
  std::sort(engine_paths.begin(), engine_paths.end());
  engine_paths.erase(std::unique(engine_paths.begin(), engine_paths.end()), engine_paths.end());
  if (engine_paths != paths) {
    return Mismatch("the patch engine's paths disagree with the trees' changed paths");
  }
  derived.patch = std::move(patch.bytes);
  derived.engine = std::move(patch.engine);
  return derived;
}

}  // namespace gentle::exporter
