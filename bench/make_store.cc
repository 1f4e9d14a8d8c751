// make-store: fills a repository's review store quickly, for the store-size scaling runs of
// bench/compare.sh (docs/performance.md).
//
//   make-store --git-common-dir DIR --worktree-root DIR --live N --burned N --retired N
//   [--no-index]
//
// Writes, under DIR/gentle-ai/review-transactions:
//   v2/<lineage>/review-state.json         N live records (valid, verifiable; trees are fake ids)
//   terminal-consumption/v1/<key>.json      N burn tombstones, as burn writes them
//   quarantine/<lineage>-<rand>/reclaim-record.json   N abandon/reclaim audit records
//   index.sqlite                            the same rows via store::index::IndexDb::ReplaceAll
// and prints, one per line, `live=<id>`, `consumed=<id>`, `retired=<id>`, `unknown=<id>`: lineages
// to classify. Plain writes without fsync: this is scratch data. Never run it on a real store.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/audit_record.h"
#include "store/digests.h"
#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/record.h"
#include "store/sha256.h"
#include "store/snapshot.h"
#include "store/tombstone.h"

namespace {

using namespace gentle;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "make-store: %s\n", what.c_str());
  std::exit(2);
}

void MakeDir(const std::string& path) {
  if (mkdir(path.c_str(), 0700) != 0 && errno != EEXIST)
    Die("mkdir " + path + ": " + strerror(errno));
}

void WriteFile(const std::string& path, const std::string& bytes) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) Die("open " + path + ": " + strerror(errno));
  if (std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) Die("write " + path);
  if (std::fclose(f) != 0) Die("close " + path);
}

// Distinct, valid lineage ids for three disjoint ranges.
std::string LineageId(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "review-%016llx",
                static_cast<unsigned long long>(i * 0x9e3779b97f4a7c15ull));
  return buf;
}

std::string Created(uint64_t i) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "2026-01-%02lluT%02llu:%02llu:%02lluZ",
                static_cast<unsigned long long>(1 + i / 86400 % 28),
                static_cast<unsigned long long>(i / 3600 % 24),
                static_cast<unsigned long long>(i / 60 % 60),
                static_cast<unsigned long long>(i % 60));
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  std::string common_dir, worktree_root;
  uint64_t live = 0, burned = 0, retired = 0;
  bool index = true;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die("missing value for " + arg);
      return argv[++i];
    };
    if (arg == "--git-common-dir")
      common_dir = value();
    else if (arg == "--worktree-root")
      worktree_root = value();
    else if (arg == "--live")
      live = std::stoull(value());
    else if (arg == "--burned")
      burned = std::stoull(value());
    else if (arg == "--retired")
      retired = std::stoull(value());
    else if (arg == "--no-index")
      index = false;
    else
      Die("unknown argument " + arg);
  }
  if (common_dir.empty() || worktree_root.empty()) {
    Die("usage: make-store --git-common-dir DIR --worktree-root DIR --live N --burned N "
        "--retired N [--no-index]");
  }
  const store::StoreLayout layout(common_dir);
  MakeDir(layout.gentle_dir());
  MakeDir(layout.root());
  MakeDir(layout.v2_dir());
  MakeDir(layout.root() + "/terminal-consumption");
  MakeDir(layout.tombstone_dir());
  MakeDir(layout.quarantine_dir());
  const std::string repo_key = store::RepoKey(worktree_root);

  store::index::IndexSnapshot rows;
  // One snapshot shape for every record; only the lineage id and the candidate tree vary.
  store::Snapshot snapshot;
  snapshot.kind = "current-changes";
  snapshot.base_tree = std::string(store::kEmptyTreeSha1);
  snapshot.paths = {"README.md", "src/main.c", "src/util.c"};
  snapshot.paths_digest = store::PathsDigest(snapshot.paths);
  snapshot.intended_untracked_proof = store::IntendedUntrackedProof({});

  for (uint64_t i = 0; i < live; ++i) {
    const std::string id = LineageId(i + 1);
    snapshot.candidate_tree = store::Sha256Hex(id).substr(0, 40);
    snapshot.identity = store::ComputeSnapshotIdentity(snapshot);
    nlohmann::ordered_json state;
    state["schema"] = store::kStateSchema;
    state["lineage_id"] = id;
    state["generation"] = 1;
    state["state"] = "reviewing";
    store::SnapshotToJson(snapshot, &state["initial_snapshot"]);
    store::SnapshotToJson(snapshot, &state["current_snapshot"]);
    state["genesis_paths"] = snapshot.paths;
    state["created_at"] = Created(i);
    nlohmann::ordered_json& atomic = state["initial_atomic_start"];
    atomic["lineage_id"] = id;
    atomic["worktree_identity"] = "sha256:" + std::string(64, 'a');
    atomic["target_identity"] = snapshot.identity;
    atomic["selector"] = nlohmann::ordered_json::object({{"kind", "current-changes"}});
    state["verdict_history"] = nlohmann::ordered_json::array();
    std::string revision;
    const std::string file = store::EncodeRecordFile(state, &revision);
    MakeDir(layout.lineage_dir(id));
    WriteFile(layout.record_path(id), file);
    if (index) {
      rows.lineages.push_back({id, store::ReviewState::kReviewing, "current-changes", Created(i),
                               static_cast<int64_t>(snapshot.paths.size()), revision,
                               snapshot.identity, store::index::RowStatus::kCommitted});
    }
  }
  // Tombstones and audit records are encoded by the same functions burn and abandon use
  // (store/tombstone.h, store/audit_record.h), and indexed with the same row builders.
  for (uint64_t i = 0; i < burned; ++i) {
    const std::string id = LineageId(live + i + 1);
    const std::string target = "sha256:" + store::Sha256Hex("target " + id);
    const std::string key = store::TombstoneKey(repo_key, target);
    WriteFile(store::TombstonePath(layout, key), store::EncodeTombstone(repo_key, target, id));
    if (index) {
      rows.tombstones.push_back({key, id, target, repo_key, store::index::RowStatus::kCommitted});
    }
  }
  for (uint64_t i = 0; i < retired; ++i) {
    const std::string id = LineageId(live + burned + i + 1);
    const std::string dir_name = id + "-" + store::Sha256Hex(id).substr(0, 8);
    MakeDir(layout.quarantine_dir() + "/" + dir_name);
    store::AuditRecord audit;
    audit.status = store::index::RowStatus::kCommitted;
    audit.lineage_id = id;
    audit.reason = "abandoned";
    audit.actor = "make-store";
    audit.reclaimed_at = Created(i);
    audit.source_path = layout.lineage_dir(id);
    audit.quarantine_path = layout.quarantine_dir() + "/" + dir_name;
    WriteFile(store::AuditPath(layout, dir_name), store::EncodeAuditRecord(audit, nullptr));
    if (index) rows.quarantine.push_back(store::QuarantineRowOf(layout, dir_name, audit));
  }
  if (index) {
    auto db = store::index::IndexDb::OpenReadWrite(layout.index_path());
    if (!db.ok()) Die("index: " + db.status().message());
    if (Status st = (*db)->ReplaceAll(rows); !st.ok()) Die("index: " + st.message());
  }
  if (live > 0) std::printf("live=%s\n", LineageId(1).c_str());
  if (burned > 0) std::printf("consumed=%s\n", LineageId(live + burned).c_str());
  if (retired > 0) std::printf("retired=%s\n", LineageId(live + burned + retired).c_str());
  std::printf("unknown=%s\n", LineageId(live + burned + retired + 1).c_str());
  return 0;
}
