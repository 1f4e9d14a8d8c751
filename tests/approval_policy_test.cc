// Approval policies CI can trust, end to end (docs/ci.md, "Approval policies"; docs/format.md,
// "Co-approvals"): three reviewers' SSH keys (ana and bob in the allowed signers file, cy not), a
// bare origin reached over file:// and over git daemon on 127.0.0.1, each reviewer in a clone of
// their own, and CI in a fresh clone running `review fetch` and `verify`:
//   - the signer must be the recorded actor (`untrusted`, reason actor_mismatch, both names);
//   - `verdict APPROVE --sign` without --actor records the signing key's principal;
//   - a second reviewer's APPROVE is a co-approval: a signed history commit only (the record's
//     bytes stay), the same actor again writes nothing, and it imports, pushes and fetches;
//   - --min-approvals N met and missed (the count in details);
//   - --base-ref excludes an approval by an author of the change;
//   - forged co-approvals in the fetched history are never counted;
//   - attest names each counted approval's principal and key;
//   - git verify-commit accepts every co-approval commit.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_daemon.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/review_in.h"
#include "tests/support/ssh_keys.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

constexpr const char* kAna = "ana@example.invalid";
constexpr const char* kBob = "bob@example.invalid";
constexpr const char* kCy = "cy@example.invalid";
// The recipe reads the allowed signers as CI does: the base branch's copy (docs/ci.md, "Whose
// signers file").
constexpr const char* kBaseSigners = "origin/main:.github/allowed_signers";

struct Reviewers {
  TempDir keys;
  SshKey ana = MakeSshKey(keys, "ana");
  SshKey bob = MakeSshKey(keys, "bob");
  SshKey cy = MakeSshKey(keys, "cy");  // in no allowed signers file
  std::string allowed = keys.path() + "/allowed_signers";
  Reviewers() { WriteAllowedSigners(allowed, {{kAna, ana}, {kBob, bob}}); }
};

// A reviewer's clone of `url`: SSH signing with `key`, and the allowed signers file in git's
// config (which `verdict --sign` without --actor and git verify-commit read).
std::string CloneAs(const TempDir& dir, const std::string& name, const std::string& url,
                    const SshKey& key, const std::string& allowed) {
  const std::string clone = dir.path() + "/" + name;
  GitOk(dir.path(), {"clone", "-q", url, clone});
  GitOk(clone, {"config", "gpg.format", "ssh"});
  GitOk(clone, {"config", "user.signingKey", key.file});
  GitOk(clone, {"config", "gpg.ssh.allowedSignersFile", allowed});
  return clone;
}

std::vector<std::string> Approve(const std::string& lineage, const std::string& actor = "") {
  std::vector<std::string> args = {"verdict", "--lineage", lineage,  "--verdict", "APPROVE",
                                   "--role",  "reviewer",  "--body", "Read it.",  "--sign"};
  if (!actor.empty()) args.insert(args.end(), {"--actor", actor});
  return args;
}

std::string HistoryTip(const std::string& repo, const std::string& lineage) {
  return GitOk(repo, {"rev-parse", "refs/gentle-ai/reviews/" + lineage});
}

// On a new branch from origin/main: change a.txt, start, commit the reviewed tree as `author`
// with the Review-Lineage trailer, and push the branch. Returns the lineage.
std::string Change(const std::string& dev, const std::string& branch, const std::string& author) {
  GitOk(dev, {"checkout", "-q", "-b", branch, "origin/main"});
  WriteFile(dev + "/a.txt", "changed on " + branch + "\n");
  const std::string lineage = ReviewOk(dev, {"start"})["lineage"];
  GitOk(dev, {"commit", "-q", "-am", "change on " + branch, "--author", "Someone <" + author + ">",
              "--trailer", "Review-Lineage: " + lineage});
  GitOk(dev, {"push", "-q", "origin", branch});
  return lineage;
}

void PushHistory(const std::string& clone, const std::string& lineage) {
  ReviewOk(clone, {"push", "--remote", "origin", "--lineage", lineage});
}

// A second reviewer's clone takes the lineage from origin and co-approves it.
Json CoApprove(const std::string& clone, const std::string& lineage) {
  ReviewOk(clone, {"fetch", "--remote", "origin"});
  ReviewOk(clone, {"import", "--lineage", lineage, "--remote", "origin"});
  const Json out = ReviewOk(clone, Approve(lineage));
  PushHistory(clone, lineage);
  return out;
}

std::vector<std::string> Verify(const std::string& lineage, const std::string& allowed,
                                const std::vector<std::string>& more) {
  std::vector<std::string> args = {"verify", "--lineage",         lineage, "--against",
                                   "HEAD",   "--allowed-signers", allowed};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// scripts/ci-verify.sh <options> origin <allowed> in `ci` at origin/<branch>.
RunResult Recipe(const std::string& ci, const std::string& branch, const std::string& allowed,
                 const std::vector<std::string>& options) {
  GitOk(ci, {"checkout", "-q", "--detach", "origin/" + branch});
  Env env = GitEnv();
  env["GENTLE_AI"] = GENTLE_AI_RELEASE_BIN;
  std::vector<std::string> argv = {"sh", std::string(GENTLE_SOURCE_DIR) + "/scripts/ci-verify.sh"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"origin", allowed});
  return Run(argv, ci, env);
}

// A commit object `text` written into `repo` as it is (a gpgsig header kept); returns its id.
std::string WriteCommitObject(const std::string& repo, const std::string& text) {
  return GitOk(repo, {"hash-object", "-t", "commit", "-w", "--stdin"}, text);
}

// `commit`'s tree with co-approval.md set to `file` (replaced, or added); returns the tree's id.
std::string TreeWithCoApproval(const std::string& repo, const std::string& commit,
                               const std::string& file) {
  const std::string blob = GitOk(repo, {"hash-object", "-w", "--stdin"}, file);
  const std::string listing = GitOk(repo, {"ls-tree", commit}) + "\n";
  std::string out;
  size_t pos = 0;
  while (pos < listing.size()) {
    const size_t end = listing.find('\n', pos);
    const std::string line = listing.substr(pos, end - pos);
    pos = end + 1;
    if (!line.empty() && line.substr(line.find('\t') + 1) != "co-approval.md") out += line + "\n";
  }
  out += "100644 blob " + blob + "\tco-approval.md\n";
  return GitOk(repo, {"mktree"}, out);  // mktree sorts the entries
}

// A co-approval.md (the verdict file's format) of an APPROVE by `actor`.
std::string VerdictText(const std::string& actor, const std::string& body = "Read it.") {
  return "---\nverdict: \"APPROVE\"\nactor: \"" + actor +
         "\"\nrole: \"reviewer\"\nat: \"2026-01-01T00:00:00Z\"\nfrom_state: \"approved\"\n"
         "to_state: \"approved\"\nbody_sha256: \"sha256:" +
         std::string(64, '0') + "\"\n---\n" + body;
}

void RunScenarios(const std::string& url, const std::string& bare) {
  Reviewers people;
  TempDir dir;
  const std::string ana = CloneAs(dir, "ana", url, people.ana, people.allowed);
  const std::string bob = CloneAs(dir, "bob", url, people.bob, people.allowed);
  WriteFile(ana + "/a.txt", "main\n");
  WriteFile(ana + "/.github/allowed_signers", ReadFile(people.allowed));
  GitOk(ana, {"add", "a.txt", ".github/allowed_signers"});
  GitOk(ana, {"commit", "-q", "-m", "main"});
  GitOk(ana, {"push", "-q", "origin", "HEAD:main"});
  GitOk(ana, {"fetch", "-q", "origin"});

  // Two reviewers on a change neither wrote.
  const std::string two = Change(ana, "two", "carol@example.invalid");
  const Json first = ReviewOk(ana, Approve(two));
  CHECK(first["actor"] == kAna);  // the signing key's principal, from gpg.ssh.allowedSignersFile
  CHECK(first["approval"] == "approval");
  const std::string approved_tip = HistoryTip(ana, two);
  const Json again = ReviewOk(ana, Approve(two));
  CHECK(again["approval"] == "repeat");
  CHECK(again["token"].is_null());
  CHECK(HistoryTip(ana, two) == approved_tip);  // the same actor again wrote nothing
  PushHistory(ana, two);
  const std::string record_before =
      GitOk(bare, {"cat-file", "blob", "refs/gentle-ai/reviews/" + two + ":review-state.json"});
  const Json co = CoApprove(bob, two);
  CHECK(co["actor"] == kBob);
  CHECK(co["approval"] == "co_approval");
  CHECK(co["signed"] == true);
  CHECK(co["state"] == "approved");
  CHECK(co["revision"] == first["revision"]);
  const std::string co_commit = HistoryTip(bob, two);
  CHECK(GitOk(bob, {"log", "-1", "--format=%s", co_commit}) == "co-approve " + two);
  CHECK(GitOk(bob, {"rev-parse", co_commit + "^"}) == approved_tip);
  // The record, and so the Go gentle-ai's view, did not change.
  CHECK(GitOk(bare, {"cat-file", "blob", "refs/gentle-ai/reviews/" + two + ":review-state.json"}) ==
        record_before);
  CHECK(ReadFile(bob + "/.git/gentle-ai/review-transactions/v2/" + two + "/review-state.json") ==
        record_before + "\n");
  RunResult verified = GitRun(bob, {"verify-commit", co_commit});
  INFO(verified.err);
  CHECK(verified.exit_code == 0);
  CHECK(ReviewOk(bob, {"fsck"})["clean"] == true);
  CHECK(ReviewOk(bob, {"repair"})["clean"] == true);
  CHECK(ReviewOk(bob, Approve(two))["approval"] == "repeat");

  // ana approves as bob: the signature is ana's.
  const std::string mismatch = Change(ana, "mismatch", "carol@example.invalid");
  CHECK(ReviewOk(ana, Approve(mismatch, kBob))["actor"] == kBob);
  PushHistory(ana, mismatch);

  // ana wrote the change, ana and bob approved it.
  const std::string self = Change(ana, "self", kAna);
  ReviewOk(ana, Approve(self));
  PushHistory(ana, self);
  CoApprove(bob, self);

  TempDir ci_dir;
  const std::string ci = ci_dir.path() + "/ci";
  GitOk(ci_dir.path(), {"clone", "-q", url, ci});
  ReviewOk(ci, {"fetch", "--remote", "origin"});

  SECTION("the signer must be the recorded actor") {
    GitOk(ci, {"checkout", "-q", "--detach", "origin/mismatch"});
    const Json details = RefusedDetails(
        Review(ci, Verify(mismatch, people.allowed, {"--require-signature"})), 10, "untrusted");
    CHECK(details["reason"] == "actor_mismatch");
    CHECK(details["actor"] == kBob);
    CHECK(details["principal"] == kAna);
    CHECK(details["commit"] == HistoryTip(ana, mismatch));
    // Without the signature requirement the same history verifies: it proves the tree only.
    GitOk(ci, {"checkout", "-q", "--detach", "origin/mismatch"});
    CHECK(Review(ci, {"verify", "--lineage", mismatch, "--against", "HEAD"}).exit_code == 0);
  }
  SECTION("two approvals required: met") {
    GitOk(ci, {"checkout", "-q", "--detach", "origin/two"});
    const Json out =
        ReviewOk(ci, Verify(two, people.allowed, {"--require-signature", "--min-approvals", "2"}));
    CHECK(out["source"] == "origin");
    CHECK(out["signature"]["principal"] == kAna);
    CHECK(out["approvals"]["required"] == 2);
    CHECK(out["approvals"]["count"] == 2);
    REQUIRE(out["approvals"]["list"].size() == 2);
    CHECK(out["approvals"]["list"][0]["kind"] == "verdict");
    CHECK(out["approvals"]["list"][0]["principal"] == kAna);
    CHECK(out["approvals"]["list"][1]["kind"] == "co_approval");
    CHECK(out["approvals"]["list"][1]["commit"] == co_commit);
    CHECK(out["approvals"]["list"][1]["principal"] == kBob);
    CHECK(out["approvals"]["list"][1]["counted"] == true);
    RunResult recipe = Recipe(ci, "two", kBaseSigners, {"--min-approvals", "2"});
    INFO(recipe.out << recipe.err);
    CHECK(recipe.exit_code == 0);
  }
  SECTION("three approvals required: missed, with the count") {
    GitOk(ci, {"checkout", "-q", "--detach", "origin/two"});
    const Json details = RefusedDetails(
        Review(ci, Verify(two, people.allowed, {"--min-approvals", "3"})), 10, "untrusted");
    CHECK(details["reason"] == "too_few_approvals");
    CHECK(details["count"] == "2");
    CHECK(details["required"] == "3");
    RefusedDetails(Recipe(ci, "two", kBaseSigners, {"--min-approvals", "3"}), 10, "untrusted");
  }
  SECTION("a self-approval does not count") {
    GitOk(ci, {"checkout", "-q", "--detach", "origin/self"});
    const std::vector<std::string> policy = {"--min-approvals", "2", "--base-ref", "origin/main"};
    const Json details =
        RefusedDetails(Review(ci, Verify(self, people.allowed, policy)), 10, "untrusted");
    CHECK(details["reason"] == "too_few_approvals");
    CHECK(details["count"] == "1");
    const std::string ana_approval =
        GitOk(ci, {"rev-parse", "refs/gentle-ai/remotes/origin/reviews/" + self + "^"});
    CHECK(details["skipped"] == ana_approval + ":self_approval");
    RefusedDetails(
        Recipe(ci, "self", kBaseSigners, {"--min-approvals", "2", "--base-ref", "origin/main"}), 10,
        "untrusted");
    // Without the base ref both count; with it and one required, bob's counts.
    GitOk(ci, {"checkout", "-q", "--detach", "origin/self"});
    CHECK(ReviewOk(ci, Verify(self, people.allowed,
                              {"--min-approvals", "2"}))["approvals"]["count"] == 2);
    const Json one = ReviewOk(
        ci, Verify(self, people.allowed, {"--min-approvals", "1", "--base-ref", "origin/main"}));
    CHECK(one["approvals"]["count"] == 1);
    CHECK(one["approvals"]["list"][0]["reason"] == "self_approval");
    CHECK(one["approvals"]["list"][1]["principal"] == kBob);
    // attest names the approvals that count, each with its key.
    const Json statement = Json::parse(Review(ci, {"attest", "--lineage", self, "--allowed-signers",
                                                   people.allowed, "--base-ref", "origin/main"})
                                           .out);
    const Json& counted = statement["predicate"]["approvals"];
    REQUIRE(counted.size() == 1);
    CHECK(counted[0]["principal"] == kBob);
    CHECK(counted[0]["kind"] == "co_approval");
    CHECK(counted[0]["actor"] == kBob);
    const std::string bob_fingerprint =
        Trim(Run({"ssh-keygen", "-l", "-E", "sha256", "-f", people.bob.file + ".pub"}).out);
    CHECK(bob_fingerprint.find(counted[0]["key"].get<std::string>()) != std::string::npos);
    const Json both = Json::parse(
        Review(ci, {"attest", "--lineage", self, "--allowed-signers", people.allowed}).out);
    CHECK(both["predicate"]["approvals"].size() == 2);
  }
  SECTION("forged co-approvals in the fetched history are never counted") {
    const std::string ref = "refs/gentle-ai/reviews/" + two;
    const std::string tip = GitOk(bare, {"rev-parse", ref});
    const std::string message = GitOk(bare, {"log", "-1", "--format=%B", tip});
    // cy, whom the file does not name, signs a co-approval of their own.
    const std::string cy_file = VerdictText(kCy);
    const std::string cy_tree = TreeWithCoApproval(bare, tip, cy_file);
    RunResult signed_by_cy =
        GitRun(bare,
               {"-c", "gpg.format=ssh", "-c", "user.signingKey=" + people.cy.file, "commit-tree",
                "-S", cy_tree, "-p", tip, "-F", "-"},
               {}, message + "\n");
    INFO(signed_by_cy.err);
    REQUIRE(signed_by_cy.exit_code == 0);
    const std::string by_cy = Trim(signed_by_cy.out);
    // bob's signed co-approval with its actor rewritten to cy: the signature no longer verifies.
    std::string object = GitOk(bare, {"cat-file", "commit", tip}) + "\n";
    const std::string forged_tree = TreeWithCoApproval(bare, tip, VerdictText(kCy, "Mine too."));
    object.replace(5, 40, forged_tree);
    object.replace(object.find("\nparent ") + 8, 40, by_cy);
    const std::string rewritten = WriteCommitObject(bare, object);
    GitOk(bare, {"update-ref", ref, rewritten});
    ReviewOk(ci, {"fetch", "--remote", "origin"});
    GitOk(ci, {"checkout", "-q", "--detach", "origin/two"});
    const Json details = RefusedDetails(
        Review(ci, Verify(two, people.allowed, {"--min-approvals", "3"})), 10, "untrusted");
    CHECK(details["count"] == "2");
    CHECK(details["skipped"] == by_cy + ":unknown_key," + rewritten + ":bad_signature");
    // The two real approvals still answer for two.
    CHECK(ReviewOk(ci, Verify(two, people.allowed,
                              {"--min-approvals", "2"}))["approvals"]["count"] == 2);
    // A co-approval of a lineage nobody approved is no history the verbs could make.
    const std::string unapproved = Change(ana, "unapproved", "carol@example.invalid");
    PushHistory(ana, unapproved);
    const std::string start = GitOk(bare, {"rev-parse", "refs/gentle-ai/reviews/" + unapproved});
    std::string body = GitOk(bare, {"log", "-1", "--format=%B", start});
    body.replace(0, body.find(' '), "co-approve");
    body += "\nVerdict: APPROVE\n";
    const std::string laundered = GitOk(
        bare,
        {"commit-tree", TreeWithCoApproval(bare, start, VerdictText(kBob)), "-p", start, "-F", "-"},
        body);
    GitOk(bare, {"update-ref", "refs/gentle-ai/reviews/" + unapproved, laundered});
    GitOk(ci, {"fetch", "-q", "origin"});
    ReviewOk(ci, {"fetch", "--remote", "origin"});
    GitOk(ci, {"checkout", "-q", "--detach", "origin/unapproved"});
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"verify", "--lineage", unapproved, "--against", "HEAD"},
          Verify(unapproved, people.allowed, {"--min-approvals", "1"}),
          std::vector<std::string>{"import", "--lineage", unapproved}}) {
      const Json refused = RefusedDetails(Review(ci, args), 7, "corrupted");
      CHECK(refused["commit"] == laundered);
    }
  }
}

TEST_CASE("approval policy: signers and thresholds and self-approval and forgeries over file://") {
  TempDir base;
  const std::string bare = base.path() + "/origin.git";
  GitOk(base.path(), {"init", "-q", "--bare", "-b", "main", bare});
  RunScenarios("file://" + bare, bare);
}

TEST_CASE(
    "approval policy: signers and thresholds and self-approval and forgeries over git daemon") {
  TempDir base;
  const std::string bare = base.path() + "/origin.git";
  GitOk(base.path(), {"init", "-q", "--bare", "-b", "main", bare});
  GitDaemon daemon(base.path());
  RunScenarios(daemon.Url("origin.git"), bare);
}

}  // namespace
}  // namespace gentle::testing
