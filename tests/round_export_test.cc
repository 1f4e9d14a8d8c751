// export-context per review round (docs/engine.md, docs/loop.md) through the built CLI: the
// current round, `--round N` and `--since-round N` are byte-identical to the pinned git oracle on
// the same two trees; the envelopes name their rounds; the classification rows (usage, not_found,
// burned and fetched-only lineages); and verify --envelope with old, round and interdiff envelopes.
// Every read leaves the store byte-identical.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "export/base64.h"
#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

Json RecordOf(const LifecycleRepo& repo, const std::string& lineage) {
  return Json::parse(ReadFile(repo.store_root() + "/v2/" + lineage + "/review-state.json"));
}

// The pinned git CLI on the two trees, in `repo`'s object database.
std::string Oracle(const LifecycleRepo& repo, const std::string& from, const std::string& to) {
  Result<std::string> diff = OracleDiff(repo.common_dir(), from, to);
  INFO(diff.status().message());
  REQUIRE(diff.ok());
  return *diff;
}

RunResult Export(const LifecycleRepo& repo, const std::string& lineage,
                 const std::vector<std::string>& extra, bool json) {
  std::vector<std::string> args = {"export-context", "--lineage", lineage};
  args.insert(args.end(), extra.begin(), extra.end());
  return repo.Review(args, {}, json);
}

// The raw patch of a successful export.
std::string Patch(const LifecycleRepo& repo, const std::string& lineage,
                  const std::vector<std::string>& extra = {}) {
  RunResult run = Export(repo, lineage, extra, false);
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
  return run.out;
}

Json Envelope(const LifecycleRepo& repo, const std::string& lineage,
              const std::vector<std::string>& extra = {}) {
  RunResult run = Export(repo, lineage, extra, true);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

// The top-level member names of a JSON output, in the order written.
std::vector<std::string> Keys(const RunResult& run) {
  const nlohmann::ordered_json doc = nlohmann::ordered_json::parse(run.out);
  std::vector<std::string> keys;
  for (const auto& item : doc.items()) keys.push_back(item.key());
  return keys;
}

void ExpectCode(const RunResult& run, const std::string& code, int exit_code) {
  INFO("stdout: " << run.out << "\nstderr: " << run.err);
  CHECK(run.exit_code == exit_code);
  CHECK(run.Json()["error"]["code"] == code);
}

// The envelope's candidate_diff decodes to `patch` and binds it.
void ExpectDiff(const Json& envelope, const std::string& patch) {
  CHECK(exporter::DecodeCanonicalBase64(envelope["candidate_diff"]["data"].get<std::string>()) ==
        patch);
  CHECK(envelope["candidate_diff"]["sha256"] == "sha256:" + store::Sha256Hex(patch));
  CHECK(envelope["candidate_diff"]["byte_size"] == patch.size());
  CHECK(envelope["budget"] == Json{{"max_bytes", 4194304}, {"used_bytes", patch.size()}});
}

// An interdiff envelope of (from round, from revision) -> (to round, to revision) and `patch`.
void ExpectInterdiff(const Json& envelope, const std::string& lineage, int from_round,
                     const std::string& from_revision, const std::string& from_tree, int to_round,
                     const std::string& to_revision, const std::string& to_tree,
                     const std::string& patch) {
  CHECK(envelope["schema"] == "gentle-ai.review-interdiff-export/v1");
  CHECK(envelope["lineage"] == lineage);
  CHECK(envelope["revision"] == to_revision);
  CHECK(envelope["from"] ==
        Json{{"round", from_round}, {"revision", from_revision}, {"candidate_tree", from_tree}});
  CHECK(envelope["to"] ==
        Json{{"round", to_round}, {"revision", to_revision}, {"candidate_tree", to_tree}});
  ExpectDiff(envelope, patch);
  CHECK(envelope["derivation"]["engine"] == "native");
  CHECK(envelope["derivation"]["git_flags"].size() == 12);
}

// verify --envelope of `doc` in `repo` (with --json); returns the run.
RunResult VerifyEnvelope(const LifecycleRepo& repo, const TempDir& tmp, const Json& doc) {
  const std::string file = tmp.path() + "/envelope.json";
  WriteFile(file, doc.dump());
  return repo.Review({"verify", "--envelope", file});
}

// Whether every path under `tree` (git ls-tree -r) is valid UTF-8 (no overlong forms, no
// surrogates, nothing above U+10FFFF).
bool AllPathsUtf8(const std::string& git_dir, const std::string& tree) {
  RunResult listed = Run(
      {"git", "--git-dir=" + git_dir, "ls-tree", "-r", "-z", "--name-only", "--full-tree", tree},
      "", OracleEnv());
  REQUIRE(listed.exit_code == 0);
  const std::string& s = listed.out;
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    uint32_t cp = n == 1 ? c : c & (0xff >> (n + 1));
    for (size_t k = 1; k < n; ++k) {
      const auto d = static_cast<unsigned char>(s[i + k]);
      if ((d >> 6) != 0x2) return false;
      cp = (cp << 6) | (d & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n;
  }
  return true;
}

// Gives a verdict by role reviewer and returns the revision it made.
std::string Give(const LifecycleRepo& repo, const std::string& lineage,
                 const std::string& verdict) {
  RunResult run = repo.Review({"verdict", "--lineage", lineage, "--verdict", verdict, "--actor",
                               "ana", "--role", "reviewer", "--body", "round notes"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json()["revision"];
}

// review revise; returns its JSON.
Json Revise(const LifecycleRepo& repo, const std::string& lineage) {
  RunResult run = repo.Review({"revise", "--lineage", lineage});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

// One round of a lineage as the record of its newest commit shows it.
struct Round {
  std::string revision;  // round_revision: the revision of the round's newest history commit
  Json snapshot;         // its current_snapshot
};

// REQUEST_CHANGES on the current round (its last revision), `change` to the worktree, revise:
// appends the round that ends and returns the new current round.
Round NextRound(const LifecycleRepo& repo, const std::string& lineage,
                const std::function<void()>& change, std::vector<Round>* rounds) {
  const Json before = RecordOf(repo, lineage);
  const std::string requested = Give(repo, lineage, "REQUEST_CHANGES");
  rounds->push_back({requested, before["state"]["current_snapshot"]});
  change();
  const Json revised = Revise(repo, lineage);
  CHECK(revised["round"] == rounds->size() + 1);
  const Json after = RecordOf(repo, lineage);
  CHECK(after["revision"] == revised["revision"]);
  return {revised["revision"], after["state"]["current_snapshot"]};
}

// Every round and every interdiff into the current round of `lineage` (rounds 1..n, the last the
// current one) is the oracle's diff of its trees, raw and in its envelope; an interdiff above the
// budget is budget_exceeded.
void ExpectRoundsMatchOracle(const LifecycleRepo& repo, const std::string& lineage,
                             const std::vector<Round>& rounds) {
  const Round& current = rounds.back();
  const int n = static_cast<int>(rounds.size());
  for (int k = 1; k <= n; ++k) {
    INFO("round " << k << " of " << n);
    const Round& round = rounds[static_cast<size_t>(k - 1)];
    const std::string oracle =
        Oracle(repo, round.snapshot["base_tree"], round.snapshot["candidate_tree"]);
    const std::vector<std::string> flag = {"--round", std::to_string(k)};
    if (oracle.size() > 4194304) {
      ExpectCode(Export(repo, lineage, flag, true), "budget_exceeded", 9);
    } else {
      CHECK(Patch(repo, lineage, flag) == oracle);
      const Json envelope = Envelope(repo, lineage, flag);
      CHECK(envelope["round"] == k);
      CHECK(envelope["round_revision"] == round.revision);
      CHECK(envelope["revision"] == current.revision);
      CHECK(envelope["snapshot"]["base_tree"] == round.snapshot["base_tree"]);
      CHECK(envelope["snapshot"]["candidate_tree"] == round.snapshot["candidate_tree"]);
      CHECK(envelope["snapshot"]["paths_digest"] == round.snapshot["paths_digest"]);
      CHECK(envelope["snapshot"]["identity"] == round.snapshot["identity"]);
      ExpectDiff(envelope, oracle);
    }
    const std::string interdiff =
        Oracle(repo, round.snapshot["candidate_tree"], current.snapshot["candidate_tree"]);
    const std::vector<std::string> since = {"--since-round", std::to_string(k)};
    if (interdiff.size() > 4194304) {
      ExpectCode(Export(repo, lineage, since, true), "budget_exceeded", 9);
      continue;
    }
    CHECK(Patch(repo, lineage, since) == interdiff);
    CHECK(Patch(repo, lineage, {"--since-round", std::to_string(k), "--engine", "git"}) ==
          interdiff);
    ExpectInterdiff(Envelope(repo, lineage, since), lineage, k, round.revision,
                    round.snapshot["candidate_tree"], n, current.revision,
                    current.snapshot["candidate_tree"], interdiff);
  }
  ExpectCode(Export(repo, lineage, {"--round", std::to_string(n + 1)}, true), "not_found", 3);
  ExpectCode(Export(repo, lineage, {"--since-round", std::to_string(n + 1)}, true), "not_found", 3);
}

}  // namespace

TEST_CASE("rounds: one round - the export names round 1 - --round 1 is the current round") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const Json record = RecordOf(repo, lineage);
  const Json& current = record["state"]["current_snapshot"];
  const std::string oracle = Oracle(repo, current["base_tree"], current["candidate_tree"]);
  const auto before = repo.StoreBytes();

  CHECK(Patch(repo, lineage) == oracle);
  CHECK(Patch(repo, lineage, {"--round", "1"}) == oracle);
  CHECK(Patch(repo, lineage, {"--round", "1", "--engine", "git"}) == oracle);

  const Json plain = Envelope(repo, lineage);
  CHECK(plain["round"] == 1);
  CHECK_FALSE(plain.contains("round_revision"));
  CHECK(plain["revision"] == record["revision"]);
  CHECK(plain["snapshot"]["candidate_tree"] == current["candidate_tree"]);
  CHECK(plain["snapshot"]["identity"] == current["identity"]);
  ExpectDiff(plain, oracle);
  CHECK(Keys(Export(repo, lineage, {}, true)) ==
        std::vector<std::string>{"schema", "lineage", "revision", "round", "snapshot", "state",
                                 "applicability", "source", "candidate_diff",
                                 "changed_path_manifest", "derivation", "budget", "context_digest",
                                 "context_unavailable", "next", "next_reason"});

  Json round = Envelope(repo, lineage, {"--round", "1"});
  CHECK(round["round"] == 1);
  CHECK(round["round_revision"] == record["revision"]);
  CHECK(round["state"] == "reviewing");
  CHECK(round["applicability"] == "current_target");
  round.erase("round_revision");
  CHECK(round == plain);

  // The interdiff from the current round to itself is empty.
  CHECK(Patch(repo, lineage, {"--since-round", "1"}).empty());
  const Json interdiff = Envelope(repo, lineage, {"--since-round", "1"});
  ExpectInterdiff(interdiff, lineage, 1, record["revision"], current["candidate_tree"], 1,
                  record["revision"], current["candidate_tree"], "");
  CHECK(interdiff["state"] == "reviewing");
  CHECK(interdiff["source"].is_null());
  CHECK(interdiff["changed_path_manifest"] == Json::array());
  CHECK(Keys(Export(repo, lineage, {"--since-round", "1"}, true)) ==
        std::vector<std::string>{"schema", "lineage", "revision", "state", "source", "from", "to",
                                 "candidate_diff", "changed_path_manifest", "derivation",
                                 "budget"});
  CHECK(Keys(Export(repo, lineage, {"--round", "1"}, true)) ==
        std::vector<std::string>{"schema", "lineage", "revision", "round", "round_revision",
                                 "snapshot", "state", "applicability", "source", "candidate_diff",
                                 "changed_path_manifest", "derivation", "budget", "context_digest",
                                 "context_unavailable", "next", "next_reason"});
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("rounds: usage and not_found rows of --round and --since-round") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const auto before = repo.StoreBytes();
  for (const char* flag : {"--round", "--since-round"}) {
    for (const char* bad : {"0", "-1", "01", "1.0", "x", "", "+1"}) {
      INFO(flag << " " << bad);
      ExpectCode(Export(repo, lineage, {flag, bad}, true), "usage", 2);
    }
    RunResult above = Export(repo, lineage, {flag, "2"}, true);
    ExpectCode(above, "not_found", 3);
    CHECK(above.Json()["error"]["details"]["round"] == "2");
    CHECK(above.Json()["error"]["lineage"] == lineage);
    ExpectCode(Export(repo, "review-0000000000000000", {flag, "1"}, true), "not_found", 3);
    ExpectCode(Export(repo, "Bad_Id", {flag, "1"}, true), "usage", 2);
  }
  RunResult both = Export(repo, lineage, {"--round", "1", "--since-round", "1"}, true);
  ExpectCode(both, "usage", 2);
  CHECK(both.Json()["error"]["message"] == "--round and --since-round exclude each other");
  ExpectCode(Export(repo, lineage, {"--since-round", "1", "--engine", "svn"}, true), "usage", 2);
  RunResult text = Export(repo, lineage, {"--round", "0"}, false);
  CHECK(text.exit_code == 2);
  CHECK(text.err == "gentle-ai: usage: --round must be a decimal number >= 1, got \"0\"\n");
  RunResult help = repo.Review({"export-context", "--help"}, {}, false);
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("--round") != std::string::npos);
  CHECK(help.out.find("--since-round") != std::string::npos);
  CHECK(help.out.find("gentle-ai.review-interdiff-export/v1") != std::string::npos);
  CHECK(repo.StoreBytes() == before);
}

TEST_CASE("rounds: a burned lineage exports its rounds from its history - plain export consumed") {
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const Json record = RecordOf(repo, approved.lineage);
  const Json& current = record["state"]["current_snapshot"];
  const std::string oracle = Oracle(repo, current["base_tree"], current["candidate_tree"]);
  REQUIRE(repo.Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  const auto before = repo.StoreBytes();
  ExpectCode(Export(repo, approved.lineage, {}, true), "consumed", 4);
  CHECK(Patch(repo, approved.lineage, {"--round", "1"}) == oracle);
  const Json round = Envelope(repo, approved.lineage, {"--round", "1"});
  CHECK(round["state"] == "consumed");
  CHECK(round["applicability"] == "unrelated");
  CHECK(round["revision"] == approved.revision);
  CHECK(round["round_revision"] == approved.revision);
  ExpectDiff(round, oracle);
  const Json interdiff = Envelope(repo, approved.lineage, {"--since-round", "1"});
  ExpectInterdiff(interdiff, approved.lineage, 1, approved.revision, current["candidate_tree"], 1,
                  approved.revision, current["candidate_tree"], "");
  CHECK(interdiff["state"] == "consumed");
  ExpectCode(Export(repo, approved.lineage, {"--round", "2"}, true), "not_found", 3);
  CHECK(repo.StoreBytes() == before);

  // Without a history to read (burned by the Go gentle-ai or an earlier build) it stays consumed.
  repo.GitOk({"update-ref", "-d", ReviewRef(approved.lineage)});
  ExpectCode(Export(repo, approved.lineage, {"--round", "1"}, true), "consumed", 4);
  ExpectCode(Export(repo, approved.lineage, {"--since-round", "1"}, true), "consumed", 4);

  // An abandoned lineage is retired, whatever the round.
  const std::string abandoned = repo.StartNew()["lineage"];
  const std::string revision = RecordOf(repo, abandoned)["revision"];
  REQUIRE(repo.Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ana", "--expected-revision", revision})
              .exit_code == 0);
  ExpectCode(Export(repo, abandoned, {"--round", "1"}, true), "retired", 5);
  ExpectCode(Export(repo, abandoned, {"--since-round", "1"}, true), "retired", 5);
}

TEST_CASE("rounds: a fetched-only lineage exports its rounds from the verified fetched history") {
  TempDir tmp;
  LifecycleRepo a;
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", origin}, tmp.path(), GitEnv()).exit_code == 0);
  a.GitOk({"remote", "add", "origin", "file://" + origin});
  a.GitOk({"push", "-q", "origin", "HEAD:refs/heads/main"});
  auto approved = a.StartApproved();
  REQUIRE(a.Review({"push"}).exit_code == 0);
  const std::string b = tmp.path() + "/b";
  REQUIRE(Run({"git", "clone", "-q", "file://" + origin, b}, tmp.path(), GitEnv()).exit_code == 0);
  RunResult fetch = GentleAi({"review", "fetch", "--cwd", b}, b);
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);
  auto there = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args = {"review",         "export-context", "--lineage",
                                     approved.lineage, "--cwd",          b};
    args.insert(args.end(), extra.begin(), extra.end());
    return GentleAi(args, b);
  };
  const std::string here = Patch(a, approved.lineage);
  RunResult round = there({"--round", "1"});
  INFO(round.err);
  CHECK(round.exit_code == 0);
  CHECK(round.out == here);
  const Json envelope = there({"--round", "1", "--json"}).Json();
  CHECK(envelope["source"] == "origin");
  CHECK(envelope["round_revision"] == approved.revision);
  CHECK(envelope["state"] == "approved");
  const Json interdiff = there({"--since-round", "1", "--json"}).Json();
  CHECK(interdiff["source"] == "origin");
  CHECK(interdiff["candidate_diff"]["byte_size"] == 0);
  ExpectCode(there({"--round", "2", "--json"}), "not_found", 3);
}

TEST_CASE("rounds: verify --envelope reads old and round envelopes and refuses interdiffs") {
  TempDir tmp;
  LifecycleRepo repo;
  auto approved = repo.StartApproved();
  const Json plain = Envelope(repo, approved.lineage);
  const std::vector<std::string> old_self_asserted = {"lineage",
                                                      "revision",
                                                      "state",
                                                      "applicability",
                                                      "next",
                                                      "next_reason",
                                                      "source",
                                                      "snapshot.kind",
                                                      "snapshot.projection",
                                                      "snapshot.ledger_ids",
                                                      "snapshot.intended_untracked",
                                                      "snapshot.unborn_head",
                                                      "derivation.engine",
                                                      "derivation.tool_version"};
  auto with = [&](std::vector<std::string> members) {
    std::vector<std::string> out = old_self_asserted;
    out.insert(out.begin() + 2, members.begin(), members.end());
    return out;
  };

  RunResult current = VerifyEnvelope(repo, tmp, plain);
  INFO(current.out << current.err);
  REQUIRE(current.exit_code == 0);
  CHECK(current.Json()["self_asserted"] == with({"round"}));

  // An envelope written before rounds (no `round`) verifies as it did.
  Json old = plain;
  old.erase("round");
  RunResult before_rounds = VerifyEnvelope(repo, tmp, old);
  CHECK(before_rounds.exit_code == 0);
  CHECK(before_rounds.Json()["self_asserted"] == old_self_asserted);

  // --round of the current round is the same approval context.
  const Json round = Envelope(repo, approved.lineage, {"--round", "1"});
  RunResult current_round = VerifyEnvelope(repo, tmp, round);
  CHECK(current_round.exit_code == 0);
  CHECK(current_round.Json()["self_asserted"] == with({"round", "round_revision"}));

  // A round envelope whose round_revision is not its revision is an earlier round.
  Json earlier = round;
  earlier["round_revision"] = "sha256:" + std::string(64, 'a');
  RunResult refused = VerifyEnvelope(repo, tmp, earlier);
  ExpectCode(refused, "wrong_state", 6);
  CHECK(refused.Json()["error"]["details"]["round"] == "1");

  for (const Json& bad : {Json(0), Json(-1), Json("1"), Json(1.5), Json(nullptr)}) {
    Json malformed = plain;
    malformed["round"] = bad;
    ExpectCode(VerifyEnvelope(repo, tmp, malformed), "integrity_mismatch", 10);
  }
  Json orphan = old;
  orphan["round_revision"] = plain["revision"];
  ExpectCode(VerifyEnvelope(repo, tmp, orphan), "integrity_mismatch", 10);
  Json short_revision = round;
  short_revision["round_revision"] = "sha256:abc";
  ExpectCode(VerifyEnvelope(repo, tmp, short_revision), "integrity_mismatch", 10);

  // An interdiff is no approval context: refused with usage, naming its schema.
  const Json interdiff = Envelope(repo, approved.lineage, {"--since-round", "1"});
  RunResult not_context = VerifyEnvelope(repo, tmp, interdiff);
  ExpectCode(not_context, "usage", 2);
  CHECK(not_context.Json()["error"]["details"]["schema"] == "gentle-ai.review-interdiff-export/v1");
}

}  // namespace gentle::testing

namespace gentle::testing {

TEST_CASE("rounds: three rounds - every round and interdiff is the pinned git diff of its trees") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];  // change-1.txt, untracked
  std::vector<Round> rounds;
  Round current = NextRound(
      repo, lineage,
      [&] {
        repo.Write("a.txt", "one\ntwo\n");
        repo.Write("change-1.txt", "change\nfixed\n");
      },
      &rounds);
  current = NextRound(
      repo, lineage, [&] { repo.Write("a.txt", "one\ntwo\nthree\n"); }, &rounds);
  rounds.push_back(current);
  REQUIRE(rounds.size() == 3);
  CHECK(rounds[0].snapshot["candidate_tree"] != rounds[1].snapshot["candidate_tree"]);
  const auto before = repo.StoreBytes();
  ExpectRoundsMatchOracle(repo, lineage, rounds);
  // Without a flag: the current round, named.
  const Json plain = Envelope(repo, lineage);
  CHECK(plain["round"] == 3);
  CHECK_FALSE(plain.contains("round_revision"));
  CHECK(plain["snapshot"]["candidate_tree"] == current.snapshot["candidate_tree"]);
  CHECK(Patch(repo, lineage) == Patch(repo, lineage, {"--round", "3"}));
  // The record's initial snapshot stays round 1's.
  CHECK(RecordOf(repo, lineage)["state"]["initial_snapshot"] == rounds[0].snapshot);
  // verify --lineage checks the current round.
  RunResult verified = repo.Review({"verify", "--lineage", lineage});
  INFO(verified.out << verified.err);
  CHECK(verified.exit_code == 0);
  CHECK(verified.Json()["candidate_tree"] == current.snapshot["candidate_tree"]);
  CHECK(verified.Json()["sha256"] == plain["candidate_diff"]["sha256"]);
  CHECK(repo.StoreBytes() == before);

  // Approved: the current round is the approval context; an earlier round's envelope is not.
  const std::string approved = Give(repo, lineage, "APPROVE");
  TempDir tmp;
  RunResult ok = VerifyEnvelope(repo, tmp, Envelope(repo, lineage));
  INFO(ok.out << ok.err);
  CHECK(ok.exit_code == 0);
  CHECK(ok.Json()["candidate_tree"] == current.snapshot["candidate_tree"]);
  const Json earlier = Envelope(repo, lineage, {"--round", "1"});
  CHECK(earlier["state"] == "approved");
  RunResult refused = VerifyEnvelope(repo, tmp, earlier);
  ExpectCode(refused, "wrong_state", 6);
  CHECK(refused.Json()["error"]["details"]["round"] == "1");
  ExpectCode(VerifyEnvelope(repo, tmp, Envelope(repo, lineage, {"--since-round", "2"})), "usage",
             2);
  // attest states the current round's trees and patch.
  RunResult attest = repo.Review({"attest", "--lineage", lineage}, {}, false);
  INFO(attest.err);
  REQUIRE(attest.exit_code == 0);
  const Json statement = Json::parse(attest.out);
  CHECK(statement["predicate"]["candidate_tree"] == current.snapshot["candidate_tree"]);
  CHECK(statement["predicate"]["base_tree"] == current.snapshot["base_tree"]);
  CHECK(statement["predicate"]["patch_sha256"] == plain["candidate_diff"]["sha256"]);
  CHECK(statement["predicate"]["revision"] == approved);
}

TEST_CASE("rounds: burned and fetched-only lineages export every round from their history") {
  TempDir tmp;
  LifecycleRepo a;
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", origin}, tmp.path(), GitEnv()).exit_code == 0);
  a.GitOk({"remote", "add", "origin", "file://" + origin});
  a.GitOk({"push", "-q", "origin", "HEAD:refs/heads/main"});
  const std::string lineage = a.StartNew()["lineage"];
  std::vector<Round> rounds;
  const Round second = NextRound(
      a, lineage, [&] { a.Write("change-1.txt", "second round\n"); }, &rounds);
  rounds.push_back(second);
  REQUIRE(rounds.size() == 2);
  REQUIRE(a.Review({"push"}).exit_code == 0);
  const std::string b = tmp.path() + "/b";
  REQUIRE(Run({"git", "clone", "-q", "file://" + origin, b}, tmp.path(), GitEnv()).exit_code == 0);
  RunResult fetch = GentleAi({"review", "fetch", "--cwd", b}, b);
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);
  for (const char* flag : {"--round", "--since-round"}) {
    for (const char* n : {"1", "2"}) {
      INFO(flag << " " << n);
      const std::string here = Patch(a, lineage, {flag, n});
      RunResult there =
          GentleAi({"review", "export-context", "--lineage", lineage, "--cwd", b, flag, n}, b);
      CHECK(there.exit_code == 0);
      CHECK(there.out == here);
      RunResult json = GentleAi(
          {"review", "export-context", "--lineage", lineage, "--cwd", b, flag, n, "--json"}, b);
      CHECK(json.Json()["source"] == "origin");
    }
  }

  // Approve round 2 and burn it: its rounds still export from the history, state consumed.
  const std::string round1 = Patch(a, lineage, {"--round", "1"});
  const std::string since1 = Patch(a, lineage, {"--since-round", "1"});
  RunResult approve = a.Review({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor",
                                "ana", "--role", "reviewer", "--body", "fixed"});
  INFO(approve.out << approve.err);
  REQUIRE(approve.exit_code == 0);
  const std::string approved = approve.Json()["revision"];
  const std::string token = approve.Json()["token"];
  REQUIRE(
      a.Review({"burn", "--lineage", lineage, "--token", token, "--expected-revision", approved})
          .exit_code == 0);
  ExpectCode(Export(a, lineage, {}, true), "consumed", 4);
  CHECK(Patch(a, lineage, {"--round", "1"}) == round1);
  CHECK(Patch(a, lineage, {"--since-round", "1"}) == since1);
  const Json burned = Envelope(a, lineage, {"--round", "1"});
  CHECK(burned["state"] == "consumed");
  CHECK(burned["revision"] == approved);
  CHECK(burned["round_revision"] == rounds[0].revision);
  const Json interdiff = Envelope(a, lineage, {"--since-round", "1"});
  CHECK(interdiff["state"] == "consumed");
  CHECK(interdiff["to"]["revision"] == approved);
  CHECK(interdiff["to"]["round"] == 2);
  CHECK(interdiff["from"]["revision"] == rounds[0].revision);
}

TEST_CASE("rounds: real history pairs - rounds are consecutive commits of the fixture corpus") {
  TempDir corpus;
  RunResult built =
      Run({"bash", std::string(GENTLE_FIXTURES_DIR) + "/make-diff-corpus.sh", corpus.path()}, "",
          OracleEnv());
  INFO(built.err);
  REQUIRE(built.exit_code == 0);
  std::vector<std::string> trees;
  {
    std::istringstream pairs(ReadFile(corpus.path() + "/pairs.txt"));
    std::string name, base, candidate;
    while (pairs >> name >> base >> candidate) {
      for (const std::string& tree : {base, candidate}) {
        // Each tree once: no round repeats an earlier candidate or the base. A record holds
        // only UTF-8 paths (start refuses others), so trees with other paths are left out.
        if (std::find(trees.begin(), trees.end(), tree) == trees.end() &&
            AllPathsUtf8(corpus.path() + "/corpus.git", tree)) {
          trees.push_back(tree);
        }
      }
    }
  }
  REQUIRE(trees.size() >= 6);
  LifecycleRepo repo;
  // The corpus's objects, shared as a clone with --reference shares them.
  WriteFile(repo.common_dir() + "/objects/info/alternates",
            corpus.path() + "/corpus.git/objects\n");
  // A first-parent chain of real commits whose trees are the corpus trees, in order.
  std::vector<std::string> commits;
  for (const std::string& tree : trees) {
    std::vector<std::string> args = {"commit-tree", tree, "-m", "corpus " + tree};
    if (!commits.empty()) args.insert(args.end(), {"-p", commits.back()});
    commits.push_back(Trim(repo.GitOk(args)));
  }
  repo.GitOk({"branch", "topic", commits[1]});
  RunResult started =
      repo.Review({"start", "--kind", "commit-range", "--base", commits[0], "--head", "topic"});
  INFO(started.out << started.err);
  REQUIRE(started.exit_code == 0);
  const std::string lineage = started.Json()["lineage"];
  std::vector<Round> rounds;
  for (size_t next = 2; next < commits.size(); ++next) {
    Round current = NextRound(
        repo, lineage,
        [&] {
          repo.GitOk({"branch", "-f", "topic", commits[next]});
        },
        &rounds);
    CHECK(current.snapshot["candidate_tree"] == trees[next]);
    CHECK(current.snapshot["base_tree"] == trees[0]);
    if (next + 1 == commits.size()) rounds.push_back(current);
  }
  REQUIRE(rounds.size() == trees.size() - 1);
  // Round k's candidate is commit k's tree: --since-round k is `git diff commit_k commit_last`.
  for (size_t k = 0; k < rounds.size(); ++k) {
    CHECK(rounds[k].snapshot["candidate_tree"] == trees[k + 1]);
  }
  ExpectRoundsMatchOracle(repo, lineage, rounds);
}

}  // namespace gentle::testing
