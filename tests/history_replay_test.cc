// The trust model of fetched and imported histories (store/history_replay.h, store/provenance.h,
// transaction/import.h): every commit above the local tip must be a transition the verbs could
// make, a remote cannot end a review that is live here without --accept-terminal, an imported
// lineage reads with its remote as `source` until a local mutation, and a history tree that
// names an entry twice is refused. Forged commits are written with git's own plumbing
// (hash-object, mktree, commit-tree, update-ref) in the origin, and travel with git fetch.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "store/record.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using OrderedJson = nlohmann::ordered_json;

std::string RevParse(const LifecycleRepo& repo, const std::string& rev) {
  RunResult run = repo.Git({"rev-parse", "--verify", "-q", rev});
  return run.exit_code == 0 ? Trim(run.out) : "";
}

// `git <args>` in the repository with `input` on stdin; fails the test unless git exits 0.
std::string GitInput(const LifecycleRepo& repo, const std::vector<std::string>& args,
                     const std::string& input) {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), args.begin(), args.end());
  RunResult run = Run(argv, repo.root(), GitEnv(), input);
  INFO("git " << args[0] << ": " << run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return Trim(run.out);
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = text.find('\n', pos);
    out.push_back(text.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return out;
}

void FetchReviews(const LifecycleRepo& clone) {
  RunResult run = clone.Git({"fetch", "-q", "origin",
                             "+refs/gentle-ai/reviews/*:refs/gentle-ai/remotes/origin/reviews/*"});
  INFO(run.err);
  REQUIRE(run.exit_code == 0);
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict) {
  return {"verdict", "--lineage", lineage,    "--verdict", verdict,     "--actor",
          "ana",     "--role",    "reviewer", "--body",    "Read it.\n"};
}

// The `state` object of the record commit `id` holds.
OrderedJson StateAt(const LifecycleRepo& repo, const std::string& id) {
  const std::string file = repo.GitOk({"cat-file", "blob", id + ":review-state.json"});
  return OrderedJson::parse(file)["state"];
}

// A forged history commit: `verb` with the record `state` (encoded with a valid revision), on
// `parent`'s tree with review-state.json, base and candidate replaced (and `files` added), the
// message a verb writes (State trailer `state_trailer`, then `trailers`). The lineage's history
// ref is moved to it. Returns its id.
std::string Forge(const LifecycleRepo& repo, const std::string& lineage, const std::string& parent,
                  const std::string& verb, const OrderedJson& state,
                  const std::string& state_trailer,
                  const std::vector<std::pair<std::string, std::string>>& trailers = {},
                  const std::vector<std::pair<std::string, std::string>>& files = {}) {
  std::string revision;
  const std::string record = store::EncodeRecordFile(state, &revision);
  std::vector<std::pair<std::string, std::string>> entries = {
      {"review-state.json",
       "100644 blob " + GitInput(repo, {"hash-object", "-w", "--stdin"}, record)},
      {"base", "040000 tree " + state["current_snapshot"]["base_tree"].get<std::string>()},
      {"candidate",
       "040000 tree " + state["current_snapshot"]["candidate_tree"].get<std::string>()}};
  for (const auto& [name, bytes] : files) {
    entries.emplace_back(name,
                         "100644 blob " + GitInput(repo, {"hash-object", "-w", "--stdin"}, bytes));
  }
  std::string listing;
  for (const std::string& line : Lines(repo.GitOk({"ls-tree", parent}))) {
    const std::string name = line.substr(line.find('\t') + 1);
    bool replaced = false;
    for (const auto& entry : entries) replaced = replaced || entry.first == name;
    if (!replaced) listing += line + "\n";
  }
  for (const auto& [name, entry] : entries) listing += entry + "\t" + name + "\n";
  const std::string tree = GitInput(repo, {"mktree"}, listing);
  std::string message = verb + " " + lineage + "\n\nLineage: " + lineage +
                        "\nRevision: " + revision + "\nState: " + state_trailer +
                        "\nAt: 2026-01-01T00:00:00Z\n";
  for (const auto& [key, value] : trailers) message += key + ": " + value + "\n";
  const std::string forged =
      GitInput(repo, {"commit-tree", tree, "-p", parent, "-F", "-"}, message);
  repo.GitOk({"update-ref", ReviewRef(lineage), forged});
  return forged;
}

// A lineage started in `origin`, and the candidate of another lineage approved there: the snapshot
// a forger would swap in.
struct Forgery {
  LifecycleRepo origin;
  std::string lineage;
  std::string tip;  // the lineage's start commit
  OrderedJson state;
  OrderedJson other_snapshot;
  // The lineage's record made `approved` with the other candidate: an approval nobody gave.
  OrderedJson ForgedApproval() const {
    OrderedJson approved = state;
    approved["state"] = "approved";
    approved["current_snapshot"] = other_snapshot;
    approved["approved_ack_token"] = std::string(64, 'a');
    return approved;
  }
  Forgery() {
    LifecycleRepo::Approved other = origin.StartApproved();
    other_snapshot = origin.RecordState(other.lineage)["current_snapshot"];
    lineage = origin.StartNew()["lineage"];
    tip = RevParse(origin, ReviewRef(lineage));
    state = StateAt(origin, tip);
  }
};

// What every reader of a fresh clone answers for the forged history: `corrupted` naming `commit`.
void ExpectReadersRefuse(const LifecycleRepo& origin, const std::string& lineage,
                         const std::string& commit) {
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  const auto before = clone.StoreBytes();
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"status", "--lineage", lineage},
        std::vector<std::string>{"verify", "--lineage", lineage},
        std::vector<std::string>{"import", "--lineage", lineage}}) {
    RunResult run = clone.Review(args);
    INFO(args[0] << ": " << run.out << run.err);
    CHECK(run.exit_code == 7);
    CHECK(run.Json()["error"]["code"] == "corrupted");
    CHECK(run.Json()["error"]["details"]["commit"] == commit);
  }
  CHECK(clone.StoreBytes() == before);
}

TEST_CASE("replay: a forged sync approval on a pushed reviewing lineage is never imported") {
  Forgery f;
  LifecycleRepo clone(LifecycleRepo::CloneOf{f.origin});
  FetchReviews(clone);
  REQUIRE(clone.Review({"import", "--lineage", f.lineage}).exit_code == 0);

  const OrderedJson approved = f.ForgedApproval();
  const std::string forged = Forge(f.origin, f.lineage, f.tip, "sync", approved, "approved");
  FetchReviews(clone);
  const auto before = clone.StoreBytes();
  RunResult run = clone.Review({"import", "--lineage", f.lineage});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 7);
  CHECK(run.Json()["error"]["code"] == "corrupted");
  CHECK(run.Json()["error"]["details"]["commit"] == forged);
  CHECK(clone.StoreBytes() == before);
  CHECK(clone.ReviewOk({"status", "--lineage", f.lineage})["lineages"][0]["state"] == "reviewing");
  ExpectFsckClean(clone);
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a forged burn of a reviewing lineage is refused") {
  Forgery f;
  // A burn holds an approved record: here one nobody approved, of another candidate.
  const OrderedJson approved = f.ForgedApproval();
  const std::string forged = Forge(f.origin, f.lineage, f.tip, "burn", approved, "consumed", {},
                                   {{"tombstone.json", "{}\n"}});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a revise from reviewing is refused") {
  Forgery f;
  OrderedJson revised = f.state;
  revised["generation"] = 2;
  revised["current_snapshot"] = f.other_snapshot;
  const std::string forged =
      Forge(f.origin, f.lineage, f.tip, "revise", revised, "reviewing", {{"Round", "2"}});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a verdict commit that moves the trees is refused") {
  Forgery f;
  const OrderedJson approved = f.ForgedApproval();
  const std::string forged =
      Forge(f.origin, f.lineage, f.tip, "verdict", approved, "approved", {{"Verdict", "APPROVE"}});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a verdict commit whose state is not its verdict's is refused") {
  Forgery f;
  OrderedJson approved = f.state;
  approved["state"] = "approved";
  const std::string forged = Forge(f.origin, f.lineage, f.tip, "verdict", approved, "approved",
                                   {{"Verdict", "REQUEST_CHANGES"}});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a history whose root is not a start commit is refused") {
  Forgery f;
  // The start commit's tree and message again, as a parentless sync commit.
  const std::string tree = RevParse(f.origin, f.tip + "^{tree}");
  const std::string body = f.origin.GitOk({"log", "-1", "--format=%B", f.tip});
  const std::string sync = "sync" + body.substr(body.find(' '));
  const std::string forged = GitInput(f.origin, {"commit-tree", tree, "-F", "-"}, sync);
  f.origin.GitOk({"update-ref", ReviewRef(f.lineage), forged});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

// A co-approval.md (the verdict file's format) of an APPROVE by bob.
const std::string kCoApprovalFile =
    "---\nverdict: \"APPROVE\"\nactor: \"bob\"\nrole: \"reviewer\"\nat: "
    "\"2026-01-01T00:00:00Z\"\nfrom_state: \"approved\"\nto_state: \"approved\"\nbody_sha256: "
    "\"sha256:0000000000000000000000000000000000000000000000000000000000000000\"\n---\nMine.";

TEST_CASE("replay: a co-approval of a lineage nobody approved is refused") {
  Forgery f;
  // The record made approved in place (its own trees), as a co-approval of the reviewing start.
  OrderedJson approved = f.state;
  approved["state"] = "approved";
  approved["approved_ack_token"] = std::string(64, 'a');
  const std::string forged = Forge(f.origin, f.lineage, f.tip, "co-approve", approved, "approved",
                                   {{"Verdict", "APPROVE"}}, {{"co-approval.md", kCoApprovalFile}});
  ExpectReadersRefuse(f.origin, f.lineage, forged);
}

TEST_CASE("replay: a co-approval that changes the approved record is refused") {
  Forgery f;
  const LifecycleRepo::Approved a = f.origin.StartApproved();
  const std::string tip = RevParse(f.origin, ReviewRef(a.lineage));
  OrderedJson changed = StateAt(f.origin, tip);
  changed["approved_ack_token"] = std::string(64, 'b');
  const std::string forged = Forge(f.origin, a.lineage, tip, "co-approve", changed, "approved",
                                   {{"Verdict", "APPROVE"}}, {{"co-approval.md", kCoApprovalFile}});
  ExpectReadersRefuse(f.origin, a.lineage, forged);
}

TEST_CASE("replay: a co-approval without its co-approval.md is refused") {
  Forgery f;
  const LifecycleRepo::Approved a = f.origin.StartApproved();
  const std::string tip = RevParse(f.origin, ReviewRef(a.lineage));
  const std::string forged = Forge(f.origin, a.lineage, tip, "co-approve", StateAt(f.origin, tip),
                                   "approved", {{"Verdict", "APPROVE"}});
  ExpectReadersRefuse(f.origin, a.lineage, forged);
}

TEST_CASE("replay: a co-approval of an approved round imports and the record stays") {
  Forgery f;
  const LifecycleRepo::Approved a = f.origin.StartApproved();
  const std::string tip = RevParse(f.origin, ReviewRef(a.lineage));
  const std::string forged =
      Forge(f.origin, a.lineage, tip, "co-approve", StateAt(f.origin, tip), "approved",
            {{"Verdict", "APPROVE"}}, {{"co-approval.md", kCoApprovalFile}});
  LifecycleRepo clone(LifecycleRepo::CloneOf{f.origin});
  FetchReviews(clone);
  const OrderedJson imported = clone.ReviewOk({"import", "--lineage", a.lineage});
  CHECK(imported["outcome"] == "imported");
  CHECK(RevParse(clone, ReviewRef(a.lineage)) == forged);
  CHECK(ReadFile(clone.record_path(a.lineage)) == ReadFile(f.origin.record_path(a.lineage)));
  CHECK(clone.ReviewOk({"status", "--lineage", a.lineage})["lineages"][0]["state"] == "approved");
  ExpectFsckClean(clone);
  // The approval burns as before: a burn's parent may be a co-approval.
  clone.ReviewOk(
      {"burn", "--lineage", a.lineage, "--token", a.token, "--expected-revision", a.revision});
  ExpectFsckClean(clone);
}

TEST_CASE("replay: a legitimate history with every verb imports and reads") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  REQUIRE(origin.Review(Verdict(lineage, "REQUEST_CHANGES")).exit_code == 0);
  origin.Write("a.txt", "the correction\n");
  RunResult revise = origin.Review({"revise", "--lineage", lineage});
  INFO(revise.out << revise.err);
  REQUIRE(revise.exit_code == 0);
  const nlohmann::json approve = origin.ReviewOk(Verdict(lineage, "APPROVE"));
  // A second, abandoned lineage.
  const std::string abandoned = origin.StartNew()["lineage"];
  REQUIRE(origin
              .Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);

  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  // Read before import, from the fetched history.
  nlohmann::json fetched = clone.ReviewOk({"status", "--lineage", lineage});
  CHECK(fetched["lineages"][0]["state"] == "approved");
  CHECK(fetched["lineages"][0]["source"] == "origin");
  CHECK(clone.Review({"status", "--lineage", abandoned}).exit_code == 5);

  REQUIRE(origin
              .Review({"burn", "--lineage", lineage, "--token", approve["token"],
                       "--expected-revision", approve["revision"]})
              .exit_code == 0);
  FetchReviews(clone);
  CHECK(clone.Review({"status", "--lineage", lineage}).exit_code == 4);
  RunResult burned = clone.Review({"import", "--lineage", lineage});
  INFO(burned.out << burned.err);
  REQUIRE(burned.exit_code == 0);
  CHECK(burned.Json()["state"] == "consumed");
  CHECK(burned.Json()["commits"] == 5);
  RunResult retired = clone.Review({"import", "--lineage", abandoned});
  INFO(retired.out << retired.err);
  REQUIRE(retired.exit_code == 0);
  CHECK(retired.Json()["state"] == "retired");
  CHECK(clone.Review({"status", "--lineage", lineage}).exit_code == 4);
  CHECK(clone.Review({"status", "--lineage", abandoned}).exit_code == 5);
  ExpectFsckClean(clone);
}

TEST_CASE("replay: a burn from the remote of a lineage live here needs --accept-terminal") {
  LifecycleRepo origin;
  LifecycleRepo::Approved approved = origin.StartApproved();
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(clone.Review({"import", "--lineage", approved.lineage}).exit_code == 0);
  const std::string local_tip = RevParse(clone, ReviewRef(approved.lineage));
  REQUIRE(origin
              .Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  FetchReviews(clone);
  const auto before = clone.StoreBytes();
  RunResult refused = clone.Review({"import", "--lineage", approved.lineage});
  INFO(refused.out << refused.err);
  CHECK(refused.exit_code == 11);
  const nlohmann::json error = refused.Json()["error"];
  CHECK(error["code"] == "conflict");
  CHECK(error["lineage"] == approved.lineage);
  CHECK(error["details"]["terminal"] == "burn");
  CHECK(error["details"]["local_tip"] == local_tip);
  CHECK(error["details"]["fetched_tip"] == RevParse(origin, ReviewRef(approved.lineage)));
  CHECK(clone.StoreBytes() == before);

  RunResult accepted = clone.Review({"import", "--lineage", approved.lineage, "--accept-terminal"});
  INFO(accepted.out << accepted.err);
  REQUIRE(accepted.exit_code == 0);
  CHECK(accepted.Json()["state"] == "consumed");
  CHECK(clone.Review({"status", "--lineage", approved.lineage}).exit_code == 4);
  // The burn came from the remote: every reader of the spent approval says so.
  const nlohmann::json shown = clone.ReviewOk({"show", "--lineage", approved.lineage});
  CHECK(shown["state"] == "consumed");
  CHECK(shown["source"] == "origin");
  RunResult attest = clone.Review({"attest", "--lineage", approved.lineage});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(attest.Json()["predicate"]["consumed"] == true);
  CHECK(attest.Json()["predicate"]["source"] == "origin");
  CHECK(attest.Json()["predicate"]["signed"] == false);
  ExpectFsckClean(clone);
}

// The `source` every reader reports for `lineage` (status, list, show; verify and attest when
// `approved`).
void ExpectSource(const LifecycleRepo& repo, const std::string& lineage, const nlohmann::json& want,
                  bool approved) {
  CHECK(repo.ReviewOk({"status", "--lineage", lineage})["lineages"][0]["source"] == want);
  CHECK(repo.ReviewOk({"show", "--lineage", lineage})["source"] == want);
  const nlohmann::json status = repo.ReviewOk({"status"});
  for (const nlohmann::json& entry : status["lineages"]) {
    if (entry["lineage"] == lineage) CHECK(entry["source"] == want);
  }
  bool listed = false;
  const nlohmann::json list = repo.ReviewOk({"list"});
  INFO(list.dump());
  for (const nlohmann::json& entry : list["lineages"]) {
    if (entry["lineage"] != lineage) continue;
    listed = true;
    CHECK(entry["source"] == want);
  }
  CHECK(listed);
  if (!approved) return;
  CHECK(repo.ReviewOk({"verify", "--lineage", lineage})["source"] == want);
  RunResult attest = repo.Review({"attest", "--lineage", lineage});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(attest.Json()["predicate"]["source"] == want);
  CHECK(attest.Json()["predicate"]["signed"] == false);
}

TEST_CASE("replay: an imported lineage reads with its remote as source until a local mutation") {
  LifecycleRepo origin;
  const std::string reviewing = origin.StartNew()["lineage"];
  LifecycleRepo::Approved approved = origin.StartApproved();
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(clone.Review({"import", "--lineage", reviewing}).exit_code == 0);
  REQUIRE(clone.Review({"import", "--lineage", approved.lineage}).exit_code == 0);
  ExpectSource(clone, reviewing, "origin", false);
  ExpectSource(clone, approved.lineage, "origin", true);
  // The provenance is files and refs, not the index: a rebuilt index reads the same.
  REQUIRE(clone.Review({"index", "rebuild"}).exit_code == 0);
  ExpectSource(clone, reviewing, "origin", false);
  ExpectSource(clone, approved.lineage, "origin", true);
  ExpectFsckClean(clone);

  REQUIRE(clone.Review(Verdict(reviewing, "REQUEST_CHANGES")).exit_code == 0);
  ExpectSource(clone, reviewing, nullptr, false);
  REQUIRE(clone
              .Review({"burn", "--lineage", approved.lineage, "--token", approved.token,
                       "--expected-revision", approved.revision})
              .exit_code == 0);
  RunResult attest = clone.Review({"attest", "--lineage", approved.lineage});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(attest.Json()["predicate"]["consumed"] == true);
  CHECK(attest.Json()["predicate"]["source"].is_null());
  // Burned here: the consumed answer names the tombstone and no remote.
  RunResult spent = clone.Review({"status", "--lineage", approved.lineage});
  CHECK(spent.exit_code == 4);
  CHECK(spent.Json()["error"]["details"].size() == 1);
  CHECK(spent.Json()["error"]["details"]["tombstone"].is_string());
  // A lineage made here never had a source.
  const std::string own = clone.StartNew()["lineage"];
  ExpectSource(clone, own, nullptr, false);
}

// The refusal `args` answers with for a terminal lineage (exit `exit_code`, `code`): its JSON
// error, the same message on stderr without --json, nothing written.
nlohmann::json ExpectTerminalAnswer(const LifecycleRepo& repo, const std::vector<std::string>& args,
                                    int exit_code, const std::string& code) {
  const auto before = repo.StoreBytes();
  RunResult run = repo.Review(args);
  INFO(args[0] << ": " << run.out << run.err);
  CHECK(run.exit_code == exit_code);
  const nlohmann::json error = run.Json()["error"];
  CHECK(error["code"] == code);
  RunResult human = repo.Review(args, {}, false);
  CHECK(human.exit_code == exit_code);
  CHECK(human.out.empty());
  CHECK(human.err == "gentle-ai: " + code + ": " + error["message"].get<std::string>() + "\n");
  CHECK(repo.StoreBytes() == before);
  return error;
}

TEST_CASE("replay: the consumed and retired answers of an imported lineage name its remote") {
  LifecycleRepo origin;
  LifecycleRepo::Approved burned = origin.StartApproved();
  REQUIRE(origin
              .Review({"burn", "--lineage", burned.lineage, "--token", burned.token,
                       "--expected-revision", burned.revision})
              .exit_code == 0);
  const std::string abandoned = origin.StartNew()["lineage"];
  REQUIRE(origin
              .Review({"abandon", "--lineage", abandoned, "--reason", "operator_disposition",
                       "--actor", "ops"})
              .exit_code == 0);
  LifecycleRepo clone(LifecycleRepo::CloneOf{origin});
  FetchReviews(clone);
  REQUIRE(clone.Review({"import", "--lineage", burned.lineage}).exit_code == 0);
  REQUIRE(clone.Review({"import", "--lineage", abandoned}).exit_code == 0);
  // Without the fetched histories only the store and the provenance can answer.
  clone.GitOk({"update-ref", "-d", "refs/gentle-ai/remotes/origin/reviews/" + burned.lineage});
  clone.GitOk({"update-ref", "-d", "refs/gentle-ai/remotes/origin/reviews/" + abandoned});
  const std::string burn_tip = RevParse(clone, ReviewRef(burned.lineage));
  const std::string abandon_tip = RevParse(clone, ReviewRef(abandoned));
  REQUIRE(burn_tip == RevParse(origin, ReviewRef(burned.lineage)));
  REQUIRE(abandon_tip == RevParse(origin, ReviewRef(abandoned)));

  // The readers, and a mutation refused (it moves no tip, so the lineage is still the remote's).
  const std::vector<std::vector<std::string>> verbs = {
      {"status", "--lineage"},
      {"verify", "--lineage"},
      {"export-context", "--lineage"},
      {"verdict", "--verdict", "APPROVE", "--actor", "ana", "--role", "reviewer", "--body", "x",
       "--lineage"}};
  for (std::vector<std::string> args : verbs) {
    args.push_back(burned.lineage);
    nlohmann::json error = ExpectTerminalAnswer(clone, args, 4, "consumed");
    CHECK(error["message"] == "lineage " + burned.lineage + " was approved and burned");
    CHECK(error["details"]["source"] == "origin");
    CHECK(error["details"]["tip"] == burn_tip);
    CHECK(error["details"]["tombstone"].is_string());
    CHECK(error["details"].size() == 3);
    args.back() = abandoned;
    error = ExpectTerminalAnswer(clone, args, 5, "retired");
    const nlohmann::json audit = error["details"]["audit_record"];
    REQUIRE(audit.is_string());
    CHECK(error["message"] ==
          "lineage " + abandoned + " was abandoned or reclaimed; see " + audit.get<std::string>());
    CHECK(error["details"]["source"] == "origin");
    CHECK(error["details"]["tip"] == abandon_tip);
    CHECK(error["details"].size() == 3);
  }
  // The spent approval reads from the local burn commit, with the remote as source.
  const nlohmann::json round =
      clone.ReviewOk({"export-context", "--lineage", burned.lineage, "--round", "1"});
  CHECK(round["state"] == "consumed");
  CHECK(round["source"] == "origin");
  RunResult attest = clone.Review({"attest", "--lineage", burned.lineage});
  INFO(attest.out << attest.err);
  REQUIRE(attest.exit_code == 0);
  CHECK(attest.Json()["predicate"]["consumed"] == true);
  CHECK(attest.Json()["predicate"]["source"] == "origin");
  ExpectFsckClean(clone);
}

// A raw tree object (git's format) from "<mode> <name> <hex id>" entries, in the order given.
std::string RawTree(const std::vector<std::tuple<std::string, std::string, std::string>>& entries) {
  std::string out;
  for (const auto& [mode, name, hex] : entries) {
    out += mode + " " + name + std::string(1, '\0');
    for (size_t i = 0; i < hex.size(); i += 2) {
      out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    }
  }
  return out;
}

TEST_CASE("replay: a history tree naming review-state.json twice is corrupted") {
  LifecycleRepo origin;
  const std::string lineage = origin.StartNew()["lineage"];
  const std::string tip = RevParse(origin, ReviewRef(lineage));
  std::vector<std::tuple<std::string, std::string, std::string>> entries;
  for (const std::string& line : Lines(origin.GitOk({"ls-tree", tip}))) {
    const std::string name = line.substr(line.find('\t') + 1);
    const std::string mode = line.substr(0, line.find(' '));
    const std::string id = line.substr(line.find('\t') - 40, 40);
    entries.emplace_back(mode == "040000" ? "40000" : mode, name, id);
    if (name == "review-state.json")
      entries.emplace_back(mode, name, id);  // twice: git fsck's duplicateEntries
  }
  const std::string tree = GitInput(
      origin, {"hash-object", "-t", "tree", "--literally", "-w", "--stdin"}, RawTree(entries));
  const std::string body = origin.GitOk({"log", "-1", "--format=%B", tip});
  const std::string forged = GitInput(origin, {"commit-tree", tree, "-F", "-"}, body);
  origin.GitOk({"update-ref", ReviewRef(lineage), forged});
  ExpectReadersRefuse(origin, lineage, forged);
}

}  // namespace
}  // namespace gentle::testing
