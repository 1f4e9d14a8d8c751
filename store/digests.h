// The content-addressing formulas of docs/format.md, each a pure function of its inputs.
// Every formula is pinned by known-answer vectors in fixtures/vectors/digests.json.
#ifndef GENTLE_STORE_DIGESTS_H_
#define GENTLE_STORE_DIGESTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace gentle::store {

inline constexpr std::string_view kEmptyTreeSha1 = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

// LP(x): ASCII decimal length, NUL, the bytes, NUL.
std::string LengthPrefixed(std::string_view value);

// "sha256:" + hex(sha256("gentle-ai.paths/v1" NUL LP(p1) LP(p2) ...)); paths must be sorted.
std::string PathsDigest(const std::vector<std::string>& sorted_paths);

struct IdentityInputs {
  std::string kind;        // current-changes | base-diff | commit-range
  std::string projection;  // "" for workspace, "staged"
  std::string base_tree;
  std::string candidate_tree;
  std::string paths_digest;
  std::vector<std::string> ledger_ids;
};
// Snapshot (target) identity: domain .../v3, or .../v4 with LP(projection) for staged.
std::string SnapshotIdentity(const IdentityInputs& inputs);

// The JSON {"repository_root","git_common_dir","git_dir"} as Go's json.Marshal writes it.
std::string WorktreeIdentityJson(std::string_view repository_root, std::string_view git_common_dir,
                                 std::string_view git_dir);
// "sha256:" + hex(sha256(json)).
std::string WorktreeIdentity(std::string_view worktree_identity_json);

// "review-" + first 16 hex of sha256("gentle-ai.review-start-lineage/v3" NUL
// {"worktree_identity":W,"target_identity":T}).
std::string DerivedLineageId(std::string_view worktree_identity, std::string_view target_identity);

// "sha256:" + hex(sha256("gentle-ai.review-state/v2" NUL compact_state)).
std::string StateRevision(std::string_view compact_state);

// repoKey = "sha256:" + hex(sha256(worktree root path)).
std::string RepoKey(std::string_view worktree_root);
// hex(sha256(repoKey + "\n" + target_identity)) + ".json".
std::string TombstoneFileName(std::string_view repo_key, std::string_view target_identity);

// "sha256:" + hex(sha256("gentle-ai.intended-untracked/v1" NUL LP(path) LP(ls-tree record) ...)).
struct UntrackedProofEntry {
  std::string path;
  std::string
      ls_tree_record;  // "<mode> <type> <oid>\t<path>\0", as `git ls-tree -r -t -z` prints it
};
std::string IntendedUntrackedProof(const std::vector<UntrackedProofEntry>& entries);

// True for "sha256:" followed by 64 lowercase hex digits.
bool IsSha256Id(std::string_view value);

}  // namespace gentle::store

#endif  // GENTLE_STORE_DIGESTS_H_
