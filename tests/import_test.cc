// review import (transaction/import.h, docs/format.md): a fetched lineage enters the local
// store only after its whole history verifies, fast-forward only, as its record, tombstone or
// audit record. Two real clones; the review refs travel with git's own fetch (the refspec `review
// fetch` uses).
#include <catch2/catch.hpp>

#include "store/fault_point.h"
#include "tests/support/files.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::string RevParse(const LifecycleRepo& repo, const std::string& rev) {
  RunResult run = repo.Git({"rev-parse", "--verify", "-q", rev});
  return run.exit_code == 0 ? Trim(run.out) : "";
}

void FetchReviews(const LifecycleRepo& clone) {
  RunResult run = clone.Git({"fetch", "-q", "origin",
                             "+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
}

std::string RecordOf(const LifecycleRepo& repo, const std::string& lineage) {
  return ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json");
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict,     "--actor",
          "ana",     "--role",    "reviewer", "--body",    "Read it.\n"};
}

RunResult Import(const LifecycleRepo& repo, const std::string& lineage, const Env& env = {}) {
  return repo.Review({"import", "--lineage", lineage}, env);
}

TEST_CASE("import: a fresh clone imports a live lineage and then fast-forwards it") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);

  RunResult first = Import(clone, lineage);
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  CHECK(first.Json()["outcome"] == "imported");
  CHECK(first.Json()["remote"] == "origin");
  CHECK(first.Json()["state"] == "reviewing");
  CHECK(first.Json()["commits"] == 1);
  CHECK(first.Json()["local_tip_before"].is_null());
  CHECK(RecordOf(clone, lineage) == RecordOf(origin, lineage));
  CHECK(RevParse(clone, ReviewRef(lineage)) == RevParse(origin, ReviewRef(lineage)));
  RunResult status = clone.Review({"status", "--lineage", lineage});
  REQUIRE(status.exit_code == 0);
  CHECK(status.Json()["lineages"][0]["state"] == "reviewing");
  ExpectFsckClean(clone);

  RunResult again = Import(clone, lineage);
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["outcome"] == "up_to_date");

  REQUIRE(origin.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  REQUIRE(origin.Review(Verdict(lineage, "APPROVE")).exit_code == 0);
  FetchReviews(clone);
  const std::string before = RevParse(clone, ReviewRef(lineage));
  RunResult forward = Import(clone, lineage);
  INFO(forward.out << forward.err);
  REQUIRE(forward.exit_code == 0);
  CHECK(forward.Json()["outcome"] == "imported");
  CHECK(forward.Json()["commits"] == 2);
  CHECK(forward.Json()["local_tip_before"] == before);
  CHECK(forward.Json()["state"] == "approved");
  CHECK(RecordOf(clone, lineage) == RecordOf(origin, lineage));
  CHECK(RevParse(clone, ReviewRef(lineage)) == RevParse(origin, ReviewRef(lineage)));
  ExpectFsckClean(clone);
  RunResult listed = clone.Review({"list"});
  REQUIRE(listed.exit_code == 0);
  CHECK(listed.Json()["lineages"][0]["state"] == "approved");
}

TEST_CASE("import: histories that diverged are a conflict naming both tips and change nothing") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(Import(clone, lineage).exit_code == 0);
  REQUIRE(origin.Review(Verdict(lineage, "APPROVE")).exit_code == 0);
  REQUIRE(clone.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  FetchReviews(clone);
  const auto before = clone.StoreBytes();
  RunResult run = Import(clone, lineage);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 11);
  const nlohmann::json error = run.Json()["error"];
  CHECK(error["code"] == "conflict");
  CHECK(error["details"]["local_tip"] == RevParse(clone, ReviewRef(lineage)));
  CHECK(error["details"]["fetched_tip"] == RevParse(origin, ReviewRef(lineage)));
  CHECK(clone.StoreBytes() == before);
}

TEST_CASE("import: a local history ahead of the fetched one is up to date") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(Import(clone, lineage).exit_code == 0);
  REQUIRE(clone.Review(Verdict(lineage, "APPROVE")).exit_code == 0);
  const auto before = clone.StoreBytes();
  RunResult run = Import(clone, lineage);
  REQUIRE(run.exit_code == 0);
  CHECK(run.Json()["outcome"] == "up_to_date");
  CHECK(clone.StoreBytes() == before);
}

TEST_CASE("import: a burned lineage imports as this repository's tombstone") {
  LifecycleRepo origin;
  LifecycleRepo::Approved approved = origin.StartApproved();
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(Import(clone, approved.lineage).exit_code == 0);  // approved here too
  REQUIRE(origin
              .Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  FetchReviews(clone);
  // The lineage is live here: taking the remote's burn needs the importer's consent.
  RunResult run = clone.Review({"import", "--lineage", approved.lineage, "--accept-terminal"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.Json()["state"] == "consumed");
  CHECK(RevParse(clone, ReviewRef(approved.lineage)) ==
        RevParse(origin, ReviewRef(approved.lineage)));
  CHECK(clone.Review({"status", "--lineage", approved.lineage}).exit_code == 4);
  CHECK(!Exists(clone.store_root() + "/v2/" + approved.lineage));
  ExpectFsckClean(clone);
  CHECK(Import(clone, approved.lineage).Json()["outcome"] == "up_to_date");
}

TEST_CASE("import: an abandoned lineage imports as an audit record in quarantine") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  REQUIRE(origin
              .Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  RunResult run = Import(clone, lineage);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK(run.Json()["state"] == "retired");
  RunResult status = clone.Review({"status", "--lineage", lineage});
  CHECK(status.exit_code == 5);
  ExpectFsckClean(clone);
}

TEST_CASE("import: a forged fetched history is corrupted and never enters the store") {
  LifecycleRepo origin;
  LifecycleRepo::Approved approved = origin.StartApproved();
  const std::string lineage = approved.lineage;
  // The record's state edited to approved at the start commit, re-committed as the tip.
  const std::string tip = RevParse(origin, ReviewRef(lineage));
  std::string record = Trim(origin.Git({"cat-file", "blob", tip + "^:review-state.json"}).out);
  record.replace(record.find("\"reviewing\""), 11, "\"approved\"");
  RunResult blob = Run({"git", "hash-object", "-w", "--stdin"}, origin.root(), {}, record + "\n");
  REQUIRE(blob.exit_code == 0);
  std::string listing = origin.Git({"ls-tree", tip + "^"}).out;
  const size_t at = listing.find("review-state.json");
  const size_t line =
      listing.rfind('\n', at) == std::string::npos ? 0 : listing.rfind('\n', at) + 1;
  listing.replace(line, at - line, "100644 blob " + Trim(blob.out) + "\t");
  RunResult tree = Run({"git", "mktree"}, origin.root(), {}, listing);
  REQUIRE(tree.exit_code == 0);
  const std::string message = origin.Git({"log", "-1", "--format=%B", tip}).out;
  RunResult forged =
      Run({"git", "commit-tree", Trim(tree.out), "-p", tip + "^", "-m", message}, origin.root(),
          {{"GIT_AUTHOR_NAME", "x"},
           {"GIT_AUTHOR_EMAIL", "x@x"},
           {"GIT_COMMITTER_NAME", "x"},
           {"GIT_COMMITTER_EMAIL", "x@x"}});
  REQUIRE(forged.exit_code == 0);
  REQUIRE(origin.Git({"update-ref", ReviewRef(lineage), Trim(forged.out)}).exit_code == 0);

  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  const auto before = clone.StoreBytes();
  RunResult run = Import(clone, lineage);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 7);
  CHECK(run.Json()["error"]["code"] == "corrupted");
  CHECK(run.Json()["error"]["details"]["commit"] == Trim(forged.out));
  CHECK(clone.StoreBytes() == before);
  CHECK(RevParse(clone, ReviewRef(lineage)).empty());
}

TEST_CASE("import: refusals before anything is read") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  RunResult none = Import(clone, lineage);
  CHECK(none.exit_code == 3);
  CHECK(none.Json()["error"]["code"] == "not_found");
  FetchReviews(clone);
  RunResult hostile = clone.Review({"import", "--lineage", lineage, "--remote", "../x"});
  CHECK(hostile.exit_code == 2);
  CHECK(hostile.Json()["error"]["code"] == "usage");
  RunResult bad_id = clone.Review({"import", "--lineage", "../../etc"});
  CHECK(bad_id.exit_code == 2);
  RunResult other = clone.Review({"import", "--lineage", lineage, "--remote", "upstream"});
  CHECK(other.exit_code == 3);
}

TEST_CASE("import: a crash after the files and before the ref leaves nothing lost") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  REQUIRE(origin.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  RunResult killed = Import(clone, lineage, {{"GENTLE_FAULT_POINT", "import:files-written"}});
  REQUIRE(killed.exit_code == store::kFaultExitCode);
  CHECK(RecordOf(clone, lineage) == RecordOf(origin, lineage));
  CHECK(RevParse(clone, ReviewRef(lineage)).empty());

  SECTION("the next writer moves the history forward to the fetched tip") {
    clone.StartNew();
    CHECK(RevParse(clone, ReviewRef(lineage)) == RevParse(origin, ReviewRef(lineage)));
    ExpectFsckClean(clone);
  }
  SECTION("import run again finishes it") {
    RunResult again = Import(clone, lineage);
    INFO(again.out << again.err);
    REQUIRE(again.exit_code == 0);
    CHECK(RevParse(clone, ReviewRef(lineage)) == RevParse(origin, ReviewRef(lineage)));
    ExpectFsckClean(clone);
  }
}

TEST_CASE("import: a burn import stopped before its ref moved is finished by running it again") {
  LifecycleRepo origin;
  LifecycleRepo::Approved approved = origin.StartApproved();
  REQUIRE(origin
              .Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  RunResult killed =
      Import(clone, approved.lineage, {{"GENTLE_FAULT_POINT", "import:files-written"}});
  REQUIRE(killed.exit_code == store::kFaultExitCode);
  CHECK(clone.Review({"status", "--lineage", approved.lineage}).exit_code == 4);
  RunResult again = Import(clone, approved.lineage);
  INFO(again.out << again.err);
  REQUIRE(again.exit_code == 0);
  CHECK(again.Json()["outcome"] == "imported");
  CHECK(RevParse(clone, ReviewRef(approved.lineage)) ==
        RevParse(origin, ReviewRef(approved.lineage)));
  ExpectFsckClean(clone);
}

}  // namespace
}  // namespace gentle::testing
