// Micro-benchmarks of the hot paths (docs/performance.md): the content-addressing digests, the
// record codec (parse + revision verification), the native patch writer on prepared trees, and the
// SQLite index lookups behind classification. Fixtures are built once per size, in a temporary
// directory removed at exit. These are measurements, not tests: nothing here asserts a time.
#include <benchmark/benchmark.h>
#include <git2.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "export/patch_engine.h"
#include "store/digests.h"
#include "store/git/repository.h"
#include "store/index/index_db.h"
#include "store/record.h"
#include "store/sha256.h"
#include "store/snapshot.h"
#include "store/strict_json.h"

namespace {

using namespace gentle;

// ---------------------------------------------------------------------------------------------
// Scratch space, removed when the process exits.

class Scratch {
 public:
  static Scratch& Get() {
    static Scratch scratch;
    return scratch;
  }
  const std::string& dir() const { return dir_; }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

 private:
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    std::string templ =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/gentle-bench-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) std::abort();
    dir_ = templ;
  }
  std::string dir_;
};

void Fail(const std::string& what) {
  std::fprintf(stderr, "micro_bench: %s\n", what.c_str());
  std::abort();
}

// ---------------------------------------------------------------------------------------------
// Inputs.

// n sorted, realistic repository paths.
std::vector<std::string> MakePaths(size_t n) {
  std::vector<std::string> paths;
  paths.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    paths.push_back("src/module" + std::to_string(i / 100) + "/component_" + std::to_string(i) +
                    ".cc");
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

store::Snapshot MakeSnapshot(size_t n_paths) {
  store::Snapshot s;
  s.kind = "current-changes";
  s.base_tree = std::string(store::kEmptyTreeSha1);
  s.candidate_tree = "8f7a6b1c2d3e4f5061728394a5b6c7d8e9f00112";
  s.paths = MakePaths(n_paths);
  s.paths_digest = store::PathsDigest(s.paths);
  s.intended_untracked_proof = store::IntendedUntrackedProof({});
  s.identity = store::ComputeSnapshotIdentity(s);
  return s;
}

// The state start writes (transaction/start.cc InitialState), with n changed paths.
nlohmann::ordered_json MakeState(const std::string& lineage, size_t n_paths) {
  const store::Snapshot snapshot = MakeSnapshot(n_paths);
  nlohmann::ordered_json state;
  state["schema"] = store::kStateSchema;
  state["lineage_id"] = lineage;
  state["generation"] = 1;
  state["state"] = "reviewing";
  store::SnapshotToJson(snapshot, &state["initial_snapshot"]);
  store::SnapshotToJson(snapshot, &state["current_snapshot"]);
  state["genesis_paths"] = snapshot.paths;
  state["created_at"] = "2026-01-02T03:04:05.123456789Z";
  nlohmann::ordered_json& atomic = state["initial_atomic_start"];
  atomic["lineage_id"] = lineage;
  atomic["worktree_identity"] = "sha256:" + std::string(64, 'a');
  atomic["target_identity"] = snapshot.identity;
  atomic["selector"] = nlohmann::ordered_json::object({{"kind", "current-changes"}});
  state["verdict_history"] = nlohmann::ordered_json::array();
  return state;
}

// ---------------------------------------------------------------------------------------------
// Digests.

void BM_PathsDigest(benchmark::State& state) {
  const auto paths = MakePaths(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(store::PathsDigest(paths));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_PathsDigest)->Arg(64)->Arg(1024)->Arg(16384)->Arg(100000);

void BM_SnapshotIdentity(benchmark::State& state) {
  const store::Snapshot s = MakeSnapshot(16);
  for (auto _ : state) benchmark::DoNotOptimize(store::ComputeSnapshotIdentity(s));
}
BENCHMARK(BM_SnapshotIdentity);

// The revision of a record's compact state; the size is the number of changed paths (each path
// appears three times in a state: both snapshots and genesis_paths).
void BM_StateRevision(benchmark::State& state) {
  const std::string compact = MakeState("review-0123456789abcdef", state.range(0)).dump();
  for (auto _ : state) benchmark::DoNotOptimize(store::StateRevision(compact));
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(compact.size()));
  state.counters["state_bytes"] = static_cast<double>(compact.size());
}
BENCHMARK(BM_StateRevision)->Arg(1)->Arg(64)->Arg(1024)->Arg(16384);

// ---------------------------------------------------------------------------------------------
// Record codec.

void BM_EncodeRecord(benchmark::State& state) {
  const auto json = MakeState("review-0123456789abcdef", state.range(0));
  std::string revision;
  for (auto _ : state) benchmark::DoNotOptimize(store::EncodeRecordFile(json, &revision));
}
BENCHMARK(BM_EncodeRecord)->Arg(1)->Arg(1024)->Arg(16384);

// Parse + verify (the revision is recomputed from the raw state bytes): what every read command
// does per record.
void BM_ParseRecord(benchmark::State& state) {
  std::string revision;
  const std::string file =
      store::EncodeRecordFile(MakeState("review-0123456789abcdef", state.range(0)), &revision);
  for (auto _ : state) {
    auto view = store::ParseRecordFile(file, "review-0123456789abcdef");
    if (!view.ok()) Fail("ParseRecordFile: " + view.status().message());
    benchmark::DoNotOptimize(view);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(file.size()));
  state.counters["file_bytes"] = static_cast<double>(file.size());
}
BENCHMARK(BM_ParseRecord)->Arg(1)->Arg(64)->Arg(1024)->Arg(16384);

// What a mutation does with a record that carries N members this tool does not know: re-read the
// state as an ordered DOM (every member kept, in order), then encode the new record. Linear in N
// (a nlohmann ordered parse searched each object per key: 80,000 members took 15 s).
void BM_MutationRereadUnknownMembers(benchmark::State& state) {
  auto json = MakeState("review-0123456789abcdef", 1);
  for (int64_t i = 0; i < state.range(0); ++i) json["unknown_" + std::to_string(i)] = i;
  std::string revision;
  const std::string file = store::EncodeRecordFile(json, &revision);
  auto view = store::ParseRecordFile(file, "review-0123456789abcdef");
  if (!view.ok()) Fail("ParseRecordFile: " + view.status().message());
  for (auto _ : state) {
    nlohmann::ordered_json reread;
    store::StrictJsonRefusal why;
    if (!store::ParseStrictOrderedJson(view->compact_state, store::kMaxRecordDepth, &reread,
                                       &why)) {
      Fail("ParseStrictOrderedJson: " + why.detail);
    }
    reread["state"] = "changes_requested";
    benchmark::DoNotOptimize(store::EncodeRecordFile(reread, &revision));
  }
  state.counters["members"] = static_cast<double>(state.range(0));
}
BENCHMARK(BM_MutationRereadUnknownMembers)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(80000)
    ->Arg(200000)
    ->Unit(benchmark::kMillisecond);

// A record whose revision does not match its state: the refusal path (corrupted) costs the same
// parse and hash, and must not be cheaper to fake.
void BM_VerifyRecordTampered(benchmark::State& state) {
  std::string revision;
  std::string file =
      store::EncodeRecordFile(MakeState("review-0123456789abcdef", state.range(0)), &revision);
  const size_t at = file.find("\"reviewing\"");
  file.replace(at, 11, "\"approved!\"");
  for (auto _ : state) {
    auto view = store::ParseRecordFile(file, "review-0123456789abcdef");
    if (view.ok()) Fail("a tampered record verified");
    benchmark::DoNotOptimize(view);
  }
}
BENCHMARK(BM_VerifyRecordTampered)->Arg(1)->Arg(1024);

// ---------------------------------------------------------------------------------------------
// Patch writing: exporter::DerivePatch on trees prepared in a scratch bare repository.

struct TreePair {
  git_repository* repo = nullptr;
  git_oid base;
  git_oid candidate;
};

git_oid WriteBlob(git_repository* repo, const std::string& bytes) {
  git_oid oid;
  if (git_blob_create_from_buffer(&oid, repo, bytes.data(), bytes.size()) != 0) {
    Fail("blob: " + store::git::LastGitError());
  }
  return oid;
}

git_oid WriteFlatTree(git_repository* repo, const std::vector<std::pair<std::string, git_oid>>& e) {
  git_treebuilder* builder = nullptr;
  if (git_treebuilder_new(&builder, repo, nullptr) != 0) Fail("treebuilder");
  for (const auto& [name, oid] : e) {
    if (git_treebuilder_insert(nullptr, builder, name.c_str(), &oid, GIT_FILEMODE_BLOB) != 0) {
      Fail("treebuilder insert: " + store::git::LastGitError());
    }
  }
  git_oid tree;
  if (git_treebuilder_write(&tree, builder) != 0) Fail("tree: " + store::git::LastGitError());
  git_treebuilder_free(builder);
  return tree;
}

git_repository* ScratchRepo(const std::string& name) {
  store::git::EnsureLibgit2();
  git_repository* repo = nullptr;
  const std::string path = Scratch::Get().dir() + "/" + name;
  if (git_repository_init(&repo, path.c_str(), /*is_bare=*/1) != 0) {
    Fail("init: " + store::git::LastGitError());
  }
  return repo;
}

// n text files of 200 lines (~9 KB); the candidate edits three separated lines in each, so every
// file gets three hunks with function context.
const TreePair& TextPair(int64_t n) {
  static std::map<int64_t, TreePair> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  TreePair pair;
  pair.repo = ScratchRepo("text-" + std::to_string(n) + ".git");
  std::vector<std::pair<std::string, git_oid>> base, cand;
  for (int64_t f = 0; f < n; ++f) {
    std::string a, b;
    for (int line = 0; line < 200; ++line) {
      std::string text = (line % 20 == 0)
                             ? "int function_" + std::to_string(line) + "(void) {\n"
                             : "    value = compute(value, " + std::to_string(f * 1000 + line) +
                                   "); /* padding */\n";
      a += text;
      if (line == 30 || line == 100 || line == 170) text = "    value = changed();\n";
      b += text;
    }
    const std::string name = "file" + std::to_string(f) + ".c";
    base.emplace_back(name, WriteBlob(pair.repo, a));
    cand.emplace_back(name, WriteBlob(pair.repo, b));
  }
  pair.base = WriteFlatTree(pair.repo, base);
  pair.candidate = WriteFlatTree(pair.repo, cand);
  return cache.emplace(n, pair).first->second;
}

// n binary files of 16 KB (random bytes with NULs); the candidate rewrites 64 bytes in each.
const TreePair& BinaryPair(int64_t n) {
  static std::map<int64_t, TreePair> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  TreePair pair;
  pair.repo = ScratchRepo("binary-" + std::to_string(n) + ".git");
  std::mt19937 rng(42);
  std::vector<std::pair<std::string, git_oid>> base, cand;
  for (int64_t f = 0; f < n; ++f) {
    std::string a(16384, '\0');
    for (char& c : a) c = static_cast<char>(rng() & 0xff);
    a[0] = '\0';
    std::string b = a;
    for (size_t i = 0; i < 64; ++i) b[8000 + i] = static_cast<char>(rng() & 0xff);
    const std::string name = "asset" + std::to_string(f) + ".bin";
    base.emplace_back(name, WriteBlob(pair.repo, a));
    cand.emplace_back(name, WriteBlob(pair.repo, b));
  }
  pair.base = WriteFlatTree(pair.repo, base);
  pair.candidate = WriteFlatTree(pair.repo, cand);
  return cache.emplace(n, pair).first->second;
}

void RunDerive(benchmark::State& state, const TreePair& pair) {
  exporter::PatchOptions options;
  options.max_bytes = size_t{64} << 20;
  size_t bytes = 0;
  std::string engine;
  for (auto _ : state) {
    auto patch = exporter::DerivePatch(pair.repo, pair.base, pair.candidate, options);
    if (!patch.ok()) Fail("DerivePatch: " + patch.status().message());
    bytes = patch->bytes.size();
    engine = std::string(exporter::EngineName(patch->engine));
    benchmark::DoNotOptimize(patch);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(bytes));
  state.counters["patch_bytes"] = static_cast<double>(bytes);
  state.SetLabel(engine);
}

// The size is the number of modified files (~1.3 KB of patch each).
void BM_DerivePatchText(benchmark::State& state) { RunDerive(state, TextPair(state.range(0))); }
BENCHMARK(BM_DerivePatchText)->Arg(8)->Arg(64)->Arg(512)->Arg(1600)->Unit(benchmark::kMillisecond);

// The same with libgit2's own strict hash verification (collision-detecting SHA-1) switched back
// on: every object is then hashed twice (libgit2's check and the
// project's OpenSSL one, store/git/object_reader.h), so the difference to BM_DerivePatchText is
// what libgit2's check costs. Not what the product does; for docs/performance.md. Toggled only
// while no DerivePatch thread runs.
void BM_DerivePatchTextLibgit2Check(benchmark::State& state) {
  const TreePair& pair = TextPair(state.range(0));
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 1);
  RunDerive(state, pair);
  git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
}
BENCHMARK(BM_DerivePatchTextLibgit2Check)->Arg(64)->Arg(512)->Unit(benchmark::kMillisecond);

// Binary sections go through AppendBinaryPatch (the git CLI while export/binary_patch_stub.cc is
// linked; the label says which).
void BM_DerivePatchBinary(benchmark::State& state) { RunDerive(state, BinaryPair(state.range(0))); }
BENCHMARK(BM_DerivePatchBinary)->Arg(4)->Arg(32)->Unit(benchmark::kMillisecond);

// ---------------------------------------------------------------------------------------------
// Index lookups (store/index/index_db.h) with n lineages, n tombstones and n quarantine entries.

std::string LineageId(int64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "review-%016llx",
                static_cast<unsigned long long>(i) * 0x9e3779b97f4a7c15ull);
  return buf;
}

const std::string& IndexFile(int64_t n) {
  static std::map<int64_t, std::string> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  const std::string path = Scratch::Get().dir() + "/index-" + std::to_string(n) + ".sqlite";
  store::index::IndexSnapshot snap;
  for (int64_t i = 0; i < n; ++i) {
    const std::string id = LineageId(i);
    const std::string hex = store::Sha256Hex(id);
    store::index::LineageRow row;
    row.lineage_id = id;
    row.state = store::ReviewState::kReviewing;
    row.kind = "current-changes";
    row.created_at = "2026-01-02T03:04:05Z";
    row.path_count = 3;
    row.revision = "sha256:" + hex;
    row.target_identity = "sha256:" + hex;
    row.status = store::index::RowStatus::kCommitted;
    snap.lineages.push_back(row);
    store::index::TombstoneRow t;
    t.key = hex;
    t.lineage_id = LineageId(n + i);
    t.target_identity = "sha256:" + hex;
    t.repository = "sha256:" + std::string(64, 'b');
    t.status = store::index::RowStatus::kCommitted;
    snap.tombstones.push_back(t);
    store::index::QuarantineRow q;
    q.lineage_id = LineageId(2 * n + i);
    q.quarantine_dir = q.lineage_id + "-abcdef";
    q.audit_path = "/repo/.git/gentle-ai/review-transactions/quarantine/" + q.quarantine_dir +
                   "/reclaim-record.json";
    q.reason = "abandoned";
    q.actor = "bench";
    q.reclaimed_at = "2026-01-02T03:04:05Z";
    q.status = store::index::RowStatus::kCommitted;
    snap.quarantine.push_back(q);
  }
  auto db = store::index::IndexDb::OpenReadWrite(path);
  if (!db.ok()) Fail("index open: " + db.status().message());
  if (Status st = (*db)->ReplaceAll(snap); !st.ok()) Fail("index fill: " + st.message());
  return cache.emplace(n, path).first->second;
}

std::unique_ptr<store::index::IndexDb> OpenIndex(int64_t n) {
  auto db = store::index::IndexDb::OpenReadOnly(IndexFile(n));
  if (!db.ok()) Fail("index open: " + db.status().message());
  return std::move(*db);
}

// One keyed lookup per table on an open connection, hitting (i % n) in turn.
void BM_IndexFindLineage(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto db = OpenIndex(n);
  int64_t i = 0;
  for (auto _ : state) {
    auto row = db->FindLineage(LineageId(i++ % n));
    if (!row.ok() || !row->has_value()) Fail("lineage lookup");
  }
}
BENCHMARK(BM_IndexFindLineage)->Arg(1000)->Arg(10000)->Arg(100000);

void BM_IndexFindTombstone(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto db = OpenIndex(n);
  int64_t i = 0;
  for (auto _ : state) {
    auto row = db->FindTombstoneByLineage(LineageId(n + i++ % n));
    if (!row.ok() || !row->has_value()) Fail("tombstone lookup");
  }
}
BENCHMARK(BM_IndexFindTombstone)->Arg(1000)->Arg(10000)->Arg(100000);

void BM_IndexFindQuarantine(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto db = OpenIndex(n);
  int64_t i = 0;
  for (auto _ : state) {
    auto row = db->FindQuarantineByLineage(LineageId(2 * n + i++ % n));
    if (!row.ok() || !row->has_value()) Fail("quarantine lookup");
  }
}
BENCHMARK(BM_IndexFindQuarantine)->Arg(1000)->Arg(10000)->Arg(100000);

// What one classification of an unknown lineage costs a process: open the index read-only, then
// the three lookups that all miss (not_found is the most expensive outcome).
void BM_IndexOpenClassifyUnknown(benchmark::State& state) {
  const int64_t n = state.range(0);
  IndexFile(n);
  for (auto _ : state) {
    auto db = OpenIndex(n);
    const std::string id = "review-ffffffffffffffff";
    auto a = db->FindLineage(id);
    auto b = db->FindTombstoneByLineage(id);
    auto c = db->FindQuarantineByLineage(id);
    if (!a.ok() || !b.ok() || !c.ok() || a->has_value() || b->has_value() || c->has_value()) {
      Fail("unknown lineage found");
    }
  }
}
BENCHMARK(BM_IndexOpenClassifyUnknown)->Arg(1000)->Arg(10000)->Arg(100000);

// What store::ClassifyAbsent costs a process: a reader opened for the two by-lineage lookups
// only, both missing.
void BM_IndexOpenLineageLookups(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::string& path = IndexFile(n);
  store::index::IndexOptions options;
  options.read_use = store::index::IndexOptions::ReadUse::kLineageLookups;
  for (auto _ : state) {
    auto db = store::index::IndexDb::OpenReadOnly(path, options);
    if (!db.ok()) Fail("index open: " + db.status().message());
    const std::string id = "review-ffffffffffffffff";
    auto tombstone = (*db)->FindTombstoneByLineage(id);
    auto audit = (*db)->FindQuarantineByLineage(id);
    if (!tombstone.ok() || !audit.ok() || tombstone->has_value() || audit->has_value()) {
      Fail("unknown lineage found");
    }
  }
}
BENCHMARK(BM_IndexOpenLineageLookups)->Arg(1000)->Arg(100000);

// What store::FindBurnClaim costs a process (the duplicate-claim check of every live export in a
// store with burns): a reader opened for the tombstone lookup only, which misses.
void BM_IndexOpenTombstoneLookup(benchmark::State& state) {
  const int64_t n = state.range(0);
  const std::string& path = IndexFile(n);
  store::index::IndexOptions options;
  options.read_use = store::index::IndexOptions::ReadUse::kTombstoneLookup;
  for (auto _ : state) {
    auto db = store::index::IndexDb::OpenReadOnly(path, options);
    if (!db.ok()) Fail("index open: " + db.status().message());
    auto tombstone = (*db)->FindTombstoneByLineage("review-ffffffffffffffff");
    if (!tombstone.ok() || tombstone->has_value()) Fail("unknown lineage found");
  }
}
BENCHMARK(BM_IndexOpenTombstoneLookup)->Arg(1000)->Arg(100000);

// Streaming the catalog in list order (what `list` does): linear in n by nature.
void BM_IndexListLineages(benchmark::State& state) {
  const int64_t n = state.range(0);
  auto db = OpenIndex(n);
  for (auto _ : state) {
    int64_t seen = 0;
    Status st = db->ListLineages([&](const store::index::LineageRow&) {
      ++seen;
      return true;
    });
    if (!st.ok() || seen != n) Fail("list");
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_IndexListLineages)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
