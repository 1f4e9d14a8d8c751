// Signed approvals (docs/design.md, docs/ci.md, docs/format.md): `verdict APPROVE --sign` (or git
// config gentle-ai.signApprovals=true) signs the approval's history commit as `git commit -S` does,
// with the user's SSH key through ssh-keygen, so `git verify-commit` accepts it; `verify
// --require-signature --allowed-signers FILE` answers `untrusted` (exit 10) for an approval that
// is unsigned, badly signed, or signed by a key no principal of FILE holds. Keys are made by
// ssh-keygen in a temp dir; the repository is configured as a user would configure git.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>

#include "export/approval_signature.h"
#include "store/git/repository.h"
#include "store/history_chain.h"
#include "store/status.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

std::string Tip(const LifecycleRepo& repo, const std::string& lineage) {
  return Trim(repo.GitOk({"rev-parse", ReviewRef(lineage)}));
}

// An ed25519 key pair made by ssh-keygen: the private key file and its public key line.
struct Key {
  std::string file;
  std::string public_key;  // "ssh-ed25519 AAAA... <comment>"
};

Key MakeKey(const TempDir& dir, const std::string& name) {
  const std::string file = dir.path() + "/" + name;
  RunResult made = Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return {file, Trim(ReadFile(file + ".pub"))};
}

// git's allowed signers format: "<principal> <key type> <key>".
std::string AllowedSigners(const TempDir& dir,
                           const std::vector<std::pair<std::string, Key>>& signers) {
  std::string text;
  for (const auto& [principal, key] : signers) text += principal + " " + key.public_key + "\n";
  const std::string file = dir.path() + "/allowed_signers";
  WriteFile(file, text);
  return file;
}

void UseKey(const LifecycleRepo& repo, const Key& key) {
  repo.GitOk({"config", "gpg.format", "ssh"});
  repo.GitOk({"config", "user.signingKey", key.file});
}

std::vector<std::string> Approve(const std::string& lineage, bool sign) {
  std::vector<std::string> args = {"verdict",  "--lineage", lineage,           "--verdict",
                                   "APPROVE",  "--actor",   "ana@example.com", "--role",
                                   "reviewer", "--body",    "Looks right."};
  if (sign) args.push_back("--sign");
  return args;
}

std::vector<std::string> VerifySigned(const std::string& lineage, const std::string& allowed) {
  return {"verify", "--lineage", lineage, "--require-signature", "--allowed-signers", allowed};
}

// A lineage approved with a signature by `ana`, whom `allowed` allows; `tip` is the approval.
struct SignedApproval {
  TempDir keys;
  Key key;
  std::string allowed;
  LifecycleRepo repo;
  std::string lineage, tip;
  SignedApproval()
      : key(MakeKey(keys, "ana")), allowed(AllowedSigners(keys, {{"ana@example.com", key}})) {
    UseKey(repo, key);
    lineage = repo.StartNew()["lineage"];
    REQUIRE(repo.Review(Approve(lineage, true)).exit_code == 0);
    tip = Tip(repo, lineage);
  }
};

// The error envelope's code, exit code and details of a refused command.
void ExpectError(const RunResult& run, int exit_code, const std::string& code) {
  INFO(run.out << run.err);
  CHECK(run.exit_code == exit_code);
  CHECK(run.Json()["error"]["code"] == code);
}

TEST_CASE("signing: untrusted is code 10 at the end of the vocabulary") {
  CHECK(CodeName(Code::kUntrusted) == "untrusted");
  CHECK(ExitCodeFor(Code::kUntrusted) == 10);
  CHECK(static_cast<int>(Code::kUntrusted) == static_cast<int>(Code::kBusy) + 1);
}

TEST_CASE("signing: APPROVE --sign is accepted by git verify-commit and by verify") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  LifecycleRepo repo;
  UseKey(repo, key);
  const std::string lineage = repo.StartNew()["lineage"];
  const std::string before = Tip(repo, lineage);

  // The signer's and the verifier's temp files go to TMPDIR and are removed.
  TempDir tmp;
  const Env env = {{"TMPDIR", tmp.path()}};
  RunResult approve = repo.Review(Approve(lineage, true), env);
  INFO(approve.out << approve.err);
  REQUIRE(approve.exit_code == 0);
  CHECK(approve.Json()["signed"] == true);
  CHECK(std::filesystem::is_empty(tmp.path()));
  const std::string tip = Tip(repo, lineage);
  const std::string raw = repo.GitOk({"cat-file", "commit", tip});
  CHECK(raw.find("\ngpgsig -----BEGIN SSH SIGNATURE-----\n") != std::string::npos);
  CHECK(Trim(repo.GitOk({"rev-parse", tip + "^"})) == before);
  CHECK(repo.GitOk({"log", "-1", "--format=%s", tip}) == "verdict " + lineage + "\n");

  RunResult git_verify =
      repo.Git({"-c", "gpg.ssh.allowedSignersFile=" + allowed, "verify-commit", tip});
  INFO(git_verify.err);
  CHECK(git_verify.exit_code == 0);
  CHECK(git_verify.err.find("Good \"git\" signature for ana@example.com") != std::string::npos);

  RunResult verify = repo.Review(VerifySigned(lineage, allowed), env);
  INFO(verify.out << verify.err);
  REQUIRE(verify.exit_code == 0);
  CHECK(std::filesystem::is_empty(tmp.path()));
  const Json v = verify.Json();
  CHECK(v["signature"]["commit"] == tip);
  CHECK(v["signature"]["principal"] == "ana@example.com");
  CHECK(v["signature"]["key"].get<std::string>().rfind("SHA256:", 0) == 0);
  CHECK(v["consumed"] == false);

  // After a burn the approval is the burn commit's parent, and it still verifies.
  RunResult burn = repo.Review({"burn", "--lineage", lineage, "--token", approve.Json()["token"],
                                "--expected-revision", approve.Json()["revision"]});
  INFO(burn.out << burn.err);
  REQUIRE(burn.exit_code == 0);
  RunResult after_burn = repo.Review(VerifySigned(lineage, allowed));
  INFO(after_burn.out << after_burn.err);
  REQUIRE(after_burn.exit_code == 0);
  CHECK(after_burn.Json()["consumed"] == true);
  CHECK(after_burn.Json()["signature"]["commit"] == tip);
}

// user.signingKey = key::<public key>: git signs through ssh-agent (ssh-keygen -U); so does this.
TEST_CASE("signing: a key literal signs through ssh-agent") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  const std::string socket = keys.path() + "/agent.sock";
  RunResult agent = Run({"ssh-agent", "-s", "-a", socket});
  INFO(agent.err);
  REQUIRE(agent.exit_code == 0);
  const size_t pid_at = agent.out.find("SSH_AGENT_PID=");
  REQUIRE(pid_at != std::string::npos);
  const std::string pid = agent.out.substr(pid_at + 14, agent.out.find(';', pid_at) - pid_at - 14);
  const Env agent_env = {{"SSH_AUTH_SOCK", socket}, {"SSH_AGENT_PID", pid}};
  struct StopAgent {
    Env env;
    ~StopAgent() { Run({"ssh-agent", "-k"}, "", env); }
  } stop{agent_env};
  REQUIRE(Run({"ssh-add", "-q", key.file}, "", agent_env).exit_code == 0);

  LifecycleRepo repo;
  repo.GitOk({"config", "gpg.format", "ssh"});
  repo.GitOk({"config", "user.signingKey", "key::" + key.public_key});
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult approve = repo.Review(Approve(lineage, true), agent_env);
  INFO(approve.out << approve.err);
  REQUIRE(approve.exit_code == 0);
  CHECK(
      repo.Git({"-c", "gpg.ssh.allowedSignersFile=" + allowed, "verify-commit", Tip(repo, lineage)})
          .exit_code == 0);
  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  INFO(verify.out << verify.err);
  CHECK(verify.exit_code == 0);
  CHECK(verify.Json()["signature"]["principal"] == "ana@example.com");
}

// The check takes a commit id, so it answers for a fetched history as for the local one: a fresh
// clone holding only the fetched ref verifies the chain, finds the approval and trusts its signer.
TEST_CASE("signing: a fetched history's signed approval checks in a fresh clone") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  LifecycleRepo repo;
  UseKey(repo, key);
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult approve = repo.Review(Approve(lineage, true));
  REQUIRE(approve.exit_code == 0);
  const std::string tip = Tip(repo, lineage);

  TempDir clone_dir;
  const std::string clone = clone_dir.path() + "/clone";
  REQUIRE(Run({"git", "clone", "-q", repo.root(), clone}).exit_code == 0);
  const std::string fetched = "refs/gentle-ai/remotes/origin/reviews/" + lineage;
  RunResult fetch =
      Run({"git", "fetch", "-q", "origin", ReviewRef(lineage) + ":" + fetched}, clone);
  INFO(fetch.err);
  REQUIRE(fetch.exit_code == 0);

  auto git = store::git::Repository::Discover(clone);
  REQUIRE(git.ok());
  auto chain = store::VerifyHistoryChain(*git, lineage, tip);
  INFO(chain.status().message());
  REQUIRE(chain.ok());
  auto approval = exporter::FindApprovalCommit(*git, lineage, tip, chain->record.revision);
  REQUIRE(approval.ok());
  REQUIRE(approval->has_value());
  CHECK(**approval == tip);
  auto signers = exporter::LoadAllowedSigners(*git, allowed);
  REQUIRE(signers.ok());
  auto signature = exporter::CheckApprovalSignature(*git, tip, *signers);
  INFO(signature.status().message());
  REQUIRE(signature.ok());
  CHECK(signature->principal == "ana@example.com");
  CHECK(signature->commit == tip);
  // The parent (the start commit) holds no approval and no signature.
  const std::string start = Trim(Run({"git", "rev-parse", tip + "^"}, clone).out);
  auto unsigned_start = exporter::CheckApprovalSignature(*git, start, *signers);
  CHECK(unsigned_start.status().code() == Code::kUntrusted);
  CHECK(unsigned_start.status().details().at("reason") == "unsigned");

  // attest says where the approval came from and that it is signed: fetched only, then imported.
  for (const char* step : {"fetched", "imported"}) {
    INFO(step);
    if (std::string(step) == "imported") {
      RunResult imported = GentleAi({"review", "import", "--lineage", lineage, "--json"}, clone);
      INFO(imported.out << imported.err);
      REQUIRE(imported.exit_code == 0);
    }
    RunResult attest = GentleAi({"review", "attest", "--lineage", lineage}, clone);
    INFO(attest.out << attest.err);
    REQUIRE(attest.exit_code == 0);
    CHECK(attest.Json()["predicate"]["source"] == "origin");
    CHECK(attest.Json()["predicate"]["signed"] == true);
    CHECK(attest.Json()["predicate"]["history_commit"] == tip);
  }
}

// A signed approval stopped at each durable step: the next writer recovers, fsck is clean, and
// the lineage ends approved with a signature verify trusts (at once, or after the verdict is
// given again).
TEST_CASE("signing: a signed approval stopped at each durable step recovers signed") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  std::vector<std::string> points;
  {
    LifecycleRepo repo;
    UseKey(repo, key);
    const std::string lineage = repo.StartNew()["lineage"];
    points = TraceFaultPoints(repo, Approve(lineage, true));
  }
  CHECK(std::find(points.begin(), points.end(), "verdict:history-prepared") != points.end());
  for (const std::string& point : points) {
    INFO("fault point: " << point);
    LifecycleRepo repo;
    UseKey(repo, key);
    const std::string lineage = repo.StartNew()["lineage"];
    RunResult crashed = repo.Review(Approve(lineage, true), {{"GENTLE_FAULT_POINT", point}});
    REQUIRE(crashed.exit_code == 86);
    repo.StartNew();
    ExpectFsckClean(repo);
    RunResult status = repo.Review({"status", "--lineage", lineage});
    REQUIRE(status.exit_code == 0);
    if (status.Json()["lineages"][0]["state"] != "approved") {
      CHECK(status.Json()["lineages"][0]["state"] == "reviewing");
      RunResult retry = repo.Review(Approve(lineage, true));
      INFO(retry.out << retry.err);
      REQUIRE(retry.exit_code == 0);
    }
    RunResult verify = repo.Review(VerifySigned(lineage, allowed));
    INFO(verify.out << verify.err);
    CHECK(verify.exit_code == 0);
    ExpectFsckClean(repo);
  }
}

// Through the CLI: a clone approves (one signed, one unsigned) and pushes; a fresh clone fetches,
// and verify --require-signature answers from the fetched history (source "origin").
TEST_CASE("signing: verify in a fresh clone checks the signature of a fetched approval") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  TempDir tmp;
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", origin}).exit_code == 0);
  LifecycleRepo repo;
  UseKey(repo, key);
  repo.GitOk({"remote", "add", "origin", "file://" + origin});
  const std::string signed_lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Approve(signed_lineage, true)).exit_code == 0);
  const std::string unsigned_lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Approve(unsigned_lineage, false)).exit_code == 0);
  RunResult push = repo.Review({"push"});
  INFO(push.out << push.err);
  REQUIRE(push.exit_code == 0);

  const std::string clone = tmp.path() + "/clone";
  REQUIRE(Run({"git", "clone", "-q", "file://" + origin, clone}).exit_code == 0);
  auto review = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "review");
    args.insert(args.end(), {"--cwd", clone, "--json"});
    return GentleAi(args, clone);
  };
  RunResult fetch = review({"fetch"});
  INFO(fetch.out << fetch.err);
  REQUIRE(fetch.exit_code == 0);

  RunResult verified = review(VerifySigned(signed_lineage, allowed));
  INFO(verified.out << verified.err);
  REQUIRE(verified.exit_code == 0);
  CHECK(verified.Json()["source"] == "origin");
  CHECK(verified.Json()["signature"]["principal"] == "ana@example.com");
  CHECK(verified.Json()["signature"]["commit"] == Tip(repo, signed_lineage));

  RunResult refused = review(VerifySigned(unsigned_lineage, allowed));
  ExpectError(refused, 10, "untrusted");
  CHECK(refused.Json()["error"]["details"]["reason"] == "unsigned");
}

TEST_CASE("signing: an unsigned approval is untrusted") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult approve = repo.Review(Approve(lineage, false));
  REQUIRE(approve.exit_code == 0);
  CHECK(approve.Json()["signed"] == false);

  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  ExpectError(verify, 10, "untrusted");
  CHECK(verify.Json()["error"]["details"]["reason"] == "unsigned");
  CHECK(verify.Json()["error"]["details"]["commit"] == Tip(repo, lineage));
  CHECK(verify.Json()["error"]["lineage"] == lineage);
  // Without --require-signature the same lineage verifies.
  CHECK(repo.Review({"verify", "--lineage", lineage}).exit_code == 0);
}

TEST_CASE("signing: an approval signed by a key no allowed principal holds is untrusted") {
  TempDir keys;
  const Key ana = MakeKey(keys, "ana");
  const Key mallory = MakeKey(keys, "mallory");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", ana}});
  LifecycleRepo repo;
  UseKey(repo, mallory);
  const std::string lineage = repo.StartNew()["lineage"];
  REQUIRE(repo.Review(Approve(lineage, true)).exit_code == 0);

  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  ExpectError(verify, 10, "untrusted");
  const Json details = verify.Json()["error"]["details"];
  CHECK(details["reason"] == "unknown_key");
  CHECK(verify.Json()["error"]["message"].get<std::string>().find(
            "is signed by a key no principal of " + allowed + " holds") != std::string::npos);
  CHECK(details["commit"] == Tip(repo, lineage));
  const std::string fingerprint = Trim(Run({"ssh-keygen", "-l", "-f", mallory.file + ".pub"}).out);
  CHECK(fingerprint.find(details["key"].get<std::string>()) != std::string::npos);
}

// An allowed signers file of one line: `<principal> <options> <public key>`.
std::string AllowedWithOptions(const TempDir& dir, const std::string& principal,
                               const std::string& options, const Key& key) {
  const std::string file = dir.path() + "/allowed_signers_options";
  WriteFile(file, principal + " " + options + " " + key.public_key + "\n");
  return file;
}

// A lineage approved with a signature by `key`, the approval commit dated 2020-06-15T12:00:00Z.
std::string ApproveSignedIn2020(LifecycleRepo& repo, const Key& key) {
  UseKey(repo, key);
  const std::string lineage = repo.StartNew()["lineage"];
  RunResult approve =
      repo.Review(Approve(lineage, true), {{"GENTLE_FIXED_TIME", "2020-06-15T12:00:00Z"}});
  INFO(approve.out << approve.err);
  REQUIRE(approve.exit_code == 0);
  CHECK(repo.GitOk({"log", "-1", "--format=%ct", Tip(repo, lineage)}) == "1592222400\n");
  return lineage;
}

// valid-after / valid-before are judged at the commit's time, as `git verify-commit` judges them
// (it passes the commit time to ssh-keygen with -Overify-time=), not at the time of the check.
TEST_CASE("signing: an allowed signer's validity window is judged at the commit's time") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  LifecycleRepo repo;
  const std::string lineage = ApproveSignedIn2020(repo, key);
  auto git_verify = [&](const std::string& allowed) {
    return repo.Git(
        {"-c", "gpg.ssh.allowedSignersFile=" + allowed, "verify-commit", Tip(repo, lineage)});
  };

  SECTION("valid then, expired now: accepted, as git accepts it") {
    const std::string allowed = AllowedWithOptions(
        keys, "ana@example.com", "valid-after=\"20200101Z\",valid-before=\"20201231Z\"", key);
    CHECK(git_verify(allowed).exit_code == 0);
    RunResult verify = repo.Review(VerifySigned(lineage, allowed));
    INFO(verify.out << verify.err);
    REQUIRE(verify.exit_code == 0);
    CHECK(verify.Json()["signature"]["principal"] == "ana@example.com");
  }
  // git refuses what verify refuses, and verify names why: `reason` and the message's tail.
  auto refused = [&](const std::string& options, const std::string& reason,
                     const std::string& why) {
    const std::string allowed = AllowedWithOptions(keys, "ana@example.com", options, key);
    CHECK(git_verify(allowed).exit_code != 0);
    RunResult verify = repo.Review(VerifySigned(lineage, allowed));
    ExpectError(verify, 10, "untrusted");
    const Json error = verify.Json()["error"];
    CHECK(error["details"]["reason"] == reason);
    CHECK(error["details"]["principal"] == "ana@example.com");
    CHECK(error["details"]["commit_time"] == "20200615120000Z");
    CHECK(error["message"] ==
          "the approval's history commit " + Tip(repo, lineage) + " is signed by a key " + why);
  };
  SECTION("expired before the commit: expired") {
    refused("valid-before=\"20200301Z\"", "expired",
            "whose allowed signers entry (principal ana@example.com) expired before the commit's "
            "time 20200615120000Z");
  }
  SECTION("valid only after the commit, valid now: not yet valid") {
    refused("valid-after=\"20210101Z\"", "not_yet_valid",
            "whose allowed signers entry (principal ana@example.com) is not yet valid at the "
            "commit's time 20200615120000Z");
  }
  SECTION("a key allowed for another namespace only: wrong namespace") {
    refused("namespaces=\"file\"", "wrong_namespace",
            keys.path() +
                "/allowed_signers_options does not allow for git signatures (principal "
                "ana@example.com: namespaces excludes git)");
  }
}

// A signature made for another namespace than git's (ssh-keygen -Y sign -n file over the same
// payload, put in the commit's gpgsig) names that namespace.
TEST_CASE("signing: a signature for another namespace is refused as wrong_namespace") {
  SignedApproval signed_approval;
  const Key& key = signed_approval.key;
  const std::string& allowed = signed_approval.allowed;
  LifecycleRepo& repo = signed_approval.repo;
  const std::string& lineage = signed_approval.lineage;
  const std::string tip = Tip(repo, lineage);
  const std::string raw = repo.GitOk({"cat-file", "commit", tip});
  const size_t header = raw.find("\ngpgsig ");
  const size_t header_end = raw.find("-----END SSH SIGNATURE-----\n", header);
  REQUIRE(header_end != std::string::npos);
  const size_t after = header_end + std::string("-----END SSH SIGNATURE-----\n").size();
  const std::string payload = raw.substr(0, header + 1) + raw.substr(after);
  RunResult signed_file = Run({"ssh-keygen", "-q", "-Y", "sign", "-f", key.file, "-n", "file"},
                              repo.root(), {}, payload);
  INFO(signed_file.err);
  REQUIRE(signed_file.exit_code == 0);
  // The header's value: the armored signature, each line after the first indented by a space.
  std::string gpgsig = "gpgsig";
  const std::string& armored = signed_file.out;
  for (size_t pos = 0; pos < armored.size();) {
    const size_t end = armored.find('\n', pos);
    gpgsig += " " + armored.substr(pos, end - pos) + "\n";
    pos = end == std::string::npos ? armored.size() : end + 1;
  }
  const std::string forged_raw = raw.substr(0, header + 1) + gpgsig + raw.substr(after);
  RunResult forged =
      Run({"git", "hash-object", "-t", "commit", "-w", "--stdin"}, repo.root(), {}, forged_raw);
  REQUIRE(forged.exit_code == 0);
  const std::string forged_id = Trim(forged.out);
  repo.GitOk({"update-ref", ReviewRef(lineage), forged_id, tip});

  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  ExpectError(verify, 10, "untrusted");
  const Json error = verify.Json()["error"];
  CHECK(error["details"]["reason"] == "wrong_namespace");
  CHECK(error["details"]["namespace"] == "file");
  CHECK(error["message"] == "the approval's history commit " + forged_id +
                                " carries an SSH signature made for the namespace \"file\", not "
                                "\"git\"");
}

// A signature altered after signing (the approval commit re-created with one character of its
// gpgsig changed, the ref moved to it) is `untrusted` (bad_signature): the history itself is
// intact, only the signature does not vouch for it.
TEST_CASE("signing: a tampered signature is untrusted") {
  SignedApproval signed_approval;
  const std::string& allowed = signed_approval.allowed;
  LifecycleRepo& repo = signed_approval.repo;
  const std::string& lineage = signed_approval.lineage;
  const std::string tip = Tip(repo, lineage);
  std::string raw = repo.GitOk({"cat-file", "commit", tip});
  const size_t end = raw.find("\n -----END SSH SIGNATURE-----");
  REQUIRE(end != std::string::npos);
  const size_t line = raw.rfind("\n ", end - 1);     // the signature's last base64 line
  const size_t at = raw.rfind('\n', line - 1) + 10;  // a character inside the line before it
  raw[at] = raw[at] == 'A' ? 'B' : 'A';
  RunResult forged =
      Run({"git", "hash-object", "-t", "commit", "-w", "--stdin"}, repo.root(), {}, raw);
  REQUIRE(forged.exit_code == 0);
  const std::string forged_id = Trim(forged.out);
  repo.GitOk({"update-ref", ReviewRef(lineage), forged_id, tip});

  CHECK(repo.Git({"-c", "gpg.ssh.allowedSignersFile=" + allowed, "verify-commit", forged_id})
            .exit_code != 0);
  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  ExpectError(verify, 10, "untrusted");
  CHECK(verify.Json()["error"]["details"]["reason"] == "bad_signature");
  CHECK(verify.Json()["error"]["details"]["commit"] == forged_id);
}

TEST_CASE("signing: without ssh-keygen on PATH a required signature is untrusted - naming it") {
  SignedApproval signed_approval;
  const LifecycleRepo& repo = signed_approval.repo;
  const std::string& allowed = signed_approval.allowed;
  const std::string& lineage = signed_approval.lineage;
  const std::string& tip = signed_approval.tip;
  TempDir empty;  // a PATH holding no program at all
  const Env no_programs = {{"PATH", empty.path()}};
  RunResult verify = repo.Review(VerifySigned(lineage, allowed), no_programs);
  ExpectError(verify, 10, "untrusted");
  const Json error = verify.Json()["error"];
  CHECK(error["details"]["reason"] == "no_verifier");
  CHECK(error["details"]["program"] == "ssh-keygen");
  CHECK(error["details"]["commit"] == tip);
  CHECK(error["lineage"] == lineage);
  const std::string message = error["message"];
  CHECK(message.rfind("the approval's history commit " + tip +
                          " cannot be checked: verifying signatures needs ssh-keygen "
                          "(openssh-client): cannot run ssh-keygen: ",
                      0) == 0);
  RunResult text = repo.Review(VerifySigned(lineage, allowed), no_programs, /*json=*/false);
  CHECK(text.exit_code == 10);
  CHECK(text.err.rfind("gentle-ai: untrusted: the approval's history commit " + tip +
                           " cannot be checked: verifying signatures needs ssh-keygen",
                       0) == 0);
  // With ssh-keygen back on PATH the same approval verifies.
  CHECK(repo.Review(VerifySigned(lineage, allowed)).exit_code == 0);
}

TEST_CASE("signing: gentle-ai.signApprovals=true signs an APPROVE given without --sign") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  LifecycleRepo repo;
  UseKey(repo, key);
  repo.GitOk({"config", "gentle-ai.signApprovals", "true"});
  const std::string lineage = repo.StartNew()["lineage"];
  // Only approvals are signed: a request for changes is written as before.
  RunResult changes = repo.Review({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES",
                                   "--actor", "ana", "--role", "reviewer", "--body", "Fix it."});
  REQUIRE(changes.exit_code == 0);
  CHECK(changes.Json()["signed"] == false);
  CHECK(repo.GitOk({"cat-file", "commit", Tip(repo, lineage)}).find("gpgsig") == std::string::npos);

  RunResult approve = repo.Review(Approve(lineage, false));
  REQUIRE(approve.exit_code == 0);
  CHECK(approve.Json()["signed"] == true);
  CHECK(
      repo.Git({"-c", "gpg.ssh.allowedSignersFile=" + allowed, "verify-commit", Tip(repo, lineage)})
          .exit_code == 0);
  RunResult verify = repo.Review(VerifySigned(lineage, allowed));
  INFO(verify.out << verify.err);
  CHECK(verify.exit_code == 0);
}

// The loose objects of the repository (objects/xx/...), sorted.
std::vector<std::string> LooseObjects(const LifecycleRepo& repo) {
  std::vector<std::string> out;
  const std::filesystem::path objects = repo.common_dir() + "/objects";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(objects)) {
    const std::string relative = std::filesystem::relative(entry.path(), objects).string();
    if (entry.is_regular_file() && relative.size() == 41 && relative[2] == '/') {
      out.push_back(relative);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A refused verdict's error names its lineage, and its message is one line: the same text under
// --json and after `gentle-ai: usage: ` without it.
void ExpectRefusal(const LifecycleRepo& repo, const std::vector<std::string>& args,
                   const std::string& lineage, const std::string& message) {
  RunResult json = repo.Review(args);
  ExpectError(json, 2, "usage");
  CHECK(json.Json()["error"]["lineage"] == lineage);
  CHECK(json.Json()["error"]["message"] == message);
  RunResult text = repo.Review(args, {}, false);
  CHECK(text.exit_code == 2);
  CHECK(text.err == "gentle-ai: usage: " + message + "\n");
}

TEST_CASE("signing: a signing failure refuses the verdict and writes nothing") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];

  SECTION("a key file that does not exist") {
    UseKey(repo, {keys.path() + "/missing", ""});
    const auto before = repo.StoreBytes();
    RunResult approve = repo.Review(Approve(lineage, true));
    ExpectError(approve, 2, "usage");
    const Json error = approve.Json()["error"];
    CHECK(error["details"]["program"] == "ssh-keygen");
    CHECK(error["details"]["exit_code"] != "0");
    // ssh-keygen ends its lines with CR LF: the first line is kept without them.
    const std::string why = error["details"]["stderr"];
    INFO("stderr: " << Json(why).dump());
    CHECK(why.find_first_of("\r\n") == std::string::npos);
    CHECK(why.find(keys.path() + "/missing") != std::string::npos);
    const std::string ending = ": No such file or directory";
    CHECK(why.size() > ending.size());
    CHECK(why.compare(why.size() - ending.size(), ending.size(), ending) == 0);
    ExpectRefusal(repo, Approve(lineage, true), lineage,
                  "cannot sign the approval: ssh-keygen -Y sign exited " +
                      error["details"]["exit_code"].get<std::string>() + ": " + why);
    CHECK(repo.StoreBytes() == before);
  }
  SECTION("a signing program that fails") {
    UseKey(repo, key);
    repo.GitOk({"config", "gpg.ssh.program", "false"});
    const auto before = repo.StoreBytes();
    const std::vector<std::string> objects_before = LooseObjects(repo);
    RunResult approve = repo.Review(Approve(lineage, true));
    ExpectError(approve, 2, "usage");
    CHECK(approve.Json()["error"]["details"]["program"] == "false");
    CHECK(approve.Json()["error"]["details"]["exit_code"] == "1");
    CHECK(approve.Json()["error"]["details"]["stderr"] == "");
    // Nothing on its standard error: the message ends at the exit code.
    ExpectRefusal(repo, Approve(lineage, true), lineage,
                  "cannot sign the approval: false -Y sign exited 1");
    CHECK(repo.StoreBytes() == before);
    // Not one object was written for the refused approval.
    CHECK(LooseObjects(repo) == objects_before);
  }
  SECTION("a co-approval whose signing fails") {
    UseKey(repo, key);
    REQUIRE(repo.Review(Approve(lineage, false)).exit_code == 0);
    repo.GitOk({"config", "gpg.ssh.program", "false"});
    const auto before = repo.StoreBytes();
    ExpectRefusal(repo, Approve(lineage, true), lineage,
                  "cannot sign the approval: false -Y sign exited 1");
    CHECK(repo.StoreBytes() == before);
  }
  SECTION("gpg.format unset means openpgp, which is refused") {
    repo.GitOk({"config", "user.signingKey", key.file});
    const auto before = repo.StoreBytes();
    ExpectRefusal(repo, Approve(lineage, true), lineage,
                  "cannot sign the approval: gpg.format is unset (openpgp); only SSH signatures "
                  "are supported (git config gpg.format ssh)");
    CHECK(repo.StoreBytes() == before);
  }
  SECTION("no user.signingKey, by configuration instead of --sign") {
    repo.GitOk({"config", "gpg.format", "ssh"});
    repo.GitOk({"config", "gentle-ai.signApprovals", "true"});
    const auto before = repo.StoreBytes();
    ExpectRefusal(repo, Approve(lineage, false), lineage,
                  "cannot sign the approval: user.signingKey is unset (git config "
                  "user.signingKey <key file or key::<public key>>)");
    CHECK(repo.StoreBytes() == before);
  }
  SECTION("--sign on a verdict other than APPROVE") {
    UseKey(repo, key);
    const auto before = repo.StoreBytes();
    ExpectRefusal(repo,
                  {"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor",
                   "ana", "--role", "reviewer", "--body", "Fix it.", "--sign"},
                  lineage, "--sign signs approvals only (--verdict APPROVE)");
    CHECK(repo.StoreBytes() == before);
  }
  // The refusal left the lineage as it was: an unsigned approval succeeds and fsck is clean.
  repo.GitOk({"config", "gentle-ai.signApprovals", "false"});
  REQUIRE(repo.Review(Approve(lineage, false)).exit_code == 0);
  ExpectFsckClean(repo);
}

TEST_CASE(
    "signing: verify takes --require-signature with --allowed-signers and only for lineages") {
  TempDir keys;
  const Key key = MakeKey(keys, "ana");
  const std::string allowed = AllowedSigners(keys, {{"ana@example.com", key}});
  LifecycleRepo repo;
  UseKey(repo, key);
  const std::string lineage = repo.StartNew()["lineage"];
  ExpectError(repo.Review({"verify", "--lineage", lineage, "--require-signature"}), 2, "usage");
  ExpectError(repo.Review({"verify", "--lineage", lineage, "--allowed-signers", allowed}), 2,
              "usage");
  const std::string envelope = keys.path() + "/envelope.json";
  WriteFile(envelope, "{}");
  ExpectError(repo.Review({"verify", "--envelope", envelope, "--require-signature",
                           "--allowed-signers", allowed}),
              2, "usage");
  // A lineage that holds no approval has nothing to be signed.
  ExpectError(repo.Review(VerifySigned(lineage, allowed)), 6, "wrong_state");
  REQUIRE(repo.Review(Approve(lineage, true)).exit_code == 0);
  ExpectError(repo.Review(VerifySigned(lineage, keys.path() + "/absent")), 2, "usage");
  CHECK(repo.Review(VerifySigned(lineage, allowed)).exit_code == 0);
}

}  // namespace
}  // namespace gentle::testing
