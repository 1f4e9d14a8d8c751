// The bounds of a history read (store/history_chain.h, store/history_ref.h, docs/reliability.md
// "Bounded reads of histories"): a fetched history is measured before any record of it is read,
// so an oversized record, an over-long chain or records too large in all are refused as
// `corrupted` naming the limit, without taking memory in proportion to what was fetched.
// Histories are forged with git's own plumbing (hash-object, mktree, commit-tree, fast-import), as
// a remote would serve them, under refs/gentle-ai/remotes/origin/reviews/<lineage>.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "store/history_chain.h"
#include "store/history_ref.h"
#include "store/record.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/hostile.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

constexpr char kForged[] = "review-0f0f0f0f0f0f0f0f";
constexpr char kForgedRef[] = "refs/gentle-ai/remotes/origin/reviews/review-0f0f0f0f0f0f0f0f";

std::string GitOut(const LifecycleRepo& repo, const std::vector<std::string>& args,
                   const std::string& input = "") {
  return Trim(repo.GitOk(args, input));
}

// A fetched-only lineage forged from a real one: the started lineage's record with another
// lineage id (and `padding` bytes in an unknown state member), its revision computed over the
// exact bytes, on the real lineage's base and candidate trees.
struct Forgery {
  LifecycleRepo& repo;
  std::string base, candidate;
  nlohmann::ordered_json state;

  explicit Forgery(LifecycleRepo& r) : repo(r) {
    const std::string lineage = repo.StartNew()["lineage"];
    const std::string record =
        GitOut(repo, {"cat-file", "blob", ReviewRef(lineage) + ":review-state.json"});
    state = nlohmann::ordered_json::parse(record)["state"];
    state["lineage_id"] = kForged;
    base = GitOut(repo, {"rev-parse", ReviewRef(lineage) + ":base"});
    candidate = GitOut(repo, {"rev-parse", ReviewRef(lineage) + ":candidate"});
  }

  // The record file with `padding` bytes of padding (none: no member).
  std::string Record(size_t padding) const {
    nlohmann::ordered_json padded = state;
    if (padding > 0) padded["padding"] = std::string(padding, 'p');
    return RecordWithRawState(padded.dump(2));
  }

  std::string Message(const std::string& verb, const std::string& record) const {
    const std::string revision = nlohmann::json::parse(record)["revision"];
    return verb + " " + kForged + "\n\nLineage: " + kForged + "\nRevision: " + revision +
           "\nState: " + state["state"].get<std::string>() + "\n";
  }

  // A commit holding `record` on the lineage's trees, with `parent` ("" for a root).
  std::string Commit(const std::string& verb, const std::string& record,
                     const std::string& parent) const {
    const std::string blob = GitOut(repo, {"hash-object", "-w", "--stdin"}, record);
    const std::string tree =
        GitOut(repo, {"mktree"},
               "100644 blob " + blob + "\treview-state.json\n040000 tree " + base +
                   "\tbase\n040000 tree " + candidate + "\tcandidate\n");
    std::vector<std::string> args = {"commit-tree", tree, "-m", Message(verb, record)};
    if (!parent.empty()) args.insert(args.end(), {"-p", parent});
    return GitOut(repo, args);
  }

  void Fetched(const std::string& tip) const { GitOut(repo, {"update-ref", kForgedRef, tip}); }
};

// A bare repository serving `tip` as the forged lineage's history, added to `repo` as the remote
// `forged`: what `review fetch --remote forged` brings in (under
// refs/gentle-ai/remotes/forged/reviews/<lineage>).
class ForgedRemote {
 public:
  ForgedRemote(const LifecycleRepo& repo, const std::string& tip) {
    const std::string bare = dir_.path() + "/forged.git";
    GitOut(repo, {"init", "-q", "--bare", bare});
    GitOut(repo, {"push", "-q", bare, tip + ":" + ReviewRef(kForged)});
    GitOut(repo, {"remote", "add", "forged", bare});
  }

 private:
  TempDir dir_;
};

// `review <args> --json` under GNU time: the parsed answer and the peak resident set in KiB.
// The memory checks below hold in the normal build; a sanitizer build's resident set is mostly
// the runtime's shadow memory and quarantine, not the command's, so there (CTest sets
// GENTLE_SANITIZER_BUILD=1, tests/CMakeLists.txt) the codes and details are checked and the peak
// is not.
struct Measured {
  RunResult run;
  nlohmann::json doc;
  long peak_kib = 0;
};

Measured RunMeasured(const LifecycleRepo& repo, std::vector<std::string> args) {
  args.insert(args.begin(), "review");
  args.push_back("--json");
  Measured out;
  out.run = GentleAi(args, repo.root(), {}, {"/usr/bin/time", "-f", "peak_kib %M"}, 60000);
  INFO("stdout: " << out.run.out << "\nstderr: " << out.run.err);
  REQUIRE_FALSE(out.run.timed_out);
  const size_t at = out.run.err.rfind("peak_kib ");
  REQUIRE(at != std::string::npos);  // GNU time is a prerequisite: its absence fails
  out.peak_kib = std::stol(out.run.err.substr(at + 9));
  out.doc = nlohmann::json::parse(out.run.out);
  return out;
}

// `review fetch --remote forged --json` with the forged history not verified: its report's one
// entry, whose error must be `corrupted` (the fetch itself succeeds). Run twice, and the second
// run's peak is returned: the first one's is git's (index-pack inflates what it receives), the
// second fetches nothing and only verifies.
struct FetchedReport {
  nlohmann::json entry;  // the lineage's entry: lineage, tip, state, terminal, verified, error
  nlohmann::json error;
  long peak_kib = 0;
};

FetchedReport FetchForged(const LifecycleRepo& repo) {
  FetchedReport report;
  for (int run = 0; run < 2; ++run) {
    Measured m = RunMeasured(repo, {"fetch", "--remote", "forged"});
    REQUIRE(m.run.exit_code == 0);
    REQUIRE(m.doc["lineages"].size() == 1);
    const nlohmann::json& entry = m.doc["lineages"][0];
    CHECK(entry["lineage"] == kForged);
    CHECK(entry["verified"] == false);
    CHECK(entry["state"].is_null());
    CHECK(entry["error"]["code"] == "corrupted");
    report.entry = entry;
    report.error = entry["error"];
    report.peak_kib = m.peak_kib;
  }
  return report;
}

// Whether a peak resident set measures the command (not a sanitizer runtime).
bool PeakIsTheCommands() {
  const char* sanitized = std::getenv("GENTLE_SANITIZER_BUILD");
  return sanitized == nullptr || std::string(sanitized) != "1";
}

}  // namespace

TEST_CASE("history bounds: a review-state.json over 32 MiB is refused from its header - unread") {
  LifecycleRepo repo;
  Forgery forgery(repo);
  const std::string record = forgery.Record(size_t{40} << 20);
  REQUIRE(record.size() > store::kMaxRecordBytes);
  const std::string tip = forgery.Commit("start", record, "");
  forgery.Fetched(tip);
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"status", "--lineage", kForged},
        std::vector<std::string>{"verify", "--lineage", kForged},
        std::vector<std::string>{"import", "--lineage", kForged},
        std::vector<std::string>{"list"}}) {
    Measured m = RunMeasured(repo, args);
    INFO(args[0] << ": " << m.run.out);
    CHECK(m.run.exit_code == 7);
    const nlohmann::json& error = m.doc["error"];
    CHECK(error["code"] == "corrupted");
    CHECK(error["details"]["commit"] == tip);
    CHECK(error["details"]["file"] == "review-state.json");
    CHECK(error["details"]["size"] == std::to_string(record.size()));
    CHECK(error["details"]["limit"] == std::to_string(store::kMaxRecordBytes));
    // Inflating the 40 MiB blob alone would take more than this.
    if (PeakIsTheCommands()) CHECK(m.peak_kib < 32 * 1024);
  }
}

TEST_CASE("history bounds: review fetch reports a review-state.json over 32 MiB unread") {
  LifecycleRepo repo;
  Forgery forgery(repo);
  const std::string record = forgery.Record(size_t{40} << 20);
  const std::string tip = forgery.Commit("start", record, "");
  ForgedRemote remote(repo, tip);
  FetchedReport fetched = FetchForged(repo);
  const nlohmann::json& details = fetched.error["details"];
  CHECK(details["commit"] == tip);
  CHECK(details["file"] == "review-state.json");
  CHECK(details["size"] == std::to_string(record.size()));
  CHECK(details["limit"] == std::to_string(store::kMaxRecordBytes));
  CHECK(fetched.entry["tip"] == tip);  // the remote is the report's, the tip the entry's
  // The verification of what was fetched inflates nothing (the 40 MiB blob alone is more).
  if (PeakIsTheCommands()) CHECK(fetched.peak_kib < 32 * 1024);
  // Every reader then refuses the fetched history the same way.
  Measured listed = RunMeasured(repo, {"list"});
  CHECK(listed.run.exit_code == 7);
  CHECK(listed.doc["error"]["details"]["commit"] == tip);
  CHECK(listed.doc["error"]["details"]["source"] == "forged");
}

TEST_CASE("history bounds: a history longer than the commit limit is refused naming the limit") {
  LifecycleRepo repo;
  Forgery forgery(repo);
  const std::string record = forgery.Record(0);
  const std::string blob = GitOut(repo, {"hash-object", "-w", "--stdin"}, record);
  // One start and kMaxHistoryCommits commits on it: one more than the limit.
  std::string stream;
  auto commit = [&](const std::string& verb, bool root) {
    const std::string message = forgery.Message(verb, record);
    stream += std::string("commit ") + kForgedRef +
              "\ncommitter gentle-ai <gentle-ai@invalid> 0 +0000\ndata " +
              std::to_string(message.size()) + "\n" + message + "\n";
    if (root) {
      stream += "M 100644 " + blob + " review-state.json\nM 040000 " + forgery.base +
                " base\nM 040000 " + forgery.candidate + " candidate\n";
    }
    stream += "\n";
  };
  commit("start", true);
  for (size_t i = 0; i < store::kMaxHistoryCommits; ++i) commit("sync", false);
  GitOut(repo, {"fast-import", "--quiet"}, stream);
  const std::string root = GitOut(repo, {"rev-list", "--max-parents=0", kForgedRef});
  REQUIRE(GitOut(repo, {"rev-list", "--count", kForgedRef}) ==
          std::to_string(store::kMaxHistoryCommits + 1));

  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"review", "status", "--lineage", kForged},
        std::vector<std::string>{"review", "import", "--lineage", kForged},
        std::vector<std::string>{"review", "list"}}) {
    nlohmann::json refused = ExpectOutcome(args, repo.root(), 7, "corrupted");
    const nlohmann::json& error = refused["error"];
    CHECK_THAT(
        error["message"].get<std::string>(),
        Catch::Contains("longer than " + std::to_string(store::kMaxHistoryCommits) + " commits"));
    CHECK(error["details"]["limit"] == std::to_string(store::kMaxHistoryCommits));
    CHECK(error["details"]["commit"] == root);  // the first commit past the limit
  }

  // The same history served by a remote: `review fetch` brings it and reports it not verified,
  // with the same limit and commit, in bounded memory.
  const std::string tip = GitOut(repo, {"rev-parse", kForgedRef});
  GitOut(repo, {"update-ref", "-d", kForgedRef});
  {
    ForgedRemote remote(repo, tip);
    FetchedReport fetched = FetchForged(repo);
    CHECK_THAT(
        fetched.error["message"].get<std::string>(),
        Catch::Contains("longer than " + std::to_string(store::kMaxHistoryCommits) + " commits"));
    CHECK(fetched.error["details"]["limit"] == std::to_string(store::kMaxHistoryCommits));
    CHECK(fetched.error["details"]["commit"] == root);
    CHECK(fetched.entry["tip"] == tip);
    if (PeakIsTheCommands()) CHECK(fetched.peak_kib < 32 * 1024);
    GitOut(repo, {"update-ref", kForgedRef, tip});
  }

  // Its parent's history is exactly the limit long: not refused for its length.
  auto opened = store::git::Repository::Discover(repo.root());
  REQUIRE(opened.ok());
  auto chain = store::VerifyHistoryChain(
      *opened, kForged, GitOut(repo, {"rev-parse", std::string(kForgedRef) + "^"}));
  INFO(chain.status().message());
  CHECK(chain.status().message().find("longer than") == std::string::npos);
}

TEST_CASE("history bounds: records over the history's byte limit in all are refused unread") {
  LifecycleRepo repo;
  Forgery forgery(repo);
  // Distinct 8 MiB records (each padded differently), one commit each: the ninth passes 64 MiB.
  constexpr size_t kRecordBytes = size_t{8} << 20;
  const size_t records = store::kMaxHistoryRecordBytes / kRecordBytes + 1;
  std::string tip;
  for (size_t i = 0; i < records; ++i) {
    tip = forgery.Commit(i == 0 ? "start" : "sync", forgery.Record(kRecordBytes + i), tip);
  }
  forgery.Fetched(tip);
  Measured m = RunMeasured(repo, {"status", "--lineage", kForged});
  CHECK(m.run.exit_code == 7);
  const nlohmann::json& error = m.doc["error"];
  CHECK(error["code"] == "corrupted");
  CHECK_THAT(error["message"].get<std::string>(),
             Catch::Contains("records exceed " + std::to_string(store::kMaxHistoryRecordBytes) +
                             " bytes"));
  CHECK(error["details"]["limit"] == std::to_string(store::kMaxHistoryRecordBytes));
  // Refused from the headers: not one 8 MiB record was inflated (one alone takes more than this).
  if (PeakIsTheCommands()) CHECK(m.peak_kib < 16 * 1024);
}

TEST_CASE("history bounds: commits sharing one large record hold one copy of it") {
  LifecycleRepo repo;
  Forgery forgery(repo);
  // 20 commits on one 6 MiB record, on a root whose subject is not a history verb: the walk reads
  // the 20 before it refuses the root.
  const std::string record = forgery.Record(size_t{6} << 20);
  std::string tip = forgery.Commit("bogus", record, "");
  const std::string root = tip;
  for (int i = 0; i < 20; ++i) tip = forgery.Commit(i == 0 ? "start" : "sync", record, tip);
  forgery.Fetched(tip);
  Measured m = RunMeasured(repo, {"status", "--lineage", kForged});
  CHECK(m.run.exit_code == 7);
  CHECK(m.doc["error"]["code"] == "corrupted");
  // One record held and parsed (its bytes, its compact state, the parsed document): the 20
  // copies a walk that keeps every record would hold are 120 MiB.
  if (PeakIsTheCommands()) CHECK(m.peak_kib < 64 * 1024);
}

}  // namespace gentle::testing
