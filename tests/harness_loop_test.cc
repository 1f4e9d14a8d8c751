// A harness that follows only `status --json`'s `next` (docs/loop.md, "Following next"): a small
// interpreter reads next, performs the action it names with generic arguments (the lineage is
// the entry whose next it is; the selector flags are the ones status was asked with; burn's token
// is the one the APPROVE gave), and loops until next is none. Every scenario is one row of the
// table below: how the repository is prepared, the selector, the verdicts the reviewer gives, what
// the author does after each REQUEST_CHANGES, and the actions and final reason expected. The test
// fails when a next leads to a refusal, when status writes anything, or when the loop does not
// end (a next that repeats forever).
#include <catch2/catch.hpp>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// A file whose added diff passes the 4 MiB budget.
std::string Oversize() {
  std::string text;
  while (text.size() <= (size_t{4} << 20)) text += "one line of a file too large to review\n";
  return text;
}

// The repository a scenario runs in, and where the harness runs.
struct World {
  LifecycleRepo repo;
  std::unique_ptr<LifecycleRepo> clone;  // a clone of `repo`, when the harness runs there
  std::string cwd;     // the harness's worktree: the repository's, a linked one, or the clone's
  std::string common;  // the common dir of cwd's repository, which status must leave unchanged
  Env env;             // for the commands the harness runs

  World() : cwd(repo.root()), common(repo.common_dir()) {}

  // A linked worktree `name` beside the repository, on a branch of its own.
  std::string Linked(const std::string& name) const {
    const std::string path = repo.root() + "/../" + name;
    repo.GitOk({"worktree", "add", "-q", path, "-b", name});
    return path;
  }
  RunResult Review(const std::vector<std::string>& args, const std::string& where) const {
    std::vector<std::string> full = {"review"};
    full.insert(full.end(), args.begin(), args.end());
    full.push_back("--json");
    return GentleAi(full, where, env);
  }
  Json Ok(const std::vector<std::string>& args, const std::string& where) const {
    RunResult r = Review(args, where);
    INFO(Json(args).dump() << " in " << where << " -> " << r.exit_code << "\n" << r.out << r.err);
    REQUIRE(r.exit_code == 0);
    return r.Json();
  }
  Json Ok(const std::vector<std::string>& args) const { return Ok(args, cwd); }
  void Commit(const std::string& file, const std::string& content, const std::string& where) const {
    WriteFile(where + "/" + file, content);
    GitRun(where, {"add", file});
    GitRun(where, {"commit", "-q", "-m", "change " + file});
  }
};

struct Scenario {
  const char* name;
  std::function<void(World&)> setup;
  std::vector<std::string> selector;  // start's selector flags, given to status and to start
  std::vector<std::string> verdicts;  // the reviewer's verdicts, in the order given
  // After the n-th REQUEST_CHANGES (1-based): the author's change; none: the author does nothing.
  std::function<void(World&, int)> author;
  const char* actions;       // the actions performed, space-separated
  const char* final_reason;  // next_reason of the status that said none
};

Json Verdict(const World& w, const std::string& lineage, const std::string& verdict) {
  return w.Ok({"verdict", "--lineage", lineage, "--verdict", verdict, "--actor", "ana", "--role",
               "reviewer", "--body", "Reviewed by the loop.\n"});
}

// The one entry whose next is the status's own (the lineage the action is for).
Json ActedOn(const Json& status) {
  std::vector<Json> found;
  for (const Json& entry : status["lineages"]) {
    if (entry["next"] == status["next"] && entry["next_reason"] == status["next_reason"]) {
      found.push_back(entry);
    }
  }
  INFO(status.dump());
  REQUIRE(found.size() == 1);
  return found.front();
}

std::string Join(const std::vector<std::string>& words) {
  std::ostringstream out;
  for (size_t i = 0; i < words.size(); ++i) out << (i ? " " : "") << words[i];
  return out.str();
}

// The interpreter: follows next until none; returns the actions performed and the final status.
std::pair<std::string, Json> FollowNext(World& w, const Scenario& s) {
  std::vector<std::string> actions;
  std::map<std::string, std::string> tokens;  // lineage -> APPROVE's token
  size_t verdict_at = 0;
  int sent_back = 0;
  for (int step = 0; step < 24; ++step) {
    std::vector<std::string> ask = {"status"};
    ask.insert(ask.end(), s.selector.begin(), s.selector.end());
    const auto before = HashTree(w.common);
    const Json status = w.Ok(ask);
    CHECK(HashTree(w.common) == before);  // status writes nothing
    REQUIRE(status.contains("next_reason"));
    const std::string next = status["next"];
    if (next == "none") return {Join(actions), status};
    actions.push_back(next);
    if (next == "start") {
      std::vector<std::string> start = {"start"};
      start.insert(start.end(), s.selector.begin(), s.selector.end());
      w.Ok(start);
      continue;
    }
    const Json entry = ActedOn(status);
    const std::string lineage = entry["lineage"];
    if (next == "export") {
      const Json envelope = w.Ok({"export-context", "--lineage", lineage});
      REQUIRE(envelope["next"] == "verdict");
      REQUIRE(verdict_at < s.verdicts.size());
      const std::string verdict = s.verdicts[verdict_at++];
      actions.push_back("verdict:" + verdict);
      const Json given = Verdict(w, lineage, verdict);
      if (verdict == "APPROVE") tokens[lineage] = given["token"];
      if (verdict == "REQUEST_CHANGES" && s.author) s.author(w, ++sent_back);
    } else if (next == "revise") {
      w.Ok({"revise", "--lineage", lineage});
    } else if (next == "burn") {
      REQUIRE(tokens.count(lineage) == 1);
      w.Ok({"burn", "--lineage", lineage, "--token", tokens[lineage], "--expected-revision",
            entry["revision"]});
    } else {
      FAIL("the loop has no generic action for next " << next << ": " << status.dump());
    }
  }
  FAIL("next did not reach none in 24 steps: " << Join(actions));
  return {};
}

// Setups and authors shared by rows.
void Edit(World& w) { w.repo.Write("a.txt", "the author's change\n"); }
void EditAgain(World& w, int round) {
  w.repo.Write("a.txt", "the author's fix number " + std::to_string(round) + "\n");
}
void PrBranch(World& w) {
  w.repo.GitOk({"checkout", "-q", "-b", "pr"});
  w.Commit("feature.txt", "a feature\n", w.repo.root());
  w.repo.GitOk({"checkout", "-q", "main"});
}
void PushToPr(World& w, int round) {
  w.repo.GitOk({"checkout", "-q", "pr"});
  w.Commit("feature.txt", "a feature, fixed " + std::to_string(round) + " times\n", w.repo.root());
  w.repo.GitOk({"checkout", "-q", "main"});
}
const std::vector<std::string> kPr = {"--kind", "commit-range", "--base", "main", "--head", "pr"};

// A lineage of the repository's own worktree sent back on `content`, then the harness moved to
// a linked worktree with `linked_content` in a.txt (empty: left clean).
void SentBackElsewhere(World& w, const std::string& content, const std::string& linked_content) {
  const std::string linked = w.Linked("linked");
  w.repo.Write("a.txt", content);
  const std::string lineage = w.Ok({"start"}, w.repo.root())["lineage"];
  w.Ok({"verdict", "--lineage", lineage, "--verdict", "REQUEST_CHANGES", "--actor", "ana", "--role",
        "reviewer", "--body", "Not yet.\n"},
       w.repo.root());
  w.repo.Write("a.txt", content + "and the author's change there\n");
  if (!linked_content.empty()) WriteFile(linked + "/a.txt", linked_content);
  w.cwd = linked;
}

std::vector<Scenario> Scenarios() {
  return {
      {"a change approved and burned",
       Edit,
       {},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a clean worktree", nullptr, {}, {}, nullptr, "", "clean"},
      {"sent back, fixed, approved",
       Edit,
       {},
       {"REQUEST_CHANGES", "APPROVE"},
       EditAgain,
       "start export verdict:REQUEST_CHANGES revise export verdict:APPROVE burn",
       "candidate_burned"},
      {"sent back twice",
       Edit,
       {},
       {"REQUEST_CHANGES", "REQUEST_CHANGES", "APPROVE"},
       EditAgain,
       "start export verdict:REQUEST_CHANGES revise export verdict:REQUEST_CHANGES revise export "
       "verdict:APPROVE burn",
       "candidate_burned"},
      {"sent back, the author has not changed it",
       Edit,
       {},
       {"REQUEST_CHANGES"},
       nullptr,
       "start export verdict:REQUEST_CHANGES",
       "waiting_for_author"},
      {"needs discussion",
       Edit,
       {},
       {"NEEDS_DISCUSSION"},
       nullptr,
       "start export verdict:NEEDS_DISCUSSION",
       "escalated"},
      {"a PR as a commit range",
       PrBranch,
       kPr,
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a PR sent back and pushed to",
       PrBranch,
       kPr,
       {"REQUEST_CHANGES", "APPROVE"},
       PushToPr,
       "start export verdict:REQUEST_CHANGES revise export verdict:APPROVE burn",
       "candidate_burned"},
      {"a PR sent back, nothing pushed",
       PrBranch,
       kPr,
       {"REQUEST_CHANGES"},
       nullptr,
       "start export verdict:REQUEST_CHANGES",
       "waiting_for_author"},
      {"an oversize change is never started",
       [](World& w) { w.repo.Write("big.txt", Oversize()); },
       {"--untracked", "big.txt"},
       {},
       nullptr,
       "",
       "budget_exceeded"},
      {"an oversize PR is never started",
       [](World& w) {
         w.repo.GitOk({"checkout", "-q", "-b", "pr"});
         w.Commit("big.txt", Oversize(), w.repo.root());
         w.repo.GitOk({"checkout", "-q", "main"});
       },
       kPr,
       {},
       nullptr,
       "",
       "budget_exceeded"},
      {"a fix that makes the candidate oversize is not revised",
       Edit,
       {},
       {"REQUEST_CHANGES"},
       [](World& w, int) { w.repo.Write("a.txt", Oversize()); },
       "start export verdict:REQUEST_CHANGES",
       "budget_exceeded"},
      {"a lineage from before the budget check is not exported",
       [](World& w) {
         w.repo.Write("big.txt", Oversize());
         RunResult r = GentleAi({"review", "start", "--json", "--untracked", "big.txt"},
                                w.repo.root(), {{"GENTLE_ADMIT_OVERSIZE", "1"}});
         REQUIRE(r.exit_code == 0);
       },
       {"--untracked", "big.txt"},
       {},
       nullptr,
       "",
       "budget_exceeded"},
      {"the staged selector",
       [](World& w) {
         Edit(w);
         w.repo.GitOk({"add", "a.txt"});
       },
       {"--staged"},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"an untracked file",
       [](World& w) { w.repo.Write("new.txt", "new\n"); },
       {"--untracked", "new.txt"},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a base-diff selector",
       [](World& w) {
         w.repo.GitOk({"checkout", "-q", "-b", "topic"});
         w.Commit("topic.txt", "topic\n", w.repo.root());
         Edit(w);
       },
       {"--kind", "base-diff", "--base", "main"},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"an invalidated lineage holds the candidate",
       [](World& w) {
         Edit(w);
         const std::string lineage = w.Ok({"start"})["lineage"];
         w.Ok({"invalidate", "--lineage", lineage, "--reason", "superseded", "--actor", "ops"});
       },
       {},
       {},
       nullptr,
       "",
       "invalidated"},
      {"an abandoned lineage's candidate starts again",
       [](World& w) {
         Edit(w);
         const Json started = w.Ok({"start"});
         w.Ok({"abandon", "--lineage", started["lineage"], "--reason", "operator_disposition",
               "--actor", "ops", "--expected-revision", started["revision"]});
       },
       {},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a lineage waiting in another worktree, a change here",
       [](World& w) { SentBackElsewhere(w, "sent back there\n", "a change here\n"); },
       {},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a lineage waiting in another worktree, nothing here",
       [](World& w) { SentBackElsewhere(w, "sent back there\n", ""); },
       {},
       {},
       nullptr,
       "",
       "clean"},
      {"the other worktree's candidate is the same as this one's",
       [](World& w) { SentBackElsewhere(w, "the same\n", "the same\n"); },
       {},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
      {"a reviewing lineage of another worktree",
       [](World& w) {
         const std::string linked = w.Linked("linked");
         w.repo.Write("a.txt", "under review there\n");
         w.Ok({"start"}, w.repo.root());
         w.cwd = linked;
       },
       {},
       {},
       nullptr,
       "",
       "clean"},
      {"lineages fetched from a remote only",
       [](World& w) {
         const std::string lineage = w.repo.StartNew()["lineage"];
         w.repo.StartApproved();
         w.clone = std::make_unique<LifecycleRepo>(LifecycleRepo::CloneOf{w.repo});
         w.cwd = w.clone->root();
         w.common = w.clone->common_dir();
         w.Ok({"fetch"});
         const Json alone = w.Ok({"status", "--lineage", lineage});
         CHECK(alone["next"] == "none");
         CHECK(alone["next_reason"] == "fetched_only");
       },
       {},
       {},
       nullptr,
       "",
       "clean"},
  };
}

}  // namespace

TEST_CASE("harness loop: following only next never meets a refusal", "[harness]") {
  for (const Scenario& s : Scenarios()) {
    DYNAMIC_SECTION(s.name) {
      World w;
      if (s.setup) s.setup(w);
      const auto [actions, status] = FollowNext(w, s);
      CHECK(actions == s.actions);
      CHECK(status["next_reason"] == s.final_reason);
      // None is stable: asking again answers the same, and the refusal it stands for is real.
      if (std::string(s.final_reason) == "budget_exceeded" && std::string(s.actions).empty()) {
        std::vector<std::string> start = {"start"};
        start.insert(start.end(), s.selector.begin(), s.selector.end());
        const auto before = HashTree(w.common);
        RunResult r = w.Review(start, w.cwd);
        CHECK(r.exit_code == 9);
        CHECK(r.Json()["error"]["code"] == "budget_exceeded");
        CHECK(HashTree(w.common) == before);
      }
    }
  }
}

TEST_CASE("harness loop: the table holds at least twenty scenarios", "[harness]") {
  CHECK(Scenarios().size() >= 20);
}

}  // namespace gentle::testing
