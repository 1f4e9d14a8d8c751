// The transaction layer's error paths, called in process (transaction/*.h, not the CLI): what a
// mutation returns when a step it depends on fails half-way, which a subprocess cannot arrange at
// the exact step. A fault hook (store/test_hooks.h) runs an action at one named fault point: it
// throws (the exception leaves the transaction function: only the CLI edge maps exceptions), makes
// the record's directory unusable just before the record is written, or holds the index's write
// lock just before the committed row is written. Each case asserts the exact code and what is on
// disk afterwards, and that the next mutation sees a consistent store. The lineages are started
// through the CLI in a real repository (tests/support/lifecycle_repo.h).
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "store/layout.h"
#include "store/status.h"
#include "store/test_hooks.h"
#include "tests/support/env_test_hooks.h"
#include "tests/support/files.h"
#include "tests/support/go_store.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "transaction/burn.h"
#include "transaction/verdict.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

// Thrown by the fault hook; no transaction code knows this type.
struct InjectedFault {
  std::string point;
};

// While alive: at fault point `point` (every time it is passed), runs `action`, then throws
// InjectedFault when `then_throw`. Reinstalls the test build's environment hooks when destroyed.
class FaultHook {
 public:
  FaultHook(std::string point, std::function<void()> action, bool then_throw) {
    State() = {std::move(point), std::move(action), then_throw, 0};
    store::TestHooks hooks;
    hooks.fault_point = &OnFaultPoint;
    store::InstallTestHooks(hooks);
  }
  ~FaultHook() {
    InstallEnvironmentTestHooks();
    State() = {};
  }
  FaultHook(const FaultHook&) = delete;
  FaultHook& operator=(const FaultHook&) = delete;
  int hits() const { return State().hits; }

 private:
  struct Armed {
    std::string point;
    std::function<void()> action;
    bool then_throw = false;
    int hits = 0;
  };
  static Armed& State() {
    static Armed armed;
    return armed;
  }
  static void OnFaultPoint(std::string_view name) {
    Armed& armed = State();
    if (name != armed.point) return;
    ++armed.hits;
    if (armed.action) armed.action();
    if (armed.then_throw) throw InjectedFault{armed.point};
  }
};

// A started lineage with its record's path and bytes.
struct Started {
  std::string lineage;
  std::string revision;
  std::string record_path;
  std::string record_bytes;
};

Started StartOne(LifecycleRepo& repo) {
  const nlohmann::json started = repo.StartNew();
  Started s;
  s.lineage = started["lineage"];
  s.revision = started["revision"];
  s.record_path = store::StoreLayout(repo.common_dir()).record_path(s.lineage);
  s.record_bytes = ReadFile(s.record_path);
  REQUIRE_FALSE(s.record_bytes.empty());
  return s;
}

transaction::VerdictRequest Approve(const LifecycleRepo& repo, const std::string& lineage,
                                    const std::string& expected_revision) {
  transaction::VerdictRequest request;
  request.cwd = repo.root();
  request.lineage = lineage;
  request.verdict = store::VerdictWord::FromText("APPROVE");
  request.actor = "ana";
  request.role = store::RoleWord::FromText("reviewer");
  request.body = "looks good";
  request.expected_revision = expected_revision;
  return request;
}

// The lineage's state and revision as `status --lineage` reports them.
std::pair<std::string, std::string> StatusOf(const LifecycleRepo& repo,
                                             const std::string& lineage) {
  RunResult status = repo.Review({"status", "--lineage", lineage});
  INFO(status.out << status.err);
  REQUIRE(status.exit_code == 0);
  const nlohmann::json doc = status.Json();
  REQUIRE(doc["lineages"].size() == 1);
  return {doc["lineages"][0]["state"], doc["lineages"][0]["revision"]};
}

// After a verdict that failed once its record was written: the record is the new one (readers say
// approved), the revision the caller read is stale (conflict), fsck names the lineage's index row
// as still prepared, and the next writer resolves that row from the record.
void ExpectWrittenNotCommitted(LifecycleRepo& repo, const Started& s) {
  CHECK(ReadFile(s.record_path) != s.record_bytes);
  const auto [state, revision] = StatusOf(repo, s.lineage);
  CHECK(state == "approved");
  CHECK(revision != s.revision);
  auto again = transaction::GiveVerdict(Approve(repo, s.lineage, s.revision));
  REQUIRE_FALSE(again.ok());
  CHECK(again.status().code() == Code::kConflict);
  CHECK(again.status().details().at("revision") == revision);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 7);
  const nlohmann::json findings = fsck.Json()["findings"];
  REQUIRE(findings.size() == 1);
  CHECK(findings[0]["code"] == "index_prepared");
  CHECK(findings[0]["lineage"] == s.lineage);
  CHECK(findings[0]["path"] == s.record_path);
  repo.StartNew();
  ExpectFsckClean(repo);
  CHECK(StatusOf(repo, s.lineage) == std::make_pair(std::string("approved"), revision));
}

// Runs `mutation`, which must be refused; no byte of the store changes. Returns the refusal.
template <typename Mutation>
Status RefusedWithoutChange(const LifecycleRepo& repo, Mutation mutation) {
  const auto before = repo.StoreBytes();
  auto result = mutation();
  REQUIRE_FALSE(result.ok());
  CHECK(repo.StoreBytes() == before);
  return result.status();
}

const std::string kOtherRevision = "sha256:" + std::string(64, '0');

}  // namespace

TEST_CASE("transaction: a stale expected revision is conflict and changes no byte") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  const Status refused = RefusedWithoutChange(
      repo, [&] { return transaction::GiveVerdict(Approve(repo, s.lineage, kOtherRevision)); });
  CHECK(refused.code() == Code::kConflict);
  CHECK(refused.lineage() == s.lineage);
  CHECK(refused.details() == std::map<std::string, std::string>{
                                 {"expected_revision", kOtherRevision}, {"revision", s.revision}});
}

TEST_CASE(
    "transaction: burn of a lineage that is not approved is wrong_state and changes nothing") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  transaction::BurnRequest request;
  request.cwd = repo.root();
  request.lineage = s.lineage;
  request.token = std::string(64, 'a');
  request.expected_revision = s.revision;
  const Status refused = RefusedWithoutChange(repo, [&] { return transaction::Burn(request); });
  CHECK(refused.code() == Code::kWrongState);
  CHECK(refused.details() == std::map<std::string, std::string>{{"state", "reviewing"}});
}

TEST_CASE("transaction: a verdict on a historical compat record is read_only") {
  LifecycleRepo repo;
  const GoStore go = BuildGoStore(repo);
  const Status refused = RefusedWithoutChange(
      repo, [&] { return transaction::GiveVerdict(Approve(repo, go.historical, kOtherRevision)); });
  CHECK(refused.code() == Code::kReadOnly);
  CHECK(refused.lineage() == go.historical);
}

TEST_CASE(
    "transaction: a throw after the prepared index row leaves the record and frees the lock") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  {
    FaultHook hook("verdict:index-prepared", nullptr, /*then_throw=*/true);
    CHECK_THROWS_AS(transaction::GiveVerdict(Approve(repo, s.lineage, s.revision)), InjectedFault);
    CHECK(hook.hits() == 1);
  }
  CHECK(ReadFile(s.record_path) == s.record_bytes);
  CHECK(StatusOf(repo, s.lineage) == std::make_pair(std::string("reviewing"), s.revision));
  // The store lock went with the unwound scope: the same verdict now goes through.
  auto retried = transaction::GiveVerdict(Approve(repo, s.lineage, s.revision));
  REQUIRE(retried.ok());
  CHECK(retried->previous_revision == s.revision);
  CHECK(retried->state.name() == "approved");
  CHECK(StatusOf(repo, s.lineage) == std::make_pair(std::string("approved"), retried->revision));
  ExpectFsckClean(repo);
}

TEST_CASE("transaction: a throw after the record write keeps the new record") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  {
    FaultHook hook("verdict:record-written", nullptr, /*then_throw=*/true);
    CHECK_THROWS_AS(transaction::GiveVerdict(Approve(repo, s.lineage, s.revision)), InjectedFault);
    CHECK(hook.hits() == 1);
  }
  ExpectWrittenNotCommitted(repo, s);
}

TEST_CASE("transaction: a record write that fails returns internal and leaves the old record") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  const std::string dir = fs::path(s.record_path).parent_path().string();
  const std::string aside = dir + ".aside";
  // Just before the record is written, the lineage directory becomes a plain file: the atomic
  // write cannot create its temporary file there.
  Result<transaction::VerdictResult> verdict = Status(Code::kInternal, "not run");
  {
    FaultHook hook(
        "verdict:index-prepared",
        [&] {
          fs::rename(dir, aside);
          WriteFile(dir, "not a directory\n");
        },
        /*then_throw=*/false);
    verdict = transaction::GiveVerdict(Approve(repo, s.lineage, s.revision));
    CHECK(hook.hits() == 1);
  }
  REQUIRE_FALSE(verdict.ok());
  CHECK(verdict.status().code() == Code::kInternal);
  CHECK(verdict.status().message().find("cannot create temporary file in " + dir) !=
        std::string::npos);
  fs::remove(dir);
  fs::rename(aside, dir);
  CHECK(ReadFile(s.record_path) == s.record_bytes);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  CHECK(StatusOf(repo, s.lineage) == std::make_pair(std::string("reviewing"), s.revision));
  auto retried = transaction::GiveVerdict(Approve(repo, s.lineage, s.revision));
  REQUIRE(retried.ok());
  CHECK(retried->state.name() == "approved");
  ExpectFsckClean(repo);
}

TEST_CASE("transaction: an index commit that fails returns busy after the record is written") {
  LifecycleRepo repo;
  const Started s = StartOne(repo);
  const std::string index = store::StoreLayout(repo.common_dir()).index_path();
  // Just before the committed row is written, a second connection holds the index's write lock
  // (keeping -wal and -shm when it closes, as the store's own connections do).
  sqlite3* holder = nullptr;
  Result<transaction::VerdictResult> verdict = Status(Code::kInternal, "not run");
  {
    FaultHook hook(
        "verdict:record-written",
        [&] {
          REQUIRE(sqlite3_open_v2(index.c_str(), &holder, SQLITE_OPEN_READWRITE, nullptr) ==
                  SQLITE_OK);
          int persist = 1;
          sqlite3_file_control(holder, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
          REQUIRE(sqlite3_exec(holder, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) == SQLITE_OK);
        },
        /*then_throw=*/false);
    verdict = transaction::GiveVerdict(Approve(repo, s.lineage, s.revision));
    CHECK(hook.hits() == 1);
  }
  REQUIRE(sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_close(holder) == SQLITE_OK);
  REQUIRE_FALSE(verdict.ok());
  CHECK(verdict.status().code() == Code::kBusy);
  CHECK(verdict.status().message().find("index: ") == 0);
  ExpectWrittenNotCommitted(repo, s);
}

}  // namespace gentle::testing
