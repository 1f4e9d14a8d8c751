// The next action (docs/loop.md, docs/lifecycle.md "Next action"): every row of the
// table through the pure derivation, then each situation built for real and read through the
// built CLI: `status` entries, the status envelope's `next` (JSON and the human last line) and
// the export-context envelope's, with status still writing nothing.
#include "transaction/next_action.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/record.h"
#include "store/review_state.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;
using transaction::Applicability;
using transaction::EntryFacts;
using transaction::LiveStart;
using transaction::NextAction;
using transaction::UnrelatedReason;

// A record's state name as EntryFacts holds it: nullopt for a name this build does not know.
std::optional<store::ReviewState> StateOf(std::string_view name) {
  return store::ParseReviewState(name);
}

constexpr char kWaiting[] =
    "waiting for a changed candidate: the live target is still the one sent back";

std::string Name(NextAction action) { return std::string(transaction::NextActionName(action)); }

std::string EntryNextOf(std::string_view state, Applicability applicability,
                        UnrelatedReason unrelated = UnrelatedReason::kNotUnrelated,
                        bool fetched_only = false) {
  return Name(
      transaction::EntryNext({StateOf(state), applicability, unrelated, fetched_only}).action);
}

// `review <args> --json` in `repo`, which must exit 0.
Json Ok(const LifecycleRepo& repo, const std::vector<std::string>& args) {
  RunResult r = repo.Review(args);
  INFO(Json(args).dump() << " -> " << r.exit_code << "\n" << r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return r.Json();
}

// The whole `status --json` output (the author's unless `role` is given), with the store and refs
// checked byte-identical afterwards.
Json Status(const LifecycleRepo& repo, const std::optional<std::string>& lineage = std::nullopt,
            const std::optional<std::string>& role = std::nullopt) {
  const auto before = HashTree(repo.common_dir());
  std::vector<std::string> args = {"status"};
  if (lineage) args.insert(args.end(), {"--lineage", *lineage});
  if (role) args.insert(args.end(), {"--role", *role});
  Json out = Ok(repo, args);
  CHECK(HashTree(repo.common_dir()) == before);
  return out;
}

// The status entry of `lineage` in the listing without --lineage.
Json EntryOf(const Json& status, const std::string& lineage) {
  for (const Json& entry : status["lineages"]) {
    if (entry["lineage"] == lineage) return entry;
  }
  FAIL("no status entry for " << lineage << " in " << status.dump());
  return Json();
}

// The entry's next as listed, as `status --lineage` answers it (also its envelope's next), and
// the export-context envelope's next.
struct Nexts {
  std::string listed, alone, exported;
};

Nexts NextsOf(const LifecycleRepo& repo, const std::string& lineage,
              const std::optional<std::string>& role = std::nullopt) {
  Nexts n;
  n.listed = EntryOf(Status(repo, std::nullopt, role), lineage)["next"];
  const Json alone = Status(repo, lineage, role);
  REQUIRE(alone["lineages"].size() == 1);
  n.alone = alone["lineages"][0]["next"];
  CHECK(alone["next"] == n.alone);
  n.exported = Ok(repo, {"export-context", "--lineage", lineage})["next"];
  return n;
}

Json Verdict(const LifecycleRepo& repo, const std::string& lineage, const std::string& verdict) {
  return Ok(repo, {"verdict", "--lineage", lineage, "--verdict", verdict, "--actor", "ana",
                   "--role", "reviewer", "--body", "Read it.\n"});
}

// Rewrites `lineage`'s record with `state` (revision recomputed), as another tool would write it.
void ForgeState(const LifecycleRepo& repo, const std::string& lineage, const std::string& state) {
  const std::string path = repo.store_root() + "/v2/" + lineage + "/review-state.json";
  auto record = store::ParseRecordFile(ReadFile(path), lineage);
  REQUIRE(record.ok());
  auto compact = nlohmann::ordered_json::parse(record->compact_state);
  compact["state"] = state;
  std::string revision;
  WriteFile(path, store::EncodeRecordFile(compact, &revision));
  REQUIRE(store::ParseRecordFile(ReadFile(path), lineage).ok());
}

// A copy of `lineage`'s record as `copy` in the same worktree (claims_test's forged copy), with
// the index rebuilt so that it knows the copy.
void ForgeCopy(const LifecycleRepo& repo, const std::string& lineage, const std::string& copy) {
  const std::string v2 = repo.store_root() + "/v2/";
  auto record = store::ParseRecordFile(ReadFile(v2 + lineage + "/review-state.json"), lineage);
  REQUIRE(record.ok());
  auto state = nlohmann::ordered_json::parse(record->compact_state);
  state["lineage_id"] = copy;
  state["initial_atomic_start"]["lineage_id"] = copy;
  std::string revision;
  WriteFile(v2 + copy + "/review-state.json", store::EncodeRecordFile(state, &revision));
  Ok(repo, {"index", "rebuild"});
}

std::string StartWith(const LifecycleRepo& repo, const std::string& file,
                      const std::string& content) {
  repo.Write(file, content);
  return Ok(repo, {"start", "--untracked", file})["lineage"];
}

}  // namespace

TEST_CASE("next action: the name table is the closed vocabulary") {
  std::vector<std::string> names;
  for (NextAction a : transaction::kAllNextActions) {
    names.push_back(Name(a));
    CHECK(transaction::ParseNextAction(Name(a)) == a);
  }
  CHECK(names == std::vector<std::string>{"start", "export", "verdict", "revise", "burn",
                                          "select_lineage", "repair", "none", "abandon", "post"});
  CHECK_FALSE(transaction::ParseNextAction("Post").has_value());
}

TEST_CASE("next action: every row of the table in the pure derivation") {
  const auto cur = Applicability::kCurrentTarget;
  const auto unrel = Applicability::kUnrelated;
  const auto moved = UnrelatedReason::kTargetMoved;
  const auto foreign = UnrelatedReason::kOtherWorktree;
  const auto lost = UnrelatedReason::kNotComputable;
  CHECK(EntryNextOf("", Applicability::kCorrupted) == "abandon");
  CHECK(EntryNextOf("", Applicability::kIncomplete) == "repair");
  CHECK(EntryNextOf("reviewing", Applicability::kAmbiguous) == "select_lineage");
  CHECK(EntryNextOf("approved", Applicability::kAmbiguous, {}, true) == "select_lineage");
  for (const char* state : {"reviewing", "correction_required", "approved"}) {
    CHECK(EntryNextOf(state, cur, {}, true) == "none");
    CHECK(EntryNextOf(state, unrel, moved, true) == "none");
  }
  CHECK(EntryNextOf("reviewing", cur) == "export");
  for (auto why : {moved, foreign, lost}) CHECK(EntryNextOf("reviewing", unrel, why) == "export");
  CHECK(EntryNextOf("correction_required", unrel, moved) == "revise");
  CHECK(EntryNextOf("correction_required", cur) == "none");
  CHECK(EntryNextOf("correction_required", unrel, foreign) == "none");
  CHECK(EntryNextOf("correction_required", unrel, lost) == "none");
  CHECK(EntryNextOf("approved", cur) == "burn");
  CHECK(EntryNextOf("approved", unrel, foreign) == "burn");
  for (const char* state : {"escalated", "invalidated", "decision_required", "validating"}) {
    CHECK(EntryNextOf(state, cur) == "none");
    CHECK(EntryNextOf(state, unrel, moved) == "none");
  }
  CHECK(transaction::WaitingDetail({StateOf("correction_required"), cur, {}, false}) == kWaiting);
  CHECK(transaction::WaitingDetail({StateOf("correction_required"), unrel, moved, false}).empty());
  CHECK(transaction::WaitingDetail({StateOf("reviewing"), cur, {}, false}).empty());
  CHECK(Name(transaction::AfterExport({NextAction::kExport, {}}).action) == "verdict");
  CHECK(Name(transaction::AfterExport({NextAction::kBurn, {}}).action) == "burn");
}

TEST_CASE("next action: the envelope derivation counts actionable entries") {
  int asked = 0;
  auto live = [&](LiveStart answer) {
    return [&asked, answer] {
      ++asked;
      return answer;
    };
  };
  const EntryFacts reviewing{StateOf("reviewing"), Applicability::kCurrentTarget, {}, false};
  const EntryFacts sent_back_moved{StateOf("correction_required"), Applicability::kUnrelated,
                                   UnrelatedReason::kTargetMoved, false};
  const EntryFacts foreign{StateOf("correction_required"), Applicability::kUnrelated,
                           UnrelatedReason::kOtherWorktree, false};
  const EntryFacts approved_moved{StateOf("approved"), Applicability::kUnrelated,
                                  UnrelatedReason::kTargetMoved, false};
  const EntryFacts fetched{StateOf("approved"), Applicability::kCurrentTarget, {}, true};
  const EntryFacts corrupted{StateOf(""), Applicability::kCorrupted, {}, false};
  CHECK(Name(transaction::EnvelopeNext({}, live(LiveStart::kStartable)).action) == "start");
  CHECK(Name(transaction::EnvelopeNext({}, live(LiveStart::kClean)).action) == "none");
  CHECK(Name(transaction::EnvelopeNext({}, live(LiveStart::kBurned)).action) == "none");
  CHECK(Name(transaction::EnvelopeNext({}, live(LiveStart::kUnavailable)).action) == "none");
  CHECK(asked == 4);
  CHECK(Name(transaction::EnvelopeNext({foreign, approved_moved, fetched},
                                       live(LiveStart::kStartable))
                 .action) == "start");
  CHECK(asked == 5);
  CHECK(Name(transaction::EnvelopeNext({reviewing, foreign}, live(LiveStart::kStartable)).action) ==
        "export");
  CHECK(Name(transaction::EnvelopeNext({sent_back_moved}, live(LiveStart::kStartable)).action) ==
        "revise");
  CHECK(Name(transaction::EnvelopeNext({reviewing, sent_back_moved}, live(LiveStart::kStartable))
                 .action) == "select_lineage");
  CHECK(
      Name(transaction::EnvelopeNext({reviewing, corrupted}, live(LiveStart::kStartable)).action) ==
      "abandon");
  CHECK(asked == 5);  // the live target is probed only when no entry is actionable
}

TEST_CASE("next action: a corrupted record says abandon - which quarantines it as it is") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string path = repo.store_root() + "/v2/" + lineage + "/review-state.json";
  std::string bytes = ReadFile(path);
  bytes[bytes.find("\"reviewing\"") + 2] = 'E';
  WriteFile(path, bytes);
  Json status = Status(repo);
  CHECK(EntryOf(status, lineage)["applicability"] == "corrupted");
  CHECK(EntryOf(status, lineage)["next"] == "abandon");
  CHECK(status["next"] == "abandon");
  CHECK(status["next_reason"] == "corrupted");
  CHECK(status["next_lineage"] == lineage);
  // Repair cannot read the record: next never names it.
  RunResult human = repo.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.substr(human.out.rfind("next: ")) ==
        "next: abandon (corrupted)  lineage " + lineage + "\n");
  // With --expected-revision there is nothing to compare: refused, nothing written.
  const auto before = HashTree(repo.common_dir());
  RunResult cas =
      repo.Review({"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor",
                   "ops", "--expected-revision", "sha256:" + std::string(64, 'a')});
  CHECK(cas.exit_code == 7);
  CHECK(cas.Json()["error"]["code"] == "corrupted");
  CHECK(HashTree(repo.common_dir()) == before);

  const Json abandoned = repo.ReviewOk(
      {"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor", "ops"});
  const std::string quarantine = abandoned["quarantine_path"];
  CHECK(ReadFile(quarantine + "/residue/review-state.json") == bytes);  // byte for byte
  const Json audit = Json::parse(ReadFile(abandoned["audit_record"].get<std::string>()));
  CHECK(audit["status"] == "committed");
  CHECK(audit["reason"] == "operator_disposition");
  CHECK(audit["residue"] == Json::array({"review-state.json"}));
  CHECK(audit["damage"]["code"] == "corrupted");
  CHECK_FALSE(audit["damage"]["message"].get<std::string>().empty());
  CHECK(audit["damage"]["history_tip"].is_string());
  CHECK_FALSE(audit.contains("abandonment"));
  // The history ref is gone (its tip is named above): fsck is clean.
  CHECK(repo.Git({"rev-parse", "--verify", "-q", ReviewRef(lineage)}).exit_code != 0);
  RunResult fsck = repo.Review({"fsck"});
  INFO(fsck.out << fsck.err);
  CHECK(fsck.exit_code == 0);
  status = Status(repo);
  CHECK(status["lineages"].empty());
  RunResult again = repo.Review({"status", "--lineage", lineage});
  CHECK(again.exit_code == 5);
  CHECK(again.Json()["error"]["code"] == "retired");
}

TEST_CASE("next action: an incomplete entry says repair") {
  LifecycleRepo other;
  const std::string live = other.StartNew()["lineage"];
  const std::string incomplete = "review-00000000000000e1";
  REQUIRE(mkdir((other.store_root() + "/v2/" + incomplete).c_str(), 0700) == 0);
  Json status = Status(other);
  CHECK(EntryOf(status, incomplete)["applicability"] == "incomplete");
  CHECK(EntryOf(status, incomplete)["next"] == "repair");
  // The author's: the reviewing lineage waits on its reviewer.
  CHECK(EntryOf(status, live)["next"] == "none");
  CHECK(EntryOf(status, live)["next_reason"] == "review_pending");
  CHECK(status["next"] == "repair");
  CHECK(status["next_lineage"] == incomplete);
  RunResult human = other.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.substr(human.out.rfind("next: ")) ==
        "next: repair (incomplete)  lineage " + incomplete + "\n");
}

TEST_CASE("next action: two lineages claiming the live target say select_lineage") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string copy = "review-00000000000000c1";
  ForgeCopy(repo, lineage, copy);
  const Json status = Status(repo);
  for (const std::string& id : {lineage, copy}) {
    INFO(id);
    CHECK(EntryOf(status, id)["applicability"] == "ambiguous");
    const Nexts n = NextsOf(repo, id);
    CHECK(n.listed == "select_lineage");
    CHECK(n.alone == "select_lineage");
    CHECK(n.exported == "select_lineage");
  }
  CHECK(status["next"] == "select_lineage");
}

TEST_CASE("next action: a fetched-only lineage says none") {
  LifecycleRepo origin;
  const std::string reviewing = origin.StartNew()["lineage"];
  const LifecycleRepo::Approved approved = origin.StartApproved();
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  Ok(clone, {"fetch"});
  for (const std::string& id : {reviewing, approved.lineage}) {
    INFO(id);
    const Json alone = Status(clone, id);
    CHECK(alone["lineages"][0]["source"] == "origin");
    CHECK(alone["lineages"][0]["next"] == "none");
    CHECK(alone["next"] == "none");
    const Json envelope = Ok(clone, {"export-context", "--lineage", id});
    CHECK(envelope["source"] == "origin");
    CHECK(envelope["next"] == "none");
  }
  // status lists the local store only: none here, and the clone's worktree is clean.
  const Json all = Status(clone);
  CHECK(all["lineages"].empty());
  CHECK(all["next"] == "none");
}

TEST_CASE("next action: reviewing says export - and its envelope verdict") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  Nexts n = NextsOf(repo, lineage, "reviewer");
  CHECK(n.listed == "export");
  CHECK(n.alone == "export");
  CHECK(n.exported == "verdict");
  CHECK(Status(repo, std::nullopt, "reviewer")["next"] == "export");
  // Without --role, the author's: the lineage waits on its reviewer.
  n = NextsOf(repo, lineage);
  CHECK(n.listed == "none");
  CHECK(n.alone == "none");
  const Json author = Status(repo);
  CHECK(author["next"] == "none");
  CHECK(author["next_reason"] == "review_pending");

  // Any other applicability: the live target moved on.
  repo.Write("a.txt", "moved on\n");
  const Json entry = EntryOf(Status(repo), lineage);
  CHECK(entry["applicability"] == "unrelated");
  n = NextsOf(repo, lineage, "reviewer");
  CHECK(n.listed == "export");
  CHECK(n.exported == "verdict");
  // It is not actionable here any more: the worktree's next is to start the moved target.
  CHECK(Status(repo)["next"] == "start");
}

TEST_CASE("next action: correction_required says revise once the author changed the candidate") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  Verdict(repo, lineage, "REQUEST_CHANGES");
  // Nothing changed yet: waiting for the author.
  Json entry = EntryOf(Status(repo), lineage);
  CHECK(entry["applicability"] == "current_target");
  CHECK(entry["detail"] == kWaiting);
  Nexts n = NextsOf(repo, lineage);
  CHECK(n.listed == "none");
  CHECK(n.alone == "none");
  CHECK(n.exported == "none");
  CHECK(Status(repo, lineage)["lineages"][0]["detail"] == kWaiting);
  CHECK(Status(repo)["next"] == "none");
  RunResult human = repo.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out == lineage + "  correction_required  current_target  (" + kWaiting +
                         ")\nnext: none (waiting_for_author)\n");

  repo.Write("a.txt", "fixed\n");
  entry = EntryOf(Status(repo), lineage);
  CHECK(entry["applicability"] == "unrelated");
  CHECK(entry["detail"] == "the live target differs from the lineage's snapshot");
  n = NextsOf(repo, lineage);
  CHECK(n.listed == "revise");
  CHECK(n.alone == "revise");
  CHECK(n.exported == "revise");
  CHECK(Status(repo)["next"] == "revise");
}

TEST_CASE("next action: correction_required of another worktree says none") {
  LifecycleRepo repo;
  const std::string linked = repo.root() + "/../linked";
  repo.GitOk({"worktree", "add", "-q", linked, "-b", "linked"});
  repo.Write("a.txt", "the same candidate\n");
  WriteFile(linked + "/a.txt", "the same candidate\n");
  const std::string lineage = Ok(repo, {"start"})["lineage"];
  Verdict(repo, lineage, "REQUEST_CHANGES");
  RunResult run = GentleAi({"review", "status", "--json"}, linked);
  REQUIRE(run.exit_code == 0);
  const Json status = run.Json();
  const Json entry = EntryOf(status, lineage);
  CHECK(entry["applicability"] == "unrelated");
  CHECK(entry["detail"] == "the same candidate was captured in another worktree");
  CHECK(entry["next"] == "none");
  // Not actionable in the linked worktree, whose own candidate can be started.
  CHECK(status["next"] == "start");
  run = GentleAi({"review", "export-context", "--json", "--lineage", lineage}, linked);
  REQUIRE(run.exit_code == 0);
  CHECK(run.Json()["next"] == "none");
}

TEST_CASE("next action: correction_required whose live target cannot be computed says none") {
  LifecycleRepo repo;
  repo.GitOk({"checkout", "-q", "-b", "feature"});
  repo.Write("a.txt", "on feature\n");
  repo.GitOk({"commit", "-q", "-am", "feature"});
  repo.GitOk({"checkout", "-q", "main"});
  const std::string lineage = Ok(
      repo, {"start", "--kind", "commit-range", "--base", "main", "--head", "feature"})["lineage"];
  Verdict(repo, lineage, "REQUEST_CHANGES");
  repo.GitOk({"branch", "-q", "-D", "feature"});
  const Json status = Status(repo);
  const Json entry = EntryOf(status, lineage);
  CHECK(entry["applicability"] == "unrelated");
  CHECK(entry["detail"].get<std::string>().rfind("the live target cannot be computed here: ", 0) ==
        0);
  const Nexts n = NextsOf(repo, lineage);
  CHECK(n.listed == "none");
  CHECK(n.alone == "none");
  CHECK(n.exported == "none");
  CHECK(status["next"] == "none");  // not actionable, and the worktree is clean
}

TEST_CASE("next action: approved says burn") {
  LifecycleRepo repo;
  const LifecycleRepo::Approved approved = repo.StartApproved();
  const Nexts n = NextsOf(repo, approved.lineage);
  CHECK(n.listed == "burn");
  CHECK(n.alone == "burn");
  CHECK(n.exported == "burn");
  CHECK(Status(repo)["next"] == "burn");
}

TEST_CASE("next action: escalated - invalidated - decision_required and unknown states say none") {
  LifecycleRepo repo;
  const std::string escalated = StartWith(repo, "e.txt", "escalated\n");
  Verdict(repo, escalated, "NEEDS_DISCUSSION");
  const std::string invalidated = StartWith(repo, "i.txt", "invalidated\n");
  Ok(repo, {"invalidate", "--lineage", invalidated, "--reason", "superseded", "--actor", "ops"});
  const std::string deciding = StartWith(repo, "d.txt", "decision\n");
  ForgeState(repo, deciding, "decision_required");
  const std::string unknown = StartWith(repo, "u.txt", "unknown\n");
  ForgeState(repo, unknown, "validating");
  // Each lineage names its own untracked file, so each is current_target here, and each says none.
  for (const std::string& id : {escalated, invalidated, deciding, unknown}) {
    INFO(id);
    const Nexts n = NextsOf(repo, id);
    CHECK(n.listed == "none");
    CHECK(n.alone == "none");
    CHECK(n.exported == "none");
  }
  const Json status = Status(repo);
  CHECK(EntryOf(status, unknown)["state"] == "validating");
  for (const std::string& id : {escalated, invalidated, deciding, unknown}) {
    CHECK(EntryOf(status, id)["applicability"] == "current_target");
  }
  // Four actionable entries, none with an action due: the author's next is the first one's none.
  CHECK(status["next"] == "none");
  // Alone, each is the worktree's one actionable entry: its none is the envelope's.
  CHECK(Status(repo, unknown)["next"] == "none");
}

TEST_CASE("next action: the envelope says start for a dirty worktree and none for a clean one") {
  LifecycleRepo repo;
  Json status = Status(repo);
  CHECK(status ==
        Json::parse(R"({"schema":"gentle-ai.review-status/v1","lineages":[],)"
                    R"("next":"none","next_reason":"clean","next_lineage":null,"parts":null,)"
                    R"("max_bytes":null})"));
  RunResult human = repo.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out == "no lineages\nnext: none (clean)\n");

  repo.Write("a.txt", "dirty\n");
  status = Status(repo);
  CHECK(status["lineages"].empty());
  CHECK(status["next"] == "start");
  human = repo.Review({"status"}, {}, false);
  CHECK(human.out == "no lineages\nnext: start (no_lineage)\n");
  // An untracked file alone is not a candidate `start` captures without --untracked.
  repo.Write("a.txt", "one\n");
  repo.Write("untracked.txt", "x\n");
  CHECK(Status(repo)["next"] == "none");
}

TEST_CASE("next action: after a burn the same candidate cannot be started - next is none") {
  LifecycleRepo repo;
  repo.Write("a.txt", "reviewed\n");
  const std::string lineage = Ok(repo, {"start"})["lineage"];
  const Json approved = Verdict(repo, lineage, "APPROVE");
  Ok(repo, {"burn", "--lineage", lineage, "--token", approved["token"], "--expected-revision",
            approved["revision"]});
  const Json status = Status(repo);
  CHECK(status["lineages"].empty());
  CHECK(status["next"] == "none");
  // A start would be refused: the tombstone names this candidate.
  CHECK(repo.Review({"start"}).exit_code == 4);
  // A further change is a new candidate.
  repo.Write("a.txt", "reviewed, then changed\n");
  CHECK(Status(repo)["next"] == "start");
}

TEST_CASE("next action: several actionable lineages say select_lineage") {
  LifecycleRepo repo;
  repo.Write("a.txt", "staged\n");
  repo.GitOk({"add", "a.txt"});
  repo.Write("a.txt", "staged, then more in the workspace\n");
  const std::string workspace = Ok(repo, {"start"})["lineage"];
  const std::string staged = Ok(repo, {"start", "--staged"})["lineage"];
  REQUIRE(workspace != staged);
  // Both approved: each is the author's to burn.
  for (const std::string& id : {workspace, staged}) Verdict(repo, id, "APPROVE");
  const Json status = Status(repo);
  for (const std::string& id : {workspace, staged}) {
    CHECK(EntryOf(status, id)["applicability"] == "current_target");
    CHECK(EntryOf(status, id)["next"] == "burn");
  }
  CHECK(status["next"] == "select_lineage");
  // The first actionable entry is named (entries are in lineage order).
  const std::string first = std::min(workspace, staged);
  CHECK(status["next_lineage"] == first);
  RunResult human = repo.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out.substr(human.out.rfind("next: ")) ==
        "next: select_lineage (several_actionable)  lineage " + first + "\n");
}

TEST_CASE(
    "next action: the status JSON appends context - next and next_reason after the existing "
    "members") {
  LifecycleRepo repo;
  const Json started = repo.StartNew();
  const std::string lineage = started["lineage"];
  RunResult r = repo.Review({"status", "--lineage", lineage, "--role", "reviewer"});
  REQUIRE(r.exit_code == 0);
  const std::string target = started["target_identity"];
  CHECK(r.out == "{\"schema\":\"gentle-ai.review-status/v1\",\"lineages\":[{\"lineage\":\"" +
                     lineage +
                     "\",\"state\":\"reviewing\",\"kind\":\"current-changes\",\"applicability\":"
                     "\"current_target\",\"revision\":\"" +
                     started["revision"].get<std::string>() + "\",\"target_identity\":\"" + target +
                     "\",\"live_target_identity\":\"" + target +
                     "\",\"source\":null,\"context_digest\":null,\"context_unavailable\":null,"
                     "\"next\":\"export\",\"next_reason\":\"review_due\",\"parts\":1,"
                     "\"max_bytes\":4194304}],\"next\":\"export\",\"next_reason\":\"review_due\","
                     "\"next_lineage\":\"" +
                     lineage + "\",\"parts\":1,\"max_bytes\":4194304}\n");
}

TEST_CASE("next action: a two-round review walked by following only next") {
  LifecycleRepo repo;
  repo.Write("a.txt", "round one\n");
  std::vector<std::string> taken;
  std::string lineage, token, revision;
  int round = 0;
  bool stopped = false;
  for (int step = 0; step < 20 && !stopped; ++step) {
    // An author loop and a reviewer loop: the reviewer is asked when the author waits on it.
    Json status = Status(repo);
    if (status["next_reason"] == "review_pending") status = Status(repo, std::nullopt, "reviewer");
    std::string next = status["next"];
    // The entry the worktree's next is about (there is at most one lineage here).
    Json entry;
    for (const Json& e : status["lineages"]) {
      if (e["next"] == next) entry = e;
    }
    if (!entry.is_null()) lineage = entry["lineage"];
    if (next == "start") {
      lineage = Ok(repo, {"start"})["lineage"];
      round = 1;
      taken.push_back("start");
    } else if (next == "export") {
      const Json envelope = Ok(repo, {"export-context", "--lineage", lineage});
      taken.push_back("export");
      next = envelope["next"];
    } else if (next == "revise") {
      const Json revised = Ok(repo, {"revise", "--lineage", lineage});
      round = revised["round"];
      taken.push_back("revise");
    } else if (next == "burn") {
      Ok(repo, {"burn", "--lineage", lineage, "--token", token, "--expected-revision", revision});
      taken.push_back("burn");
    } else if (next == "none") {
      if (!entry.is_null() && entry["state"] == "correction_required") {
        repo.Write("a.txt", "round two\n");  // the author's fix
        taken.push_back("none:fix");
      } else {
        taken.push_back("none:stop");
        stopped = true;
      }
    } else {
      FAIL("unexpected next " << next << " in " << status.dump());
    }
    if (next == "verdict") {
      const std::string verdict = round == 1 ? "REQUEST_CHANGES" : "APPROVE";
      const Json given = Verdict(repo, lineage, verdict);
      taken.push_back("verdict:" + verdict);
      if (verdict == "APPROVE") {
        token = given["token"];
        revision = given["revision"];
      }
    }
  }
  REQUIRE(stopped);  // within 20 steps
  CHECK(taken == std::vector<std::string>{"start", "export", "verdict:REQUEST_CHANGES", "none:fix",
                                          "revise", "export", "verdict:APPROVE", "burn",
                                          "none:stop"});
  CHECK(round == 2);
  RunResult burned = repo.Review({"status", "--lineage", lineage});
  CHECK(burned.exit_code == 4);
  CHECK(burned.Json()["error"]["code"] == "consumed");
  CHECK(Status(repo)["next"] == "none");
}

TEST_CASE("next action: under a batch-reconciliation marker status answers - none") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  WriteFile(repo.store_root() + "/batch-reconcile-journal.json", "{}");
  const auto before = HashTree(repo.common_dir());
  for (const std::optional<std::string>& one :
       {std::optional<std::string>(), std::optional(lineage)}) {
    const Json status = Status(repo, one);
    CHECK(status["lineages"].empty());
    CHECK(status["next"] == "none");
    CHECK(status["next_reason"] == "reconciliation_prepared");
    CHECK(status["next_lineage"].is_null());
  }
  RunResult human = repo.Review({"status"}, {}, false);
  REQUIRE(human.exit_code == 0);
  CHECK(human.out == "no lineages\nnext: none (reconciliation_prepared)\n");
  CHECK(HashTree(repo.common_dir()) == before);
  // What next avoids is real: the verbs refuse.
  repo.ExpectRefused({"export-context", "--lineage", lineage}, "reconciliation_prepared", 6);
}

}  // namespace gentle::testing
