// The JSON Schemas of docs/schema/ (docs/development.md) against real outputs: every verb is run
// through the CLI and its --json stdout kept (each success shape, and the error envelope of every
// code a run can be made to answer), then tests/tools/validate_json_schema.py validates the whole
// corpus with Debian's python3-jsonschema and must accept all of it. The corpus must reach every
// schema file and every reachable error code. The negative case proves the schemas bite: real
// outputs with a member removed, added, mistyped or given an unknown value are refused, each
// naming its file and the JSON path; so is a schema file that is no valid schema. The shared enums
// must be the code's own vocabularies.
#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <set>
#include <sstream>

#include "store/file_lock.h"
#include "store/finding.h"
#include "store/record.h"
#include "store/review_state.h"
#include "store/status.h"
#include "tests/support/fake_forge.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_env.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"
#include "transaction/applicability.h"
#include "transaction/next_action.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

const std::string kSchemaDir = std::string(GENTLE_SOURCE_DIR) + "/docs/schema";
const std::string kValidator =
    std::string(GENTLE_SOURCE_DIR) + "/tests/tools/validate_json_schema.py";
const std::string kGithub = std::string(GENTLE_FIXTURES_DIR) + "/forge/github/";
const std::string kAone = std::string(GENTLE_FIXTURES_DIR) + "/forge/aone/";
const std::string kPr = "github:acme/webapp#47";

// Schema files no output of the corpus has: the shared definitions (no document's schema).
const std::set<std::string> kNotInCorpus = {"common.v1.schema.json"};
// `internal` is a bug (an exception that reached the command line's edge): nothing provokes it.
const std::set<std::string> kUnreachableCodes = {"internal"};

// The names of `name(first..last)`; name(last + 1) must be "" (a NameTable's answer outside the
// table) or one of them (a switch's fallback), so an enumerator appended to the code and not to
// the schema fails here.
template <typename E>
std::set<std::string> Vocabulary(E last, std::string_view (*name)(E), int first = 0) {
  std::set<std::string> names;
  for (int i = first; i <= static_cast<int>(last); ++i) {
    names.emplace(name(static_cast<E>(i)));
  }
  const std::string past(name(static_cast<E>(static_cast<int>(last) + 1)));
  INFO("the name after the last enumerator: " << past);
  CHECK((past.empty() || names.count(past) == 1));
  return names;
}

std::set<std::string> AllCodeNames() {
  return Vocabulary(kLastCode, CodeName, static_cast<int>(Code::kInternal));
}

int ExitCodeOf(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(kLastCode); ++i) {
    if (CodeName(static_cast<Code>(i)) == name) return ExitCodeFor(static_cast<Code>(i));
  }
  FAIL("no code " << name);
  return -1;
}

// The instances of a corpus: each kept as a file of `dir` named after the order it was kept in.
class Corpus {
 public:
  const std::string& dir() const { return dir_.path(); }
  const std::set<std::string>& codes() const { return codes_; }

  // `run` exited `exit_code` (a read that reports a problem prints its document and exits 7).
  void Ok(const std::string& label, const RunResult& run, int exit_code = 0) {
    INFO(label << ": " << run.out << run.err);
    REQUIRE(run.exit_code == exit_code);
    Keep(label, run.out);
  }
  // `run` printed the error envelope of `code` and exited with the code's exit status.
  void Error(const std::string& label, const RunResult& run, const std::string& code) {
    INFO(label << ": " << run.out << run.err);
    CHECK(run.exit_code == ExitCodeOf(code));
    REQUIRE(run.Json()["error"]["code"] == code);
    codes_.insert(code);
    Keep(label, run.out);
  }

 private:
  void Keep(const std::string& label, const std::string& bytes) {
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%03d-", ++count_);
    WriteFile(dir_.path() + "/" + prefix + label + ".json", bytes);
  }

  TempDir dir_;
  std::set<std::string> codes_;
  int count_ = 0;
};

// The validator over `instances`; `schemas` gets the schema file of each valid instance.
RunResult Validate(const std::vector<std::string>& instances, std::set<std::string>* schemas) {
  std::vector<std::string> argv = {"/usr/bin/python3", kValidator, "--schemas", kSchemaDir};
  argv.insert(argv.end(), instances.begin(), instances.end());
  RunResult run = Run(argv);
  std::istringstream lines(run.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("ok ", 0) == 0) schemas->insert(line.substr(line.rfind(' ') + 1));
  }
  return run;
}

std::set<std::string> SchemaFiles() {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(kSchemaDir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 12 && name.substr(name.size() - 12) == ".schema.json") names.insert(name);
  }
  return names;
}

// gentle-ai review <args> --json in `cwd` (verbs that need no repository, or another one).
RunResult ReviewAt(const std::string& cwd, std::vector<std::string> args) {
  args.insert(args.begin(), "review");
  args.insert(args.end(), {"--cwd", cwd, "--json"});
  return GentleAi(args, cwd);
}

std::vector<std::string> Verdict(const std::string& lineage, const std::string& verdict,
                                 const std::string& role = "reviewer") {
  return {"verdict", "--lineage", lineage, "--verdict", verdict, "--actor",
          "ana",     "--role",    role,    "--body",    "Body."};
}

std::vector<std::string> With(std::vector<std::string> args, const std::string& flag) {
  args.push_back(flag);
  return args;
}

// Starts a lineage of the untracked file `file` (written with `content`), extra flags appended.
RunResult StartFile(const LifecycleRepo& repo, const std::string& file, const std::string& content,
                    const std::vector<std::string>& flags = {}) {
  repo.Write(file, content);
  std::vector<std::string> args = {"start", "--untracked", file};
  args.insert(args.end(), flags.begin(), flags.end());
  return repo.Review(args);
}

std::string LineageOf(const RunResult& run) {
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json()["lineage"];
}

// An ed25519 key made by ssh-keygen, set as the repository's SSH signing key; returns an allowed
// signers file naming it for ana@example.com.
std::string UseNewSigningKey(const LifecycleRepo& repo, const TempDir& keys) {
  const std::string key = keys.path() + "/ana";
  RunResult made = Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "ana", "-f", key});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  repo.GitOk({"config", "gpg.format", "ssh"});
  repo.GitOk({"config", "user.signingKey", key});
  const std::string allowed = keys.path() + "/allowed_signers";
  // The verdicts' actor is "ana": the key verifies as the principal that is the actor.
  WriteFile(allowed, "ana@example.com " + Trim(ReadFile(key + ".pub")) + "\nana " +
                         Trim(ReadFile(key + ".pub")) + "\n");
  return allowed;
}

// The forge side: context import of the three forges' fixtures and of a context whose carrier holds
// an unreadable marker, the ledgers (and the fail-closed refusal), hint parse.
void ForgeOutputs(const TempDir& tmp, Corpus* corpus) {
  const std::string cwd = tmp.path();
  corpus->Ok(
      "context-import-github",
      ReviewAt(cwd, {"context", "import", "--forge", "github", "--pr-view",
                     kGithub + "pr-view.json", "--issue-comments",
                     kGithub + "issue-comments-1.json", "--reviews", kGithub + "reviews-1.json",
                     "--review-comments", kGithub + "review-comments-1.json"}));
  corpus->Ok("context-import-aone",
             ReviewAt(cwd, {"context", "import", "--forge", "aone", "--mr-view",
                            kAone + "mr-view.json", "--comments", kAone + "comments.json",
                            "--resolved-comments", kAone + "resolved-comments.json"}));
  const std::string gitea = std::string(GENTLE_FIXTURES_DIR) + "/forge/gitea/";
  corpus->Ok("context-import-gitea",
             ReviewAt(cwd, {"context", "import", "--forge", "gitea", "--pr-view",
                            gitea + "pull.json", "--issue-comments",
                            gitea + "issue-comments-1.json", "--reviews", gitea + "reviews-1.json",
                            "--review-comments", gitea + "review-301-comments.json"}));
  WriteFile(cwd + "/view.json",
            R"({"title":"t","state":"opened","targetBranch":"m","sourceBranch":"s"})");
  // A reply whose marker does not parse, and a root comment with a loose APPROVE marker.
  WriteFile(
      cwd + "/notes.json",
      R"([{"id":7,"author":{"account":"review-bot"},"createdAt":"2026-11-20T18:00:00+08:00",)"
      R"("parentNoteId":6,"body":"summary\n<!-- gentle-ai:review lineage=Bad round=1 -->"},)"
      R"({"id":8,"author":{"account":"review-bot"},"createdAt":"2026-11-21T10:00:00.5Z",)"
      R"("body":"### Verdict: APPROVE\n\n<!-- gentle-ai:review lineage=review-8287d80a55c775b1 )"
      R"(round=1 revision=sha256:1111111111111111111111111111111111111111111111111111111111111111 -->"}])");
  RunResult unreadable = ReviewAt(cwd, {"context", "import", "--forge", "aone", "--mr-view",
                                        cwd + "/view.json", "--comments", cwd + "/notes.json"});
  corpus->Ok("context-import-offset-time", unreadable);
  WriteFile(cwd + "/unreadable.json", unreadable.out);

  const std::string github = kGithub + "expected-context.json";
  corpus->Ok("ledger-github", ReviewAt(cwd, {"ledger", "--context", github, "--me", "review-bot"}));
  corpus->Ok("ledger-aone", ReviewAt(cwd, {"ledger", "--context", kAone + "expected-context.json",
                                           "--me", "review-bot"}));
  corpus->Ok("ledger-unreadable", ReviewAt(cwd, {"ledger", "--context", cwd + "/unreadable.json",
                                                 "--me", "review-bot"}));
  corpus->Ok("ledger-login-unknown",
             ReviewAt(cwd, {"ledger", "--context", cwd + "/unreadable.json", "--me", ""}));
  corpus->Error("ledger-ambiguous", ReviewAt(cwd, {"ledger", "--context", github, "--me", ""}),
                "ambiguous");
  corpus->Ok("hint", ReviewAt(cwd, {"hint", "parse",
                                    "[pr-daemon] github:acme/webapp#47 reason=comments,ci "
                                    "skill=land updated=2026-08-19T15:42:03Z"}));
  corpus->Error("hint-usage", ReviewAt(cwd, {"hint", "parse", "[pr-daemon] nonsense"}), "usage");
}

// The seen ledger: all five verbs, a second baseline (conflict) and --force.
void SeenOutputs(const LifecycleRepo& repo, Corpus* corpus) {
  auto seen = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "seen");
    args.insert(args.begin() + 2, {"--pr", kPr});
    return repo.Review(args);
  };
  corpus->Ok("seen-baseline", seen({"baseline", "--id", "1001", "--id", "1002"}));
  corpus->Error("seen-baseline-again", seen({"baseline", "--id", "1003"}), "conflict");
  corpus->Ok("seen-baseline-forced", seen({"baseline", "--id", "1003", "--force"}));
  corpus->Ok("seen-add-posted", seen({"add", "--id", "1004", "--posted"}));
  corpus->Ok("seen-add", seen({"add", "--id", "1001", "--id", "1005"}));
  corpus->Ok("seen-check", seen({"check", "--id", "1001"}));
  corpus->Ok("seen-check-unseen", seen({"check", "--id", "9"}));
  corpus->Ok("seen-list", seen({"list"}));
  corpus->Ok("seen-new", seen({"new", "--context", kGithub + "expected-context.json"}));
}

// The PR daemon against a Gitea fake (a baseline cycle, then one with a hint and one with a
// forge that is down) and the PR state.
void WatchOutputs(const TempDir& tmp, Corpus* corpus) {
  LifecycleRepo repo;
  FakeForge forge(FakeForge::Kind::kGitea, tmp.path() + "/gitea");
  repo.GitOk({"remote", "add", "origin", forge.OriginUrl("acme", "webapp")});
  Json pr = {{"number", 47},
             {"state", "open"},
             {"draft", false},
             {"mergeable", true},
             {"head", {{"sha", std::string(40, 'a')}, {"ref", "nobody"}}},
             {"updated_at", "2026-12-01T09:00:00Z"}};
  auto world = [&](const Json& comments) {
    forge.SetWorld(
        {{"pulls", {{"acme/webapp#47", pr}}}, {"issue_comments", {{"acme/webapp#47", comments}}}});
  };
  auto watch = [&](const std::string& at) {
    Env env = forge.ClientEnv();
    env["GENTLE_FIXED_TIME"] = at;
    return GentleAi({"review", "watch", "--once", "--pr", "gitea:acme/webapp#47", "--cwd",
                     repo.root(), "--json"},
                    repo.root(), env);
  };
  world(Json::array());
  corpus->Ok("watch-baseline", watch("2026-12-02T10:00:00Z"));
  pr["updated_at"] = "2026-12-02T10:00:10Z";
  world(Json::array({{{"id", 5}, {"body", "hi"}}}));
  corpus->Ok("watch-hint", watch("2026-12-02T10:00:30Z"));
  forge.Stop();
  corpus->Ok("watch-forge-down", watch("2026-12-02T10:01:00Z"));
  corpus->Error("watch-usage", repo.Review({"watch", "--once", "--pr", "aone:acme/webapp#1"}),
                "usage");
  corpus->Error("pr-state-none", repo.Review({"pr-state", "show", "--pr", kPr}), "not_found");
  corpus->Ok("pr-state-set", repo.Review({"pr-state", "set", "--pr", kPr, "--phase", "fixing",
                                          "--round", "1", "--asked", "rename x\nadd a test"}));
  corpus->Ok("pr-state-show", repo.Review({"pr-state", "set", "--pr", kPr, "--head-sha",
                                           std::string(40, 'c'), "--blocked-on", "CI"}));
  // review post on the same fake: posted, then the recorded id again.
  forge.Start();
  world(Json::array());
  const std::string lineage = repo.StartNew()["lineage"];
  repo.ReviewOk({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "ana",
                 "--role", "reviewer", "--body", "ok"});
  const std::vector<std::string> post = {"post", "--lineage", lineage, "--pr",
                                         "gitea:acme/webapp#47"};
  corpus->Ok("post", repo.Review(post, forge.ClientEnv()));
  corpus->Ok("post-again", repo.Review(post, forge.ClientEnv()));
}

// Edits the `state` of a record file and writes it back re-sealed (a new revision).
void RewriteRecord(const std::string& path,
                   const std::function<void(nlohmann::ordered_json&)>& edit) {
  nlohmann::ordered_json state = nlohmann::ordered_json::parse(ReadFile(path))["state"];
  edit(state);
  std::string revision;
  WriteFile(path, store::EncodeRecordFile(state, &revision));
}

// One lineage through two rounds: start (twice), status, exports of each round and the interdiff,
// REQUEST_CHANGES with its comment read back, revise, a signed APPROVE, verify of the lineage
// (plain and signed) and of its envelopes (the current round, --round of it, a tampered one),
// attest.
std::string RoundsOutputs(const LifecycleRepo& repo, const TempDir& tmp, const std::string& allowed,
                          Corpus* corpus) {
  RunResult started = StartFile(repo, "rounds.txt", "one\n");
  corpus->Ok("start", started);
  const std::string l = LineageOf(started);
  corpus->Ok("start-again", repo.Review({"start", "--untracked", "rounds.txt"}));
  corpus->Ok("fsck-clean", repo.Review({"fsck"}));
  corpus->Ok("status-lineage", repo.Review({"status", "--lineage", l}));
  corpus->Ok("export", repo.Review({"export-context", "--lineage", l}));
  corpus->Ok("verdict-request-changes", repo.Review(Verdict(l, "REQUEST_CHANGES")));
  corpus->Ok("status-waiting", repo.Review({"status", "--lineage", l}));
  RunResult comment = repo.Review(
      {"comment", "--lineage", l, "--model", "gpt-4.1", "--session", "9f3c2a1b77"}, {}, false);
  REQUIRE(comment.exit_code == 0);
  WriteFile(tmp.path() + "/comment.md", comment.out);
  corpus->Ok("parse-comment", ReviewAt(tmp.path(), {"parse-comment", tmp.path() + "/comment.md"}));

  repo.Write("rounds.txt", "two\n");
  corpus->Ok("revise", repo.Review({"revise", "--lineage", l}));
  corpus->Ok("export-round-1", repo.Review({"export-context", "--lineage", l, "--round", "1"}));
  corpus->Ok("export-since-round-1",
             repo.Review({"export-context", "--lineage", l, "--since-round", "1"}));
  corpus->Ok("export-view-review",
             repo.Review({"export-context", "--lineage", l, "--view", "review"}));
  corpus->Ok("export-view-full-part",
             repo.Review({"export-context", "--lineage", l, "--max-bytes", "4096", "--part", "1"}));
  corpus->Ok("export-since-round-1-view",
             repo.Review({"export-context", "--lineage", l, "--since-round", "1", "--view",
                          "review", "--max-bytes", "4096"}));
  corpus->Ok("verdict-approve-signed", repo.Review(With(Verdict(l, "APPROVE"), "--sign")));
  corpus->Ok("verify-lineage", repo.Review({"verify", "--lineage", l}));
  corpus->Ok("verify-signed", repo.Review({"verify", "--lineage", l, "--require-signature",
                                           "--allowed-signers", allowed}));
  corpus->Ok("verify-signed-commits",
             repo.Review({"verify", "--lineage", l, "--require-signature", "--allowed-signers",
                          allowed, "--base-ref", "HEAD", "--require-signed-commits"}));
  corpus->Error("verify-not-reviewed", repo.Review({"verify", "--lineage", l, "--against", "HEAD"}),
                "not_reviewed");
  corpus->Ok("attest", repo.Review({"attest", "--lineage", l}));
  corpus->Ok("show", repo.Review({"show", "--lineage", l}));
  corpus->Ok("show-round-1", repo.Review({"show", "--lineage", l, "--round", "1"}));

  RunResult envelope = repo.Review({"export-context", "--lineage", l});
  corpus->Ok("export-approved", envelope);
  RunResult round_envelope = repo.Review({"export-context", "--lineage", l, "--round", "2"});
  corpus->Ok("export-round-2", round_envelope);
  Json tampered = Json::parse(envelope.out);
  tampered["candidate_diff"]["sha256"] = "sha256:" + std::string(64, '0');
  const std::string dir = tmp.path() + "/";
  WriteFile(dir + "envelope.json", envelope.out);
  WriteFile(dir + "round-envelope.json", round_envelope.out);
  WriteFile(dir + "tampered.json", tampered.dump());
  corpus->Ok("verify-envelope", repo.Review({"verify", "--envelope", dir + "envelope.json"}));
  corpus->Ok("verify-round-envelope",
             repo.Review({"verify", "--envelope", dir + "round-envelope.json"}));
  corpus->Error("verify-tampered", repo.Review({"verify", "--envelope", dir + "tampered.json"}),
                "integrity_mismatch");
  return l;
}

// The other lifecycle verbs and their refusals: an unsigned approval (untrusted), burned
// (consumed), abandoned (retired), invalidated (wrong_state), a round bound to a review context
// (a docs verdict and its comment; a role that may not decide), a round marked
// context-unavailable. Returns the invalidated lineage.
std::string LifecycleOutputs(const LifecycleRepo& repo, const TempDir& tmp,
                             const std::string& allowed, Corpus* corpus) {
  const std::string burned = LineageOf(StartFile(repo, "burned.txt", "burned\n"));
  RunResult approved = repo.Review(Verdict(burned, "APPROVE"));
  corpus->Ok("verdict-approve", approved);
  corpus->Error("verify-unsigned",
                repo.Review({"verify", "--lineage", burned, "--require-signature",
                             "--allowed-signers", allowed}),
                "untrusted");
  const std::string token = approved.Json()["token"], revision = approved.Json()["revision"];
  corpus->Ok("burn", repo.Review({"burn", "--lineage", burned, "--token", token,
                                  "--expected-revision", revision}));
  corpus->Error("export-consumed", repo.Review({"export-context", "--lineage", burned}),
                "consumed");
  corpus->Ok("export-consumed-round",
             repo.Review({"export-context", "--lineage", burned, "--round", "1"}));
  corpus->Ok("attest-consumed", repo.Review({"attest", "--lineage", burned}));
  corpus->Ok("show-consumed", repo.Review({"show", "--lineage", burned}));

  const std::string abandoned = LineageOf(StartFile(repo, "abandoned.txt", "abandoned\n"));
  corpus->Ok("abandon", repo.Review({"abandon", "--lineage", abandoned, "--reason",
                                     "operator_disposition", "--actor", "ops"}));
  corpus->Error("export-retired", repo.Review({"export-context", "--lineage", abandoned}),
                "retired");

  const std::string invalidated = LineageOf(StartFile(repo, "invalidated.txt", "invalidated\n"));
  corpus->Ok("invalidate", repo.Review({"invalidate", "--lineage", invalidated, "--reason",
                                        "withdrawn", "--actor", "ops"}));
  corpus->Error("verdict-wrong-state", repo.Review(Verdict(invalidated, "APPROVE")), "wrong_state");

  RunResult bound =
      StartFile(repo, "bound.txt", "bound\n", {"--context", kGithub + "expected-context.json"});
  corpus->Ok("start-context", bound);
  const std::string b = LineageOf(bound);
  corpus->Ok("export-context-bound", repo.Review({"export-context", "--lineage", b}));
  corpus->Error("verdict-forbidden", repo.Review(Verdict(b, "APPROVE", "author")), "forbidden");
  corpus->Ok("verdict-docs", repo.Review(Verdict(b, "FIXED", "docs-reviewer")));
  RunResult docs = repo.Review({"comment", "--lineage", b}, {}, false);
  REQUIRE(docs.exit_code == 0);
  WriteFile(tmp.path() + "/docs-comment.md", docs.out);
  corpus->Ok("parse-comment-docs",
             ReviewAt(tmp.path(), {"parse-comment", tmp.path() + "/docs-comment.md"}));

  RunResult unread =
      StartFile(repo, "unread.txt", "unread\n", {"--context-unavailable", "gh: HTTP 502"});
  corpus->Ok("start-context-unavailable", unread);
  corpus->Error("verdict-context-unavailable", repo.Review(Verdict(LineageOf(unread), "APPROVE")),
                "context_unavailable");
  return invalidated;
}

// The store as a whole: status and list over every kind of entry (an incomplete one included),
// fsck with a finding, reclaim, repair of a lost history ref, index rebuild, and the refusals of
// the store's guards (an incomplete entry, an unknown lineage, a bad flag, the batch marker, a
// held lock).
void StoreOutputs(const LifecycleRepo& repo, const std::string& invalidated, Corpus* corpus) {
  const std::string incomplete = "review-00000000deadbeef";
  fs::create_directories(repo.store_root() + "/v2/" + incomplete);
  WriteFile(repo.store_root() + "/v2/" + incomplete + "/.atomic-abc123", "partial");
  corpus->Ok("status", repo.Review({"status"}));
  corpus->Ok("list", repo.Review({"list"}));
  corpus->Ok("fsck-findings", repo.Review({"fsck"}), ExitCodeOf("corrupted"));
  corpus->Error("status-corrupted", repo.Review({"status", "--lineage", incomplete}), "corrupted");
  corpus->Ok("reclaim", repo.Review({"reclaim", "--lineage", incomplete, "--reason",
                                     "crash residue", "--actor", "ops"}));
  corpus->Error("status-not-found", repo.Review({"status", "--lineage", "review-0123456789abcdef"}),
                "not_found");
  corpus->Error("usage", repo.Review({"status", "--no-such-flag"}), "usage");

  repo.GitOk({"update-ref", "-d", ReviewRef(invalidated)});
  corpus->Ok("repair", repo.Review({"repair"}));
  corpus->Ok("repair-nothing", repo.Review({"repair"}));
  corpus->Ok("index-rebuild", repo.Review({"index", "rebuild"}));

  const std::string marker = repo.store_root() + "/batch-reconcile-journal.json";
  WriteFile(marker, "{}");
  corpus->Error("export-reconciliation-prepared",
                repo.Review({"export-context", "--lineage", invalidated}),
                "reconciliation_prepared");
  REQUIRE(fs::remove(marker));

  auto held =
      store::FileLock::Acquire(repo.store_root() + "/v2/LOCK", store::LockMode::kExclusive, true);
  REQUIRE(held.ok());
  repo.Write("busy.txt", "busy\n");
  corpus->Error(
      "start-busy",
      repo.Review({"start", "--untracked", "busy.txt"}, {{"GENTLE_LOCK_TIMEOUT_MS", "50"}}),
      "busy");
}

// Sharing: push to a bare origin (twice), then a fresh clone fetches, reads the fetched-only
// lineage `lineage` (list, status, export, verify: `source`) and imports it (twice), and fetches
// a forged history from a second remote.
void SharingOutputs(const LifecycleRepo& repo, const TempDir& tmp, const std::string& lineage,
                    Corpus* corpus) {
  const std::string origin = tmp.path() + "/origin.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", origin}, "", GitEnv()).exit_code == 0);
  repo.GitOk({"remote", "add", "origin", "file://" + origin});
  repo.GitOk({"push", "-q", "origin", "HEAD:refs/heads/main"});
  // Only `lineage`: the store's other histories include one whose ref was repaired with a root
  // `sync` commit, which a clone refuses to read (store/history_replay.h).
  corpus->Ok("push", repo.Review({"push", "--lineage", lineage}));
  corpus->Ok("push-up-to-date", repo.Review({"push", "--lineage", lineage}));
  const std::string clone = tmp.path() + "/clone";
  REQUIRE(Run({"git", "clone", "-q", "-b", "main", "file://" + origin, clone}, "", GitEnv())
              .exit_code == 0);
  corpus->Ok("fetch", ReviewAt(clone, {"fetch"}));
  corpus->Ok("list-fetched", ReviewAt(clone, {"list"}));
  corpus->Ok("status-fetched", ReviewAt(clone, {"status", "--lineage", lineage}));
  corpus->Ok("export-fetched", ReviewAt(clone, {"export-context", "--lineage", lineage}));
  corpus->Ok("verify-fetched", ReviewAt(clone, {"verify", "--lineage", lineage}));
  corpus->Ok("show-fetched", ReviewAt(clone, {"show", "--lineage", lineage}));
  corpus->Ok("import", ReviewAt(clone, {"import", "--lineage", lineage}));
  corpus->Ok("import-up-to-date", ReviewAt(clone, {"import", "--lineage", lineage}));

  // A remote whose history ref names a plain commit: fetched, listed as not verified.
  const std::string forged = tmp.path() + "/forged.git";
  REQUIRE(Run({"git", "init", "-q", "--bare", forged}, "", GitEnv()).exit_code == 0);
  repo.GitOk({"push", "-q", forged, "HEAD:" + ReviewRef("review-0123456789abcdef")});
  REQUIRE(Run({"git", "-C", clone, "remote", "add", "forged", "file://" + forged}, "", GitEnv())
              .exit_code == 0);
  corpus->Ok("fetch-not-verified", ReviewAt(clone, {"fetch", "--remote", "forged"}));
}

// What only a damaged or oversized store answers, in a repository of its own: a
// historical-compat record (read_only), a missing blob (objects_missing), a patch over 4 MiB
// (budget_exceeded).
void DamageOutputs(Corpus* corpus) {
  LifecycleRepo repo;
  const std::string compat = LineageOf(StartFile(repo, "compat.txt", "compat\n"));
  RewriteRecord(repo.record_path(compat), [](nlohmann::ordered_json& state) {
    state["lens_results"] = nlohmann::ordered_json::array({{{"lens", "review-risk"}}});
  });
  corpus->Error("export-read-only", repo.Review({"export-context", "--lineage", compat}),
                "read_only");

  const std::string gone = LineageOf(StartFile(repo, "gone.txt", "only in this lineage\n"));
  const std::string tree = repo.RecordState(gone)["initial_snapshot"]["candidate_tree"];
  const std::string blob = Trim(repo.GitOk({"rev-parse", tree + ":gone.txt"}));
  REQUIRE(fs::remove(LooseObjectPath(repo.common_dir(), blob)));
  corpus->Error("export-objects-missing", repo.Review({"export-context", "--lineage", gone}),
                "objects_missing");

  std::string large;
  while (large.size() <= (size_t{4} << 20)) large += "a line of a file too large to export\n";
  repo.Write("large.txt", large);
  corpus->Error("start-budget-exceeded", repo.Review({"start", "--untracked", "large.txt"}),
                "budget_exceeded");
  corpus->Ok("status-budget-exceeded", repo.Review({"status", "--untracked", "large.txt"}));
  RunResult admitted =
      repo.Review({"start", "--untracked", "large.txt"}, {{"GENTLE_ADMIT_OVERSIZE", "1"}});
  const std::string big = LineageOf(admitted);
  corpus->Error("export-budget-exceeded", repo.Review({"export-context", "--lineage", big}),
                "budget_exceeded");
  corpus->Ok("show-budget-exceeded", repo.Review({"show", "--lineage", big}));
}

// verify --allow-trivial-rebase (docs/ci.md, "Rebased changes"), in a repository of its own: an
// exact match, a feature commit cherry-picked onto a base one line longer, and a changed hunk.
void RebaseOutputs(Corpus* corpus) {
  LifecycleRepo repo;
  std::string rows;
  for (int i = 1; i <= 20; ++i) rows += "row " + std::to_string(i) + "\n";
  std::string changed = rows;
  changed.replace(changed.find("row 10\n"), 7, "row ten\n");
  repo.Write("rows.txt", rows);
  repo.GitOk({"add", "rows.txt"});
  repo.GitOk({"commit", "-q", "-m", "rows"});
  repo.GitOk({"branch", "base"});
  repo.GitOk({"checkout", "-q", "-b", "feature"});
  repo.Write("rows.txt", changed);
  repo.GitOk({"commit", "-q", "-am", "feature"});
  const std::string l = LineageOf(
      repo.Review({"start", "--kind", "commit-range", "--base", "base", "--head", "feature"}));
  REQUIRE(repo.Review(Verdict(l, "APPROVE")).exit_code == 0);
  repo.GitOk({"checkout", "-q", "-b", "upstream", "base"});
  repo.Write("rows.txt", "row 0\n" + rows);
  repo.GitOk({"commit", "-q", "-am", "upstream"});
  repo.GitOk({"checkout", "-q", "-b", "picked"});
  repo.GitOk({"cherry-pick", "feature"});
  auto verify = [&](const std::string& against, const std::string& base_ref) {
    return repo.Review({"verify", "--lineage", l, "--against", against, "--base-ref", base_ref,
                        "--allow-trivial-rebase"});
  };
  corpus->Ok("verify-match-exact", verify("feature", "base"));
  corpus->Ok("verify-trivial-rebase", verify("HEAD", "upstream"));
  repo.Write("rows.txt", "row 0\n" + rows.substr(0, rows.find("row 10\n")) + "row 10!\n" +
                             rows.substr(rows.find("row 11\n")));
  repo.GitOk({"commit", "-q", "-am", "another hunk"});
  corpus->Error("verify-not-trivial-rebase", verify("HEAD", "upstream"), "not_reviewed");
}

}  // namespace

TEST_CASE("json schemas: every verb's output and every reachable error code validate") {
  TempDir tmp;
  Corpus corpus;
  ForgeOutputs(tmp, &corpus);
  LifecycleRepo repo;
  SeenOutputs(repo, &corpus);
  WatchOutputs(tmp, &corpus);
  const std::string allowed = UseNewSigningKey(repo, tmp);
  const std::string rounds = RoundsOutputs(repo, tmp, allowed, &corpus);
  const std::string invalidated = LifecycleOutputs(repo, tmp, allowed, &corpus);
  StoreOutputs(repo, invalidated, &corpus);
  SharingOutputs(repo, tmp, rounds, &corpus);
  DamageOutputs(&corpus);
  RebaseOutputs(&corpus);
  corpus.Ok("store-reset-plan", repo.Review({"store", "reset"}));
  corpus.Ok("store-reset", repo.Review({"store", "reset", "--yes"}));
  corpus.Ok("version", GentleAi({"version", "--json"}, tmp.path()));
  corpus.Error("version-usage", GentleAi({"version", "--json", "--bogus"}, tmp.path()), "usage");

  std::set<std::string> validated;
  RunResult run = Validate({corpus.dir()}, &validated);
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);

  std::set<std::string> expected = SchemaFiles();
  for (const std::string& name : kNotInCorpus) CHECK(expected.erase(name) == 1);
  CHECK(validated == expected);
  std::set<std::string> codes = AllCodeNames();
  for (const std::string& code : kUnreachableCodes) CHECK(codes.erase(code) == 1);
  CHECK(corpus.codes() == codes);
}

TEST_CASE("json schemas: a removed - added - mistyped or unknown member is refused by name") {
  TempDir dir;
  LifecycleRepo repo;
  const Json start = repo.StartNew();
  const Json status = repo.ReviewOk({"status"});
  const Json error = repo.Review({"status", "--lineage", "review-0123456789abcdef"}).Json();
  const Json hint = ReviewAt(dir.path(), {"hint", "parse",
                                          "[pr-daemon] github:acme/webapp#47 reason=ci "
                                          "skill=review-pr updated=2026-08-19T15:42:03Z"})
                        .Json();
  auto edit = [](Json doc, const std::function<void(Json&)>& change) {
    change(doc);
    return doc;
  };
  struct Case {
    std::string name;
    Json document;
    std::string failure;  // the JSON path and the start of the reason
  };
  const std::vector<Case> cases = {
      {"removed", edit(start, [](Json& j) { j.erase("created"); }),
       "$: 'created' is a required property"},
      {"added", edit(start, [](Json& j) { j["reviewer"] = "ana"; }),
       "$: Additional properties are not allowed ('reviewer' was unexpected)"},
      {"mistyped", edit(start, [](Json& j) { j["changed_path_count"] = "1"; }),
       "$.changed_path_count: '1' is not of type 'integer'"},
      {"unknown-state", edit(start, [](Json& j) { j["state"] = "pending"; }),
       "$.state: 'pending' is not one of"},
      {"bad-digest", edit(start, [](Json& j) { j["revision"] = "sha256:XYZ"; }),
       "$.revision: 'sha256:XYZ' does not match"},
      {"unknown-next", edit(status, [](Json& j) { j["lineages"][0]["next"] = "wait"; }),
       "$.lineages[0].next: 'wait' is not one of"},
      {"unknown-code", edit(error, [](Json& j) { j["error"]["code"] = "oops"; }),
       "$.error.code: 'oops' is not one of"},
      {"impossible-time", edit(hint, [](Json& j) { j["updated"] = "2026-02-30T15:42:03Z"; }),
       "$.updated: '2026-02-30T15:42:03Z' is not a 'date-time'"},
      {"unknown-schema", edit(hint, [](Json& j) { j["schema"] = "gentle-ai.review-nope/v1"; }),
       "$.schema: no schema file review-nope.v1.schema.json"},
  };
  const std::string valid = dir.path() + "/valid.json";
  WriteFile(valid, start.dump());
  for (const Case& c : cases) WriteFile(dir.path() + "/bad/" + c.name + ".json", c.document.dump());

  std::set<std::string> validated;
  RunResult run = Validate({valid, dir.path() + "/bad"}, &validated);
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(validated == std::set<std::string>{"review-start.v1.schema.json"});
  for (const Case& c : cases) {
    CHECK(run.err.find("FAIL " + dir.path() + "/bad/" + c.name + ".json: " + c.failure) !=
          std::string::npos);
  }
  size_t failures = 0;
  for (size_t at = run.err.find("FAIL "); at != std::string::npos;
       at = run.err.find("FAIL ", at + 1)) {
    ++failures;
  }
  CHECK(failures == cases.size());
}

TEST_CASE("json schemas: a schema file that is not a valid schema is refused by name") {
  TempDir dir;
  const std::string schemas = dir.path() + "/schema";
  fs::copy(kSchemaDir, schemas);
  const std::string broken = schemas + "/review-hint.v1.schema.json";
  Json hint = Json::parse(ReadFile(broken));
  hint["properties"]["number"]["type"] = "count";
  WriteFile(broken, hint.dump());
  RunResult run = Run({"/usr/bin/python3", kValidator, "--schemas", schemas});
  INFO(run.out << run.err);
  CHECK(run.exit_code == 1);
  CHECK(run.err.rfind("FAIL " + broken + ": $.properties.number.type: not a valid schema: ", 0) ==
        0);
}

TEST_CASE("json schemas: the shared enums are the code's vocabularies") {
  const Json defs = Json::parse(ReadFile(kSchemaDir + "/common.v1.schema.json"))["$defs"];
  auto listed = [&](const char* name) { return defs[name]["enum"].get<std::set<std::string>>(); };
  CHECK(listed("code") == AllCodeNames());
  CHECK(listed("finding") ==
        Vocabulary(store::FindingCode::kLoopInterrupted, store::FindingCodeName));
  CHECK(listed("state") ==
        Vocabulary(store::ReviewState::kDecisionRequired, store::ReviewStateName));
  CHECK(listed("next") == Vocabulary(transaction::NextAction::kPost, transaction::NextActionName));
  CHECK(listed("next_reason") ==
        Vocabulary(transaction::NextReason::kNothingToReview, transaction::NextReasonName));
  CHECK(listed("applicability") ==
        Vocabulary(transaction::Applicability::kIncomplete, transaction::ApplicabilityName));
}

}  // namespace gentle::testing
