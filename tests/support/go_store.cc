#include "tests/support/go_store.h"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "store/audit_record.h"
#include "store/digests.h"
#include "store/go_marshal.h"
#include "store/record.h"
#include "store/tombstone.h"
#include "tests/support/files.h"

namespace gentle::testing {
namespace {

using OJson = nlohmann::ordered_json;

struct GoTarget {
  std::string base_commit, head_commit;
  OJson snapshot;
  std::string identity;
  std::vector<std::string> paths;
};

// A new commit adding `file`; the snapshot of HEAD~1..HEAD as gentle-ai records it.
GoTarget CommitTarget(LifecycleRepo& repo, const std::string& file, bool generated_summary) {
  GoTarget t;
  t.base_commit = Trim(repo.Git({"rev-parse", "HEAD"}).out);
  repo.Write(file, "content of " + file + "\n");
  REQUIRE(repo.Git({"add", file}).exit_code == 0);
  REQUIRE(repo.Git({"commit", "-q", "-m", file}).exit_code == 0);
  t.head_commit = Trim(repo.Git({"rev-parse", "HEAD"}).out);
  const std::string base = Trim(repo.Git({"rev-parse", t.base_commit + "^{tree}"}).out);
  const std::string cand = Trim(repo.Git({"rev-parse", t.head_commit + "^{tree}"}).out);
  t.paths = {file};
  const std::string digest = store::PathsDigest(t.paths);
  t.identity = store::SnapshotIdentity({"commit-range", "", base, cand, digest, {}});
  OJson& s = t.snapshot;
  s["kind"] = "commit-range";
  if (generated_summary) s["generated_path_interpretation"] = "generated-summary/v1";
  s["base_tree"] = base;
  s["candidate_tree"] = cand;
  s["paths_digest"] = digest;
  s["intended_untracked"] = OJson::array();
  s["intended_untracked_proof"] = store::IntendedUntrackedProof({});
  s["paths"] = t.paths;
  s["identity"] = t.identity;
  return t;
}

// Replaces "@name" placeholders anywhere in `value`.
OJson Fill(const OJson& value, const std::map<std::string, OJson>& vars) {
  if (value.is_string()) {
    auto it = vars.find(value.get<std::string>());
    return it != vars.end() ? it->second : value;
  }
  if (value.is_object()) {
    OJson out = OJson::object();
    for (const auto& item : value.items()) out[item.key()] = Fill(item.value(), vars);
    return out;
  }
  if (value.is_array()) {
    OJson out = OJson::array();
    for (const auto& item : value) out.push_back(Fill(item, vars));
    return out;
  }
  return value;
}

void WriteGoFile(const std::string& path, const std::string& bytes) {
  WriteFile(path, bytes);
  chmod(path.c_str(), 0644);
}

std::string GoRecord(LifecycleRepo& repo, const std::string& lineage, const std::string& state_name,
                     const GoTarget& t, const std::string& token, bool historical) {
  const OJson extras = OJson::parse(
      ReadFile(std::string(GENTLE_FIXTURES_DIR) + "/gostore/compact-state-extras.json"));
  const std::string root = repo.root();
  const std::string worktree_identity = store::WorktreeIdentity(
      store::WorktreeIdentityJson(root, repo.common_dir(), repo.common_dir()));
  const std::map<std::string, OJson> vars = {{"@paths", t.paths},
                                             {"@identity", t.identity},
                                             {"@lineage", lineage},
                                             {"@worktree_identity", worktree_identity},
                                             {"@base_commit", t.base_commit},
                                             {"@head_commit", t.head_commit}};
  OJson state;
  state["schema"] = "gentle-ai.review-state/v2";
  state["lineage_id"] = lineage;
  state["generation"] = 1;
  state["state"] = state_name;
  state["initial_snapshot"] = t.snapshot;
  state["current_snapshot"] = t.snapshot;
  const OJson filled = Fill(extras, vars);
  for (const auto& item : filled.items()) {
    if (historical && item.key() == "fix_finding_ids") {
      state["lens_results"] = OJson::array({{{"lens", "review-risk"}, {"status", "passed"}}});
    }
    state[item.key()] = item.value();
    if (item.key() == "targeted_validator_attempts" && !token.empty()) {
      state["approved_ack_token"] = token;
    }
  }
  std::string revision;
  return store::EncodeRecordFile(state, &revision);
}

}  // namespace

GoStore BuildGoStore(LifecycleRepo& repo) {
  GoStore g;
  g.live = "review-90000000000000a1";
  g.approved = "review-90000000000000a2";
  g.approved_token = std::string(32, 'a') + std::string(32, '7');
  g.historical = "review-90000000000000a3";
  g.burned = "review-90000000000000a4";
  g.abandoned = "review-90000000000000a5";
  g.interrupted = "review-90000000000000a6";
  const std::string root = repo.store_root();
  const std::string v2 = root + "/v2/";

  GoTarget live = CommitTarget(repo, "go-live.txt", true);
  WriteGoFile(v2 + g.live + "/review-state.json",
              GoRecord(repo, g.live, "reviewing", live, "", false));
  WriteGoFile(v2 + g.live + "/reviewer-results/01-review-risk.json",
              "{\"lens\":\"review-risk\"}\n");
  GoTarget approved = CommitTarget(repo, "go-approved.txt", false);
  WriteGoFile(v2 + g.approved + "/review-state.json",
              GoRecord(repo, g.approved, "approved", approved, g.approved_token, false));
  GoTarget historical = CommitTarget(repo, "go-historical.txt", false);
  WriteGoFile(v2 + g.historical + "/review-state.json",
              GoRecord(repo, g.historical, "reviewing", historical, "", true));
  WriteGoFile(v2 + "LOCK", "");

  GoTarget burned = CommitTarget(repo, "go-burned.txt", false);
  const std::string repo_key = store::RepoKey(repo.root());
  g.tombstone =
      root + "/terminal-consumption/v1/" + store::TombstoneFileName(repo_key, burned.identity);
  WriteGoFile(g.tombstone, store::EncodeTombstone(repo_key, burned.identity, g.burned));

  auto quarantine = [&](const std::string& lineage, const std::string& dir,
                        store::index::RowStatus status, const char* at) {
    GoTarget t = CommitTarget(repo, lineage + ".txt", false);
    const std::string qdir = root + "/quarantine/" + dir;
    WriteGoFile(qdir + "/residue/review-state.json",
                GoRecord(repo, lineage, "reviewing", t, "", false));
    store::AuditRecord audit{status,       lineage, "operator_disposition", "go-operator", at,
                             v2 + lineage, qdir,    {"review-state.json"}};
    WriteGoFile(qdir + "/reclaim-record.json", store::EncodeAuditRecord(audit, nullptr));
    return qdir + "/reclaim-record.json";
  };
  g.abandoned_audit = quarantine(g.abandoned, g.abandoned + "-2318830471",
                                 store::index::RowStatus::kCommitted, "2026-09-01T10:00:00.5Z");
  g.interrupted_audit = quarantine(g.interrupted, g.interrupted + "-99817",
                                   store::index::RowStatus::kPrepared, "2026-09-02T11:30:00Z");
  WriteGoFile(repo.common_dir() + "/gentle-ai/REVIEW-MAINTENANCE.lock", "");
  return g;
}

}  // namespace gentle::testing
