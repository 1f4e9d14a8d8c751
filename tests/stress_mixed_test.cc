// Randomized concurrency stress: 8 worker processes run a seeded random mix of start,
// verdict, export-context, status, burn and abandon on one store, from the main worktree and three
// linked worktrees of one clone. Each worker logs every command it ran with its exit code and
// output; afterwards the test proves from the logs and the final store that
//   - every command ended with an exit code allowed for it, with the matching error code, and no
//     command crashed, hung or reported `internal`/`corrupted`/`not_found`;
//   - no update was lost: each lineage's history ref holds exactly one commit per successful
//     start, verdict, burn and abandon of it, and a live record is its history's tip (records
//     hold only gentle-ai's members, so revisions alone can repeat and prove nothing);
//   - every `conflict` names a revision that some successful mutation had moved away from;
//   - burned lineages have a tombstone, abandoned ones an audit record naming the abandoned
//     revision;
//   - every successful export's patch is byte-identical to the pinned git diff of its trees;
//   - no temp file is left, and `fsck` is clean.
// Bounded: GENTLE_STRESS_OPS operations per worker (default 40); GENTLE_STRESS_SEED fixes the seed
// (default: time-based, printed on failure); GENTLE_STRESS_REPORT=FILE writes the figures as JSON.
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "export/base64.h"
#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_oracle.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr int kWorkers = 8;
constexpr int kWorktrees = 4;
constexpr int kSharedCandidates = 3;

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value && *value ? std::atoi(value) : fallback;
}

double MonotonicSeconds() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// Writes `bytes` to `path` through a temp file and a rename, so a reader never sees it partial.
void PublishFile(const std::string& path, const std::string& bytes) {
  const std::string temp = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  fs::rename(temp, path);
}

// One worker: `ops` random commands from worktree `cwd`, each logged as a JSON line.
class Worker {
 public:
  Worker(int id, uint64_t seed, std::string cwd, std::string dir, std::string shared)
      : id_(id),
        rng_(seed),
        cwd_(std::move(cwd)),
        dir_(std::move(dir)),
        shared_(std::move(shared)),
        log_(dir_ + "/log.jsonl") {}

  void Run(int ops) {
    for (step_ = 0; step_ < ops; ++step_) {
      const int pick = Uniform(100);
      if (pick < 15) {
        Status();
      } else if (pick < 35) {
        Start();
      } else if (pick < 60) {
        Verdict();
      } else if (pick < 72) {
        Export();
      } else if (pick < 85) {
        Burn();
      } else {
        Abandon();
      }
    }
  }

 private:
  int Uniform(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  // A lineage and the revision to expect: half the time one of the three another worker published
  // last (shared/hot/, so several workers race on the same revision), else one this worker has
  // seen. Empty when none is known.
  std::pair<std::string, std::string> PickTarget() {
    if (Uniform(2) == 0) {
      std::vector<fs::path> hot = Newest(Published("hot"), 3);
      if (!hot.empty()) {
        const fs::path& file = hot[Uniform(static_cast<int>(hot.size()))];
        const std::string revision = ReadFile(file.string());
        if (!revision.empty()) return {file.filename().string(), revision};
      }
    }
    if (known_.empty()) return {};
    auto it = known_.begin();
    std::advance(it, Uniform(static_cast<int>(known_.size())));
    return {it->first, it->second};
  }

  // The files of shared/<kind>/ (temp files of a publication in progress excluded).
  std::vector<fs::path> Published(const std::string& kind) const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(shared_ + "/" + kind)) {
      if (entry.path().filename().string().find(".tmp") == std::string::npos) {
        files.push_back(entry.path());
      }
    }
    return files;
  }

  static std::vector<fs::path> Newest(std::vector<fs::path> files, size_t n) {
    std::vector<std::pair<fs::file_time_type, fs::path>> dated;
    for (fs::path& f : files) {
      std::error_code missing;  // removed meanwhile by another worker
      const fs::file_time_type t = fs::last_write_time(f, missing);
      if (!missing) dated.emplace_back(t, std::move(f));
    }
    std::sort(dated.begin(), dated.end(), std::greater<>());
    std::vector<fs::path> newest;
    for (size_t i = 0; i < dated.size() && i < n; ++i) newest.push_back(dated[i].second);
    return newest;
  }

  void Learn(const std::string& lineage, const std::string& revision) {
    known_[lineage] = revision;
    PublishFile(shared_ + "/hot/" + lineage, revision);
  }

  void Forget(const std::string& lineage) {
    known_.erase(lineage);
    std::error_code ignored;
    fs::remove(shared_ + "/hot/" + lineage, ignored);
  }

  Json Execute(const std::string& op, std::vector<std::string> args, Json entry) {
    args.insert(args.begin(), {"review"});
    args.insert(args.begin() + 2, {"--cwd", cwd_, "--json"});
    entry["worker"] = id_;
    entry["step"] = step_;
    entry["op"] = op;
    entry["cwd"] = cwd_;
    entry["t0"] = MonotonicSeconds();
    RunResult r = GentleAi(args, dir_);  // no Catch macros: this runs in a forked child
    entry["t1"] = MonotonicSeconds();
    entry["exit"] = r.exit_code;
    entry["out"] = r.out;
    entry["err"] = r.err;
    log_ << entry.dump() << "\n" << std::flush;
    entry["json"] = Json::parse(r.out, nullptr, false);
    return entry;
  }

  void Status() {
    Json e = Execute("status", {"status"}, Json::object());
    if (e["exit"] != 0 || !e["json"].is_object()) return;
    for (const Json& l : e["json"]["lineages"]) {
      if (l["revision"].is_string() && l["state"].is_string()) {
        known_[l["lineage"]] = l["revision"];
      }
    }
  }

  void Start() {
    std::string file;
    if (Uniform(10) < 3) {
      file = "shared-" + std::to_string(Uniform(kSharedCandidates)) + ".txt";
    } else {
      file = "w" + std::to_string(id_) + "-" + std::to_string(step_) + ".txt";
      PublishFile(cwd_ + "/" + file,
                  "worker " + std::to_string(id_) + " step " + std::to_string(step_) + "\n");
    }
    Json e = Execute("start", {"start", "--untracked", file}, {{"file", file}});
    if (e["exit"] == 0 && e["json"].is_object()) {
      Learn(e["json"]["lineage"], e["json"]["revision"]);
    }
  }

  void Verdict() {
    const auto [lineage, expected] = PickTarget();
    if (lineage.empty()) return Start();
    const int pick = Uniform(10);
    const std::string verdict =
        pick < 5 ? "APPROVE" : (pick < 8 ? "REQUEST_CHANGES" : "NEEDS_DISCUSSION");
    const std::string body = "w" + std::to_string(id_) + " step " + std::to_string(step_);
    Json e = Execute("verdict",
                     {"verdict", "--lineage", lineage, "--verdict", verdict, "--actor",
                      "agent-" + std::to_string(id_), "--role", "reviewer", "--body", body,
                      "--expected-revision", expected},
                     {{"lineage", lineage}, {"expected", expected}, {"verdict", verdict}});
    if (e["exit"] != 0 || !e["json"].is_object()) return;
    const Json& j = e["json"];
    Learn(lineage, j["revision"]);
    if (j["token"].is_string()) {
      const std::string revision = j["revision"];
      PublishFile(shared_ + "/tokens/" + lineage + "." + revision.substr(7),
                  revision + " " + std::string(j["token"]));
    }
  }

  void Export() {
    const std::string lineage = PickTarget().first;
    if (lineage.empty()) return Status();
    Execute("export", {"export-context", "--lineage", lineage}, {{"lineage", lineage}});
  }

  void Burn() {
    std::vector<fs::path> files = Published("tokens");
    if (files.empty()) return Verdict();
    const fs::path file = files[Uniform(static_cast<int>(files.size()))];
    std::istringstream in(ReadFile(file.string()));
    std::string revision, token;
    in >> revision >> token;
    if (token.empty()) return Verdict();
    const std::string lineage = file.stem().string();
    Json e = Execute(
        "burn", {"burn", "--lineage", lineage, "--token", token, "--expected-revision", revision},
        {{"lineage", lineage}, {"expected", revision}});
    // Spent or superseded: stop offering this token (another worker may have removed it already).
    if (e["exit"] == 0 || e["exit"] == 4 || e["exit"] == 11) {
      std::error_code ignored;
      fs::remove(file, ignored);
      if (e["exit"] == 0) Forget(lineage);
    }
  }

  void Abandon() {
    const auto [lineage, expected] = PickTarget();
    if (lineage.empty()) return Start();
    Json e = Execute("abandon",
                     {"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                      "--actor", "agent-" + std::to_string(id_), "--expected-revision", expected},
                     {{"lineage", lineage}, {"expected", expected}});
    if (e["exit"] == 0) Forget(lineage);
  }

  int id_;
  std::mt19937_64 rng_;
  std::string cwd_, dir_, shared_;
  std::ofstream log_;
  int step_ = 0;
  std::map<std::string, std::string> known_;  // lineage -> the revision last seen
};

// Exit codes each operation may end with, and the error code each non-zero exit must carry.
const std::map<std::string, std::set<int>>& AllowedExits() {
  static const auto* allowed = new std::map<std::string, std::set<int>>{
      {"status", {0, 12}},
      {"start", {0, 4, 12}},
      {"verdict", {0, 4, 5, 6, 11, 12}},
      {"burn", {0, 4, 5, 6, 11, 12}},
      {"abandon", {0, 4, 5, 6, 11, 12}},
      {"export", {0, 4, 5, 12}},
  };
  return *allowed;
}

std::string ErrorCodeFor(int exit_code) {
  switch (exit_code) {
    case 4:
      return "consumed";
    case 5:
      return "retired";
    case 6:
      return "wrong_state";
    case 11:
      return "conflict";
    case 12:
      return "busy";
    default:
      return "?";
  }
}

// A successful compare-and-swap: `lineage` moved from `from` (to `to`, for a verdict).
struct Mutation {
  std::string op, lineage, from, to, verdict;
};

TEST_CASE("stress: 8 processes mixing start - verdict - export - status - burn and abandon") {
  const int ops = EnvInt("GENTLE_STRESS_OPS", 40);
  const uint64_t seed =
      static_cast<uint64_t>(EnvInt("GENTLE_STRESS_SEED", static_cast<int>(time(nullptr) % 100000)));
  INFO("GENTLE_STRESS_SEED=" << seed << " GENTLE_STRESS_OPS=" << ops);

  LifecycleRepo repo;
  TempDir scratch;
  std::vector<std::string> worktrees{repo.root()};
  for (int w = 1; w < kWorktrees; ++w) {
    const std::string path = scratch.path() + "/wt" + std::to_string(w);
    REQUIRE(repo.Git({"worktree", "add", "-q", path, "-b", "wt" + std::to_string(w)}).exit_code ==
            0);
    worktrees.push_back(path);
  }
  for (const std::string& wt : worktrees) {
    for (int c = 0; c < kSharedCandidates; ++c) {
      WriteFile(wt + "/shared-" + std::to_string(c) + ".txt",
                "shared candidate " + std::to_string(c) + "\n");
    }
  }
  const std::string shared = scratch.path() + "/shared";
  fs::create_directories(shared + "/tokens");
  fs::create_directories(shared + "/hot");

  const double began = MonotonicSeconds();
  std::vector<pid_t> pids;
  for (int i = 0; i < kWorkers; ++i) {
    const std::string dir = scratch.path() + "/worker" + std::to_string(i);
    fs::create_directories(dir);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      // The child must never return into Catch or run destructors of the parent's objects.
      int rc = 0;
      try {
        Worker(i, seed * 1000 + i, worktrees[i % kWorktrees], dir, shared).Run(ops);
      } catch (...) {
        rc = 3;
      }
      _exit(rc);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    REQUIRE(WEXITSTATUS(status) == 0);
  }
  const double elapsed = MonotonicSeconds() - began;

  // Every command, from every worker's log.
  std::vector<Json> log;
  for (int i = 0; i < kWorkers; ++i) {
    std::istringstream lines(
        ReadFile(scratch.path() + "/worker" + std::to_string(i) + "/log.jsonl"));
    for (std::string line; std::getline(lines, line);) {
      Json entry = Json::parse(line);
      entry["json"] = Json::parse(std::string(entry["out"]), nullptr, false);
      log.push_back(std::move(entry));
    }
  }
  REQUIRE(log.size() >= static_cast<size_t>(kWorkers * ops));

  std::map<std::string, int> outcomes;  // "op exit" -> count
  std::vector<Mutation> mutations;
  std::map<std::string, std::map<std::string, int>> created;  // lineage -> start revision -> n
  std::vector<Json> conflicts;
  std::vector<Json> exports;
  for (const Json& e : log) {
    const std::string op = e["op"];
    const int exit_code = e["exit"];
    INFO(e["op"] << " exit " << exit_code << "\nout: " << e["out"] << "\nerr: " << e["err"]);
    ++outcomes[op + " " + std::to_string(exit_code)];
    REQUIRE(AllowedExits().at(op).count(exit_code) == 1);
    REQUIRE(e["json"].is_object());
    if (exit_code != 0) {
      REQUIRE(e["json"]["error"]["code"] == ErrorCodeFor(exit_code));
      if (exit_code == 11) conflicts.push_back(e);
      continue;
    }
    const Json& j = e["json"];
    if (op == "start" && j["created"] == true) {
      ++created[j["lineage"].get<std::string>()][j["revision"].get<std::string>()];
    }
    if (op == "verdict") {
      REQUIRE(j["previous_revision"] == e["expected"]);
      REQUIRE(j["verdict"] == e["verdict"]);
      // An APPROVE of the approved round by the same actor is a repeat and writes nothing; by
      // another actor it is a co-approval, a history commit of its own (docs/format.md).
      const std::string approval = j["approval"].is_string() ? j["approval"] : "";
      if (approval == "repeat") continue;
      const std::string verb = approval == "co_approval" ? "co-approve" : op;
      mutations.push_back({verb, e["lineage"], e["expected"], j["revision"], j["verdict"]});
    }
    if (op == "burn" || op == "abandon") {
      REQUIRE(j["revision"] == e["expected"]);
      mutations.push_back({op, e["lineage"], e["expected"], "", ""});
    }
    if (op == "status") {
      for (const Json& l : j["lineages"]) CHECK(l["applicability"] != "corrupted");
    }
    if (op == "export") exports.push_back(e);
  }

  // The final store: live records, tombstones, audit records.
  const std::string root = repo.store_root();
  std::map<std::string, Json> live;  // lineage -> record
  if (fs::exists(root + "/v2")) {
    for (const auto& dir : fs::directory_iterator(root + "/v2")) {
      if (!dir.is_directory()) continue;
      const std::string lineage = dir.path().filename().string();
      const std::string path = dir.path().string() + "/review-state.json";
      INFO(path);
      REQUIRE(fs::exists(path));
      Json record = Json::parse(ReadFile(path), nullptr, false);
      REQUIRE(record.is_object());
      live[lineage] = record;
    }
  }
  std::map<std::string, int> tombstones;
  if (fs::exists(root + "/terminal-consumption/v1")) {
    for (const auto& f : fs::directory_iterator(root + "/terminal-consumption/v1")) {
      ++tombstones[Json::parse(ReadFile(f.path().string()))["lineage"]];
    }
  }
  std::multiset<std::pair<std::string, std::string>> audits;  // (lineage, abandoned revision)
  if (fs::exists(root + "/quarantine")) {
    for (const auto& q : fs::directory_iterator(root + "/quarantine")) {
      Json audit = Json::parse(ReadFile(q.path().string() + "/reclaim-record.json"));
      REQUIRE(audit["status"] == "committed");
      audits.insert({audit["lineage_id"].get<std::string>(),
                     audit["abandonment"]["revision"].get<std::string>()});
    }
  }

  // No lost update. Records hold only gentle-ai's members, so two records can be the same bytes
  // (REQUEST_CHANGES on correction_required; a start again after an abandon): revisions are not
  // unique. The history is the ledger instead: every successful mutation of a lineage is exactly
  // one commit of its history ref, and a live record is its history's tip.
  std::map<std::string, std::map<std::string, int>> succeeded;  // lineage -> verb -> count
  for (const auto& [lineage, revisions] : created) {
    for (const auto& [revision, n] : revisions) succeeded[lineage]["start"] += n;
  }
  std::map<std::string, int> burns, abandons;
  std::multiset<std::pair<std::string, std::string>> abandoned_revisions;
  for (const Mutation& m : mutations) {
    ++succeeded[m.lineage][m.op];
    if (m.op == "burn") ++burns[m.lineage];
    if (m.op == "abandon") {
      ++abandons[m.lineage];
      abandoned_revisions.insert({m.lineage, m.from});
    }
  }
  for (const auto& [lineage, verbs] : succeeded) {
    INFO(lineage);
    RunResult history = repo.Git({"log", "--format=%s", "refs/gentle-ai/reviews/" + lineage});
    REQUIRE(history.exit_code == 0);
    std::map<std::string, int> commits;
    std::istringstream lines(history.out);
    for (std::string line; std::getline(lines, line);) ++commits[line.substr(0, line.find(' '))];
    CHECK(commits == verbs);
  }
  for (const auto& [lineage, record] : live) {
    INFO(lineage);
    CHECK(repo.Git({"cat-file", "blob", "refs/gentle-ai/reviews/" + lineage + ":review-state.json"})
              .out == ReadFile(root + "/v2/" + lineage + "/review-state.json"));
    CHECK(burns.count(lineage) == 0);
  }
  for (const auto& [lineage, n] : burns) {
    INFO(lineage);
    CHECK(n == 1);
    CHECK(tombstones[lineage] == 1);
  }
  for (const auto& [lineage, n] : tombstones) CHECK(burns.count(lineage) == 1);
  CHECK(audits == abandoned_revisions);

  // A conflict is only ever answered for a revision some success had moved away from.
  std::set<std::pair<std::string, std::string>> consumed;
  for (const Mutation& m : mutations) consumed.insert({m.lineage, m.from});
  for (const Json& c : conflicts) {
    INFO(c["out"]);
    CHECK(consumed.count({c["lineage"].get<std::string>(), c["expected"].get<std::string>()}) == 1);
  }

  // Exports: the patch is the pinned git diff of the envelope's trees, and its digest binds it.
  std::map<std::pair<std::string, std::string>, std::string> oracle;
  for (const Json& e : exports) {
    const Json& env = e["json"];
    const std::string base = env["snapshot"]["base_tree"], cand = env["snapshot"]["candidate_tree"];
    const std::optional<std::string> decoded =
        exporter::DecodeCanonicalBase64(std::string(env["candidate_diff"]["data"]));
    REQUIRE(decoded.has_value());
    const std::string& patch = *decoded;
    CHECK(env["candidate_diff"]["sha256"] == "sha256:" + store::Sha256Hex(patch));
    if (!oracle.count({base, cand})) {
      auto diff = OracleDiff(repo.common_dir(), base, cand);
      REQUIRE(diff.ok());
      oracle[{base, cand}] = *diff;
    }
    CHECK(patch == oracle[{base, cand}]);
  }

  // No torn or temp file anywhere in the store, and fsck proves files, index and refs agree.
  for (const auto& f : fs::recursive_directory_iterator(root)) {
    INFO(f.path());
    CHECK(f.path().filename().string().rfind(".atomic-", 0) != 0);
  }
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);

  for (const std::string& wt : worktrees) {
    if (wt != repo.root()) repo.Git({"worktree", "remove", "--force", wt});
  }

  if (const char* report = std::getenv("GENTLE_STRESS_REPORT")) {
    Json figures;
    figures["seed"] = seed;
    figures["workers"] = kWorkers;
    figures["operations"] = log.size();
    figures["seconds"] = elapsed;
    figures["outcomes"] = outcomes;
    figures["successful_mutations"] = mutations.size();
    figures["lineages_created"] = created.size();
    figures["live_at_end"] = live.size();
    figures["burned"] = tombstones.size();
    figures["abandoned"] = audits.size();
    figures["exports_checked"] = exports.size();
    std::ofstream(report) << figures.dump(2) << "\n";
  }
}

}  // namespace
}  // namespace gentle::testing
