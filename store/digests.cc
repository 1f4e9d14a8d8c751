#include "store/digests.h"

#include "store/go_json.h"
#include "store/sha256.h"
#include "store/snapshot.h"

namespace gentle::store {
namespace {

std::string Prefixed(std::string_view hex) { return "sha256:" + std::string(hex); }

void AppendDomain(Sha256* hasher, std::string_view domain) {
  hasher->Update(domain);
  hasher->Update(std::string_view("\0", 1));
}

}  // namespace

std::string LengthPrefixed(std::string_view value) {
  std::string out = std::to_string(value.size());
  out.push_back('\0');
  out.append(value);
  out.push_back('\0');
  return out;
}

std::string PathsDigest(const std::vector<std::string>& sorted_paths) {
  Sha256 hasher;
  AppendDomain(&hasher, "gentle-ai.paths/v1");
  for (const std::string& path : sorted_paths) hasher.Update(LengthPrefixed(path));
  return Prefixed(hasher.FinishHex());
}

std::string SnapshotIdentity(const IdentityInputs& in) {
  const bool staged = in.projection == kProjectionStaged;
  Sha256 hasher;
  AppendDomain(&hasher, staged ? "gentle-ai.review-snapshot/v4" : "gentle-ai.review-snapshot/v3");
  hasher.Update(LengthPrefixed(in.kind));
  if (staged) hasher.Update(LengthPrefixed(in.projection));
  hasher.Update(LengthPrefixed(in.base_tree));
  hasher.Update(LengthPrefixed(in.candidate_tree));
  hasher.Update(LengthPrefixed(in.paths_digest));
  for (const std::string& id : in.ledger_ids) hasher.Update(LengthPrefixed(id));
  return Prefixed(hasher.FinishHex());
}

std::string WorktreeIdentityJson(std::string_view repository_root, std::string_view git_common_dir,
                                 std::string_view git_dir) {
  return "{\"repository_root\":" + QuoteGoString(repository_root) +
         ",\"git_common_dir\":" + QuoteGoString(git_common_dir) +
         ",\"git_dir\":" + QuoteGoString(git_dir) + "}";
}

std::string WorktreeIdentity(std::string_view worktree_identity_json) {
  return Prefixed(Sha256Hex(worktree_identity_json));
}

std::string DerivedLineageId(std::string_view worktree_identity, std::string_view target_identity) {
  Sha256 hasher;
  AppendDomain(&hasher, "gentle-ai.review-start-lineage/v3");
  hasher.Update("{\"worktree_identity\":" + QuoteGoString(worktree_identity) +
                ",\"target_identity\":" + QuoteGoString(target_identity) + "}");
  return "review-" + hasher.FinishHex().substr(0, 16);
}

std::string StateRevision(std::string_view compact_state) {
  Sha256 hasher;
  AppendDomain(&hasher, "gentle-ai.review-state/v2");
  hasher.Update(compact_state);
  return Prefixed(hasher.FinishHex());
}

std::string RepoKey(std::string_view worktree_root) { return Prefixed(Sha256Hex(worktree_root)); }

std::string TombstoneFileName(std::string_view repo_key, std::string_view target_identity) {
  std::string preimage(repo_key);
  preimage.push_back('\n');
  preimage.append(target_identity);
  return Sha256Hex(preimage) + ".json";
}

std::string IntendedUntrackedProof(const std::vector<UntrackedProofEntry>& entries) {
  Sha256 hasher;
  AppendDomain(&hasher, "gentle-ai.intended-untracked/v1");
  for (const UntrackedProofEntry& entry : entries) {
    hasher.Update(LengthPrefixed(entry.path));
    hasher.Update(LengthPrefixed(entry.ls_tree_record));
  }
  return Prefixed(hasher.FinishHex());
}

bool IsSha256Id(std::string_view value) {
  if (value.size() != 71 || value.substr(0, 7) != "sha256:") return false;
  for (char c : value.substr(7)) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

}  // namespace gentle::store
