// What CI's yes rests on (docs/ci.md, "Approval policies", "Whose signers file", "Signed
// commits"), end to end with real ssh-keygen keys, real `git commit -S` and a bare origin over
// file://, a reviewer's clone and a fresh CI clone running `review fetch` and `verify`:
//   - one person is counted once: one key for two addresses, two keys for one address (options
//     on a line and a comment address included), and self-approval excludes the whole person;
//   - --allowed-signers REF:PATH reads the base branch's copy, never the pull request's worktree;
//     its refusals name the REF or PATH; a literal path with ':' is written ./ or absolute;
//   - files named on the command line (and gpg.ssh.allowedSignersFile) are opened as git opens
//     them: a symlink is followed, a directory, a FIFO or an oversize file is `usage` saying which;
//   - --require-signed-commits: every commit of REF..HEAD signed by a key of the file (git
//     verify-commit is the oracle), and its signer is an author for self-approval.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
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
constexpr const char* kAnaCorp = "ana@corp.invalid";
constexpr const char* kBob = "bob@example.invalid";
constexpr const char* kCarol = "carol@example.invalid";

// "<type> <base64>" of a public key line (its comment dropped).
std::string KeyOnly(const SshKey& key) {
  const size_t second = key.public_key.find(' ', key.public_key.find(' ') + 1);
  return key.public_key.substr(0, second);
}

// A bare origin with `main` holding a.txt and .github/allowed_signers (`signers`), and a
// developer's clone of it that signs (gpg.format ssh) with `key`, its gpg.ssh.allowedSignersFile
// `allowed`.
struct Origin {
  TempDir dir;
  std::string bare = dir.path() + "/origin.git";
  std::string url = "file://" + bare;
  std::string dev = dir.path() + "/dev";
  Origin(const std::string& signers, const SshKey& key, const std::string& allowed) {
    GitOk(dir.path(), {"init", "-q", "--bare", "-b", "main", bare});
    GitOk(dir.path(), {"clone", "-q", url, dev});
    GitOk(dev, {"config", "gpg.format", "ssh"});
    GitOk(dev, {"config", "user.signingKey", key.file});
    GitOk(dev, {"config", "gpg.ssh.allowedSignersFile", allowed});
    WriteFile(dev + "/a.txt", "main\n");
    WriteFile(dev + "/.github/allowed_signers", signers);
    GitOk(dev, {"add", "a.txt", ".github/allowed_signers"});
    GitOk(dev, {"commit", "-q", "-m", "main"});
    GitOk(dev, {"push", "-q", "origin", "HEAD:main"});
    GitOk(dev, {"fetch", "-q", "origin"});
  }
  void SignWith(const SshKey& key) const { GitOk(dev, {"config", "user.signingKey", key.file}); }
  // A fresh CI clone with the review histories fetched.
  std::string Ci(const TempDir& ci_dir) const {
    const std::string ci = ci_dir.path() + "/ci";
    GitOk(ci_dir.path(), {"clone", "-q", url, ci});
    ReviewOk(ci, {"fetch", "--remote", "origin"});
    return ci;
  }
};

// On a new branch from origin/main: `files` written, start, the reviewed tree committed as
// `author` (signed with `sign_key` when given) with the Review-Lineage trailer, branch pushed.
std::string Change(const Origin& o, const std::string& branch, const std::string& author,
                   const SshKey* sign_key = nullptr,
                   const std::vector<std::pair<std::string, std::string>>& files = {}) {
  GitOk(o.dev, {"checkout", "-q", "-b", branch, "origin/main"});
  WriteFile(o.dev + "/a.txt", "changed on " + branch + "\n");
  for (const auto& [path, text] : files) WriteFile(o.dev + "/" + path, text);
  const std::string lineage = ReviewOk(o.dev, {"start"})["lineage"];
  std::vector<std::string> commit = {"commit",    "-q",
                                     "-am",       "change on " + branch,
                                     "--author",  "Someone <" + author + ">",
                                     "--trailer", "Review-Lineage: " + lineage};
  if (sign_key != nullptr) {
    commit.insert(commit.begin(), {"-c", "user.signingKey=" + sign_key->file});
    commit.push_back("-S");
  }
  GitOk(o.dev, commit);
  GitOk(o.dev, {"push", "-q", "origin", branch});
  return lineage;
}

// verdict APPROVE --sign as `actor` with the key the clone signs with now; returns the commit.
std::string Approve(const Origin& o, const std::string& lineage, const std::string& actor) {
  ReviewOk(o.dev, {"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--role", "reviewer",
                   "--body", "Read it.", "--sign", "--actor", actor});
  return GitOk(o.dev, {"rev-parse", "refs/gentle-ai/reviews/" + lineage});
}

void PushHistory(const Origin& o, const std::string& lineage) {
  ReviewOk(o.dev, {"push", "--remote", "origin", "--lineage", lineage});
}

std::vector<std::string> Verify(const std::string& lineage, const std::string& allowed,
                                const std::vector<std::string>& more) {
  std::vector<std::string> args = {"verify", "--lineage",         lineage, "--against",
                                   "HEAD",   "--allowed-signers", allowed};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

RunResult Recipe(const std::string& ci, const std::vector<std::string>& options,
                 const std::string& allowed) {
  Env env = GitEnv();
  env["GENTLE_AI"] = GENTLE_AI_RELEASE_BIN;
  std::vector<std::string> argv = {"sh", std::string(GENTLE_SOURCE_DIR) + "/scripts/ci-verify.sh"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.insert(argv.end(), {"origin", allowed});
  return Run(argv, ci, env);
}

TEST_CASE("ci trust: one key listed for two addresses is one person") {
  TempDir keys;
  const SshKey ana = MakeSshKey(keys, "ana");
  const SshKey bob = MakeSshKey(keys, "bob");
  const std::string allowed = keys.path() + "/allowed_signers";
  WriteFile(allowed, std::string(kAna) + "," + kAnaCorp + " " + ana.public_key + "\n" + kBob + " " +
                         bob.public_key + "\n");
  Origin o(ReadFile(allowed), ana, allowed);

  // ana approves as one name and co-approves as the other, with her one key.
  const std::string two = Change(o, "two-names", kCarol);
  const std::string first = Approve(o, two, kAna);
  const std::string second = Approve(o, two, kAnaCorp);
  REQUIRE(first != second);
  PushHistory(o, two);
  // ana, under her second address, wrote this one; ana and bob approved it.
  const std::string self = Change(o, "corp-author", kAnaCorp);
  const std::string self_ana = Approve(o, self, kAna);
  o.SignWith(bob);
  const std::string self_bob = Approve(o, self, kBob);
  PushHistory(o, self);

  TempDir ci_dir;
  const std::string ci = o.Ci(ci_dir);
  GitOk(ci, {"checkout", "-q", "--detach", "origin/two-names"});
  const Json error =
      Refused(Review(ci, Verify(two, allowed, {"--min-approvals", "2"})), 10, "untrusted");
  CHECK(error["details"]["reason"] == "too_few_approvals");
  CHECK(error["details"]["count"] == "1");
  CHECK(error["details"]["skipped"] == second + ":same_person");
  CHECK(error["details"]["same_person"] == second + " with " + first + " (line 1)");

  // With bob's approval there are two persons.
  o.SignWith(bob);
  const std::string third = Approve(o, two, kBob);
  PushHistory(o, two);
  ReviewOk(ci, {"fetch", "--remote", "origin"});
  const Json out = ReviewOk(ci, Verify(two, allowed, {"--min-approvals", "2"}));
  CHECK(out["approvals"]["count"] == 2);
  REQUIRE(out["approvals"]["list"].size() == 3);
  const Json& folded = out["approvals"]["list"][1];
  CHECK(folded["commit"] == second);
  CHECK(folded["principal"] == kAnaCorp);
  CHECK(folded["counted"] == false);
  CHECK(folded["reason"] == "same_person");
  CHECK(folded["person"] == kAna);
  CHECK(folded["same_as"] == first);
  CHECK(folded["joined_by"] == Json::array({"line 1"}));
  CHECK(out["approvals"]["list"][0]["joined_by"] == Json::array());
  CHECK(out["approvals"]["list"][2]["commit"] == third);
  CHECK(out["approvals"]["list"][2]["person"] == kBob);
  CHECK(out["approvals"]["list"][2]["counted"] == true);

  // Self-approval excludes the whole person: ana@corp wrote it, so ana@example's approval is out.
  GitOk(ci, {"checkout", "-q", "--detach", "origin/corp-author"});
  const Json self_error = Refused(
      Review(ci, Verify(self, allowed, {"--min-approvals", "2", "--base-ref", "origin/main"})), 10,
      "untrusted");
  CHECK(self_error["details"]["count"] == "1");
  CHECK(self_error["details"]["skipped"] == self_ana + ":self_approval");
  const Json one =
      ReviewOk(ci, Verify(self, allowed, {"--min-approvals", "1", "--base-ref", "origin/main"}));
  CHECK(one["approvals"]["list"][0]["reason"] == "self_approval");
  CHECK(one["approvals"]["list"][1]["commit"] == self_bob);
  CHECK(one["approvals"]["list"][1]["counted"] == true);
}

TEST_CASE("ci trust: two keys for one address are one person - options and comments kept") {
  TempDir keys;
  const SshKey ana = MakeSshKey(keys, "ana");
  const SshKey laptop = MakeSshKey(keys, "ana-laptop");
  const SshKey phone = MakeSshKey(keys, "ana-phone");
  const SshKey bob = MakeSshKey(keys, "bob");
  const std::string allowed = keys.path() + "/allowed_signers";
  // Line 2 names the address in other case, with options; line 3 gives it in the comment.
  WriteFile(allowed, "# reviewers\n" + std::string(kAna) + " " + ana.public_key + "\n" +
                         "ANA@example.invalid namespaces=\"git\",valid-after=\"20200101\" " +
                         laptop.public_key + "\n" + "ana-phone " + KeyOnly(phone) +
                         " phone of <ana@example.invalid>\n" + kBob + " " + bob.public_key + "\n");
  Origin o(ReadFile(allowed), ana, allowed);
  const std::string lineage = Change(o, "three-keys", kCarol);
  const std::string by_ana = Approve(o, lineage, kAna);
  o.SignWith(laptop);
  const std::string by_laptop = Approve(o, lineage, "ANA@example.invalid");
  o.SignWith(phone);
  const std::string by_phone = Approve(o, lineage, "ana-phone");
  PushHistory(o, lineage);
  // git itself accepts each signature with this file (the oracle for the options line).
  for (const std::string& commit : {by_ana, by_laptop, by_phone}) {
    RunResult checked = GitRun(o.dev, {"verify-commit", commit});
    INFO(checked.err);
    CHECK(checked.exit_code == 0);
  }

  TempDir ci_dir;
  const std::string ci = o.Ci(ci_dir);
  GitOk(ci, {"checkout", "-q", "--detach", "origin/three-keys"});
  const Json error =
      Refused(Review(ci, Verify(lineage, allowed, {"--min-approvals", "2"})), 10, "untrusted");
  CHECK(error["details"]["count"] == "1");
  CHECK(error["details"]["skipped"] == by_laptop + ":same_person," + by_phone + ":same_person");
  CHECK(error["details"]["same_person"] == by_laptop + " with " + by_ana +
                                               " (principals equal ignoring case); " + by_phone +
                                               " with " + by_ana + " (line 4)");
  const Json out = ReviewOk(ci, Verify(lineage, allowed, {"--require-signature"}));
  CHECK(out["approvals"]["count"] == 1);
  CHECK(out["approvals"]["list"][1]["principal"] == "ANA@example.invalid");
  CHECK(out["approvals"]["list"][1]["person"] == kAna);
  CHECK(out["approvals"]["list"][2]["principal"] == "ana-phone");
  CHECK(out["approvals"]["list"][2]["person"] == kAna);
  CHECK(out["approvals"]["list"][2]["joined_by"] == Json::array({"line 4"}));
}

TEST_CASE(
    "ci trust: --allowed-signers REF:PATH reads the base branch's copy - never the worktree") {
  TempDir keys;
  const SshKey ana = MakeSshKey(keys, "ana");
  const SshKey mallory = MakeSshKey(keys, "mallory");
  const std::string allowed = keys.path() + "/allowed_signers";
  const std::string base_copy = std::string(kAna) + " " + ana.public_key + "\n";
  WriteFile(allowed, base_copy);
  Origin o(base_copy, ana, allowed);
  const std::string good = Change(o, "good", kCarol);
  Approve(o, good, kAna);
  PushHistory(o, good);
  // The pull request adds its author's key to its own copy and approves itself with it.
  const std::string own =
      Change(o, "own-signers", "mallory@example.invalid", nullptr,
             {{".github/allowed_signers",
               base_copy + "mallory@example.invalid " + mallory.public_key + "\n"}});
  o.SignWith(mallory);
  Approve(o, own, "mallory@example.invalid");
  PushHistory(o, own);
  // A side branch whose signers "file" is a symlink.
  GitOk(o.dev, {"checkout", "-q", "-b", "links", "origin/main"});
  REQUIRE(symlink("allowed_signers", (o.dev + "/.github/link").c_str()) == 0);
  GitOk(o.dev, {"add", ".github/link"});
  GitOk(o.dev, {"commit", "-q", "-m", "link"});
  GitOk(o.dev, {"push", "-q", "origin", "links"});

  TempDir ci_dir;
  const std::string ci = o.Ci(ci_dir);
  const std::string base = "origin/main:.github/allowed_signers";
  GitOk(ci, {"checkout", "-q", "--detach", "origin/own-signers"});
  // The worktree's copy is the pull request's: it lets mallory in.
  CHECK(ReviewOk(ci, Verify(own, ".github/allowed_signers",
                            {"--require-signature"}))["signature"]["principal"] ==
        "mallory@example.invalid");
  const Json refused =
      Refused(Review(ci, Verify(own, base, {"--require-signature"})), 10, "untrusted");
  CHECK(refused["details"]["reason"] == "unknown_key");
  CHECK(refused["message"].get<std::string>().find("no principal of " + base) != std::string::npos);
  Refused(Recipe(ci, {"--min-approvals", "1"}, base), 10, "untrusted");

  GitOk(ci, {"checkout", "-q", "--detach", "origin/good"});
  const Json good_out = ReviewOk(ci, Verify(good, base, {"--require-signature"}));
  CHECK(good_out["signature"]["principal"] == kAna);
  RunResult recipe = Recipe(ci, {"--min-approvals", "1"}, base);
  INFO(recipe.out << recipe.err);
  CHECK(recipe.exit_code == 0);

  // Refusals name the REF or the PATH; nothing falls back to a file of that name.
  const std::vector<std::pair<std::string, std::string>> refusals = {
      {"nosuch/branch:.github/allowed_signers",
       "cannot read --allowed-signers nosuch/branch:.github/allowed_signers: REF nosuch/branch "
       "does not resolve"},
      {"origin/main:.github/missing",
       "cannot read --allowed-signers origin/main:.github/missing: .github/missing is not in "
       "origin/main"},
      {"origin/main:.github",
       "cannot read --allowed-signers origin/main:.github: .github is a directory in origin/main, "
       "not a regular file"},
      {"origin/links:.github/link",
       "cannot read --allowed-signers origin/links:.github/link: .github/link is a symlink in "
       "origin/links, not a regular file"},
      {"origin/main:../x",
       "cannot read --allowed-signers origin/main:../x: PATH \"../x\" is not a path from the root "
       "of origin/main's tree (empty, \".\" or \"..\" components)"},
      {":.github/allowed_signers",
       "cannot read --allowed-signers :.github/allowed_signers: REF:PATH names no REF (the index "
       "is not read; write ./.github/allowed_signers for a file)"}};
  for (const auto& [spec, message] : refusals) {
    INFO(spec);
    const Json e = Refused(Review(ci, Verify(good, spec, {"--require-signature"})), 2, "usage");
    CHECK(e["message"].get<std::string>().rfind(message, 0) == 0);
  }
  // A file whose name holds ':' is read as a file when written ./NAME (or absolute), and as
  // REF:PATH otherwise: the fail-closed reading.
  WriteFile(ci + "/signers:copy", base_copy);
  CHECK(ReviewOk(ci, Verify(good, "./signers:copy", {"--require-signature"}))["verified"] == true);
  CHECK(ReviewOk(ci, Verify(good, ci + "/signers:copy", {"--require-signature"}))["verified"] ==
        true);
  const Json literal =
      Refused(Review(ci, Verify(good, "signers:copy", {"--require-signature"})), 2, "usage");
  CHECK(literal["message"].get<std::string>().find("REF signers does not resolve") !=
        std::string::npos);
}

TEST_CASE("ci trust: files named on the command line are opened as git opens them") {
  TempDir keys;
  const SshKey ana = MakeSshKey(keys, "ana");
  const std::string allowed = keys.path() + "/allowed_signers";
  WriteFile(allowed, std::string(kAna) + " " + ana.public_key + "\n");
  const std::string link = keys.path() + "/signers-link";
  REQUIRE(symlink(allowed.c_str(), link.c_str()) == 0);
  Origin o(ReadFile(allowed), ana, link);  // gpg.ssh.allowedSignersFile is the symlink

  const std::string lineage = Change(o, "linked", kCarol);
  // verdict --sign without --actor reads the principal through the symlink, as git does.
  const Json decided = ReviewOk(o.dev, {"verdict", "--lineage", lineage, "--verdict", "APPROVE",
                                        "--role", "reviewer", "--body", "Read it.", "--sign"});
  CHECK(decided["actor"] == kAna);
  const std::string tip = GitOk(o.dev, {"rev-parse", "refs/gentle-ai/reviews/" + lineage});
  RunResult git_checked = GitRun(o.dev, {"verify-commit", tip});  // git follows it too
  INFO(git_checked.err);
  CHECK(git_checked.exit_code == 0);
  PushHistory(o, lineage);

  TempDir ci_dir;
  const std::string ci = o.Ci(ci_dir);
  GitOk(ci, {"checkout", "-q", "--detach", "origin/linked"});
  CHECK(ReviewOk(ci, Verify(lineage, link, {"--require-signature"}))["signature"]["principal"] ==
        kAna);

  const std::string fifo = keys.path() + "/fifo";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string big = keys.path() + "/big";
  WriteFile(big, std::string((16u << 20) + 1, '#'));
  const std::vector<std::pair<std::string, std::string>> refusals = {
      {keys.path(), "cannot read --allowed-signers " + keys.path() + ": not a regular file"},
      {fifo, "cannot read --allowed-signers " + fifo + ": not a regular file"},
      {big, "cannot read --allowed-signers " + big + ": larger than 16777216 bytes"}};
  for (const auto& [file, message] : refusals) {
    const Json e = Refused(Review(ci, Verify(lineage, file, {"--require-signature"})), 2, "usage");
    CHECK(e["message"] == message);
  }
  // gpg.ssh.allowedSignersFile naming a directory: verdict --sign says which.
  GitOk(o.dev, {"config", "gpg.ssh.allowedSignersFile", keys.path()});
  const std::string other = Change(o, "dir-config", kCarol);
  const Json e = Refused(Review(o.dev, {"verdict", "--lineage", other, "--verdict", "APPROVE",
                                        "--role", "reviewer", "--body", "Read it.", "--sign"}),
                         2, "usage");
  CHECK(e["message"] == "--actor is required: cannot read gpg.ssh.allowedSignersFile " +
                            keys.path() + ": not a regular file");
}

TEST_CASE("ci trust: --require-signed-commits takes authorship from commit signatures") {
  TempDir keys;
  const SshKey ana = MakeSshKey(keys, "ana");
  const SshKey bob = MakeSshKey(keys, "bob");
  const SshKey cy = MakeSshKey(keys, "cy");  // in no allowed signers file
  const std::string allowed = keys.path() + "/allowed_signers";
  WriteFile(allowed,
            std::string(kAna) + " " + ana.public_key + "\n" + kBob + " " + bob.public_key + "\n");
  Origin o(ReadFile(allowed), ana, allowed);
  // ana writes the change under carol's address, signs the commit with her own key, approves it.
  auto approved_by_both = [&](const std::string& branch, const SshKey* sign_key) {
    o.SignWith(ana);
    const std::string lineage = Change(o, branch, kCarol, sign_key);
    const std::string by_ana = Approve(o, lineage, kAna);
    o.SignWith(bob);
    Approve(o, lineage, kBob);
    PushHistory(o, lineage);
    return std::make_pair(lineage, by_ana);
  };
  const auto [insider, insider_ana] = approved_by_both("insider", &ana);
  const auto [plain, plain_ana] = approved_by_both("unsigned", nullptr);
  const auto [stranger, stranger_ana] = approved_by_both("stranger", &cy);
  // The oracle: git verify-commit with the same file accepts the first and refuses the others.
  const std::string insider_head = GitOk(o.dev, {"rev-parse", "origin/insider"});
  const std::string plain_head = GitOk(o.dev, {"rev-parse", "origin/unsigned"});
  const std::string stranger_head = GitOk(o.dev, {"rev-parse", "origin/stranger"});
  CHECK(GitRun(o.dev, {"verify-commit", insider_head}).exit_code == 0);
  CHECK(GitRun(o.dev, {"verify-commit", plain_head}).exit_code != 0);
  CHECK(GitRun(o.dev, {"verify-commit", stranger_head}).exit_code != 0);

  TempDir ci_dir;
  const std::string ci = o.Ci(ci_dir);
  const std::vector<std::string> two = {"--min-approvals", "2", "--base-ref", "origin/main"};
  std::vector<std::string> two_signed = two;
  two_signed.push_back("--require-signed-commits");

  GitOk(ci, {"checkout", "-q", "--detach", "origin/insider"});
  // By typed email, carol wrote it: both approvals count. That is all --base-ref can prove.
  CHECK(ReviewOk(ci, Verify(insider, allowed, two))["approvals"]["count"] == 2);
  const Json error = Refused(Review(ci, Verify(insider, allowed, two_signed)), 10, "untrusted");
  CHECK(error["details"]["reason"] == "too_few_approvals");
  CHECK(error["details"]["count"] == "1");
  CHECK(error["details"]["skipped"] == insider_ana + ":self_approval");
  const Json out = ReviewOk(
      ci, Verify(insider, allowed, {"--base-ref", "origin/main", "--require-signed-commits"}));
  REQUIRE(out["signed_commits"].size() == 1);
  CHECK(out["signed_commits"][0]["commit"] == insider_head);
  CHECK(out["signed_commits"][0]["principal"] == kAna);
  CHECK(out["signed_commits"][0]["person"] == kAna);
  CHECK(out["approvals"]["list"][0]["reason"] == "self_approval");
  Refused(
      Recipe(ci, {"--min-approvals", "2", "--base-ref", "origin/main", "--require-signed-commits"},
             allowed),
      10, "untrusted");

  GitOk(ci, {"checkout", "-q", "--detach", "origin/unsigned"});
  CHECK(ReviewOk(ci, Verify(plain, allowed, two))["approvals"]["count"] == 2);
  const Json unsigned_error =
      Refused(Review(ci, Verify(plain, allowed, two_signed)), 10, "untrusted");
  CHECK(unsigned_error["details"]["commit"] == plain_head);
  CHECK(unsigned_error["details"]["reason"] == "unsigned");
  CHECK(unsigned_error["message"] ==
        "commit " + plain_head + " of origin/main..HEAD is not signed");

  GitOk(ci, {"checkout", "-q", "--detach", "origin/stranger"});
  const Json stranger_error =
      Refused(Review(ci, Verify(stranger, allowed, two_signed)), 10, "untrusted");
  CHECK(stranger_error["details"]["commit"] == stranger_head);
  CHECK(stranger_error["details"]["reason"] == "unknown_key");

  // It needs --base-ref (the commits it checks) and an allowed signers file.
  const Json usage =
      Refused(Review(ci, Verify(stranger, allowed, {"--require-signed-commits"})), 2, "usage");
  CHECK(usage["message"] ==
        "--require-signed-commits needs --base-ref REF: the commits it checks are REF..REV");
  Refused(Review(ci, {"verify", "--lineage", stranger, "--against", "HEAD", "--base-ref",
                      "origin/main", "--require-signed-commits"}),
          2, "usage");
}

}  // namespace
}  // namespace gentle::testing
