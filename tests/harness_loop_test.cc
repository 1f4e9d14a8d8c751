// A harness that follows only `status --json`'s `next` (docs/loop.md, "Following next"): a small
// interpreter runs an author loop and a reviewer loop. It reads the author's next (`status`, whose
// role is the author's) and, when that is none, the reviewer's (`status --role reviewer`),
// performs the action it names with generic arguments (the lineage is next_lineage; the selector
// flags are the ones status was asked with; burn's token is the one the APPROVE gave), and loops
// until neither names an action. next_reason changes the arguments only as docs/loop.md says:
// `context_required` binds the round with --context, `approve_capped` gives NEEDS_DISCUSSION where
// the reviewer would approve. After every verdict the harness renders `review comment --role` for
// it; a PR harness (a scenario that posts) also reads a simulated GitHub before it opens a round
// (`context import`, `ledger`, `seen new`, bound with --context), posts each comment as an issue
// comment or a review body, records it with `seen add --posted`, and reads the forge's CRLF copy
// back with `parse-comment`. Every scenario is one row of the table below: how the repository is
// prepared, the selector, the verdicts the reviewers give, what the author does after each
// REQUEST_CHANGES, and the actions, final reason and forge readings expected. The test fails when
// a next leads to a refusal, when status writes anything, or when the loop does not end (a next
// that repeats forever).
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tests/support/fake_forge.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using Json = nlohmann::json;

// A file whose added diff passes the 4 MiB budget.
std::string Oversize() {
  std::string text;
  while (text.size() <= (size_t{4} << 20)) text += "one line of a file too large to review\n";
  return text;
}

// A pull request on a simulated GitHub: the issue comments and reviews `gh api` would list, each
// body as the forge hands it back (CRLF line ends). Comments and reviews are numbered from the same
// first number in two id spaces, so issue comment 101 and review 101 are two ids.
struct Forge {
  struct Item {
    int id;
    bool review;
    std::string login, body, state, time;
  };
  std::vector<Item> items;
  int comments = 100, reviews = 100, clock = 0;

  int Add(bool review, const std::string& login, const std::string& body,
          const std::string& state = "COMMENTED") {
    const int id = review ? ++reviews : ++comments;
    char time[32];
    std::snprintf(time, sizeof time, "2026-12-01T10:%02d:00Z", ++clock);
    items.push_back({id, review, login, WithCrlf(body), state, time});
    return id;
  }
};

constexpr char kPrKey[] = "github:acme/widget#7";
constexpr char kBot[] = "review-bot";  // the harness's own login

// The repository a scenario runs in, and where the harness runs.
struct World {
  LifecycleRepo repo;
  std::unique_ptr<LifecycleRepo> clone;  // a clone of `repo`, when the harness runs there
  std::string cwd;     // the harness's worktree: the repository's, a linked one, or the clone's
  std::string common;  // the common dir of cwd's repository, which status must leave unchanged
  Env env;             // for the commands the harness runs
  Forge forge;         // the PR, for a harness that reads and posts
  TempDir files;       // what the harness writes: gh's pages, contexts, id lists
  std::vector<std::string> log;      // what the harness read from the forge, in order
  int reads = 0;                     // forge reads so far
  std::string lineage;               // the lineage the harness last acted on
  std::vector<std::string> reasons;  // every next/next_reason the harness followed, in order
  std::vector<std::string> posted;   // the verdicts posted, in order
  std::map<std::string, std::string> tokens;  // lineage -> APPROVE's token (burn's argument)

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
  // A PR harness: where it posts each comment (and then it reads the forge before each round).
  enum class Post { kNothing, kIssueComment, kReviewBody } post = Post::kNothing;
  const char* forge_log = "";                   // World::log expected, joined with "; "
  std::function<void(World&)> check = nullptr;  // what else must hold at the end
  // After the APPROVE (and its comment): what the author does, e.g. commit or merge the change.
  std::function<void(World&)> after_approve = nullptr;
};

// export as docs/loop.md says: every part of the review view under the round's budget
// (`status`'s `parts` and `max_bytes`), in order; returns the last part's envelope.
Json ExportParts(const World& w, const Json& status, const std::string& lineage,
                 const std::string& where) {
  REQUIRE(status["parts"].is_number_unsigned());
  const uint64_t parts = status["parts"];
  const std::string max_bytes = std::to_string(status["max_bytes"].get<uint64_t>());
  Json envelope;
  for (uint64_t k = 1; k <= parts; ++k) {
    envelope = w.Ok({"export-context", "--lineage", lineage, "--view", "review", "--max-bytes",
                     max_bytes, "--part", std::to_string(k)},
                    where);
    CHECK(envelope["part"] == k);
    CHECK(envelope["parts"] == parts);
  }
  return envelope;
}

std::string Join(const std::vector<std::string>& words, const char* separator = " ") {
  std::ostringstream out;
  for (size_t i = 0; i < words.size(); ++i) out << (i ? separator : "") << words[i];
  return out.str();
}
std::string Join(const Json& words) { return Join(words.get<std::vector<std::string>>()); }

// A verdict as the table writes it: VERDICT for role reviewer, docs-reviewer:VERDICT.
struct Given {
  std::string role, verdict;
};
Given Parse(const std::string& scripted) {
  const size_t colon = scripted.find(':');
  if (colon == std::string::npos) return {"reviewer", scripted};
  return {scripted.substr(0, colon), scripted.substr(colon + 1)};
}

Json Verdict(const World& w, const std::string& lineage, const Given& given) {
  return w.Ok({"verdict", "--lineage", lineage, "--verdict", given.verdict, "--actor", "ana",
               "--role", given.role, "--body", "Reviewed by the loop.\n\n- one finding\n"});
}

// The forge's pages as `gh api` prints them, imported into a ReviewContext (docs/context.md).
std::string ImportContext(World& w) {
  Json comments = Json::array(), reviews = Json::array();
  for (const Forge::Item& item : w.forge.items) {
    Json page = {{"id", item.id}, {"user", {{"login", item.login}}}, {"body", item.body}};
    if (item.review) {
      page["state"] = item.state;
      page["submitted_at"] = item.time;
      reviews.push_back(page);
    } else {
      page["created_at"] = item.time;
      comments.push_back(page);
    }
  }
  const std::string at = w.files.path() + "/read-" + std::to_string(++w.reads);
  WriteFile(at + "-ic.json", comments.dump());
  WriteFile(at + "-rv.json", reviews.dump());
  const std::string context = at + "-context.json";
  // With --output the context goes to the file and nothing to stdout.
  RunResult imported =
      w.Review({"context", "import", "--forge", "github", "--pr-view",
                std::string(GENTLE_FIXTURES_DIR) + "/forge/github/pr-view.json", "--issue-comments",
                at + "-ic.json", "--reviews", at + "-rv.json", "--output", context},
               w.cwd);
  INFO(imported.out << imported.err);
  REQUIRE(imported.exit_code == 0);
  return context;
}

// What a PR harness reads before it opens a round: the context, where the last round left off
// (ledger), and the ids not seen yet (baselined the first time, handled after). Returns the
// context file to bind.
std::string ReadForge(World& w) {
  const std::string context = ImportContext(w);
  const Json ledger = w.Ok({"ledger", "--context", context, "--me", kBot});
  const Json& previous = ledger["previous"];
  if (previous.is_null()) {
    w.log.push_back("previous none");
  } else {
    CHECK(previous["strict"] == true);  // the CRLF copy reads as the comment rendered
    w.log.push_back("previous round " + previous["round"].dump() + " " +
                    previous["id_kind"].get<std::string>() + " " +
                    previous["verdict"].get<std::string>());
  }
  const Json fresh = w.Ok({"seen", "new", "--pr", kPrKey, "--context", context});
  std::string ids;
  for (const Json& id : fresh["ids"]) ids += id.get<std::string>() + "\n";
  const std::string list = context + ".ids";
  WriteFile(list, ids);
  if (w.reads == 1) {
    w.Ok({"seen", "baseline", "--pr", kPrKey, "--ids-file", list});
    w.log.push_back("baseline " + std::to_string(fresh["ids"].size()));
  } else {
    w.log.push_back("new " + (ids.empty() ? std::string("none") : Join(fresh["ids"])));
    if (!ids.empty()) w.Ok({"seen", "add", "--pr", kPrKey, "--ids-file", list});
  }
  return context;
}

// After a verdict: the comment to post renders for the verdict's role.
void Render(World& w, const std::string& lineage, const Given& given) {
  RunResult comment =
      GentleAi({"review", "comment", "--lineage", lineage, "--role", given.role}, w.cwd, w.env);
  INFO(comment.err);
  REQUIRE(comment.exit_code == 0);
}

// next says post: the round's newest verdict (`review comment` without --role) is posted, as an
// issue comment unless the scenario posts review bodies, its id recorded in the same step, and the
// forge's copy (CRLF) read back strictly.
void PostNewest(World& w, const Scenario& s, const std::string& lineage) {
  RunResult comment = GentleAi({"review", "comment", "--lineage", lineage}, w.cwd, w.env);
  INFO(comment.err);
  REQUIRE(comment.exit_code == 0);
  const bool review = s.post == Scenario::Post::kReviewBody;
  const int id = w.forge.Add(review, kBot, comment.out);
  w.Ok({"seen", "add", "--pr", kPrKey, "--posted", "--id",
        (review ? "review:" : "") + std::to_string(id)});
  const std::string copy = w.files.path() + "/posted-" + std::to_string(w.forge.items.size());
  WriteFile(copy, w.forge.items.back().body);
  const Json back = w.Ok({"parse-comment", copy});
  CHECK(back["lineage"] == lineage);
  w.posted.push_back(back["verdict"]);
}

// The entry the status's next names (next_lineage): the lineage the action is for, whose own
// next is the status's.
Json ActedOn(const Json& status) {
  INFO(status.dump());
  REQUIRE(status.contains("next_lineage"));
  REQUIRE(status["next_lineage"].is_string());
  std::vector<Json> found;
  for (const Json& entry : status["lineages"]) {
    if (entry["lineage"] == status["next_lineage"]) found.push_back(entry);
  }
  REQUIRE(found.size() == 1);
  CHECK(found.front()["next"] == status["next"]);
  CHECK(found.front()["next_reason"] == status["next_reason"]);
  return found.front();
}

// `status` with the scenario's selector flags and `role` ("": none, the author's), checked to
// write nothing and to name a lineage exactly when next is an action on one.
Json AskStatus(const World& w, const Scenario& s, const std::string& role) {
  std::vector<std::string> ask = {"status"};
  ask.insert(ask.end(), s.selector.begin(), s.selector.end());
  if (!role.empty()) ask.insert(ask.end(), {"--role", role});
  const auto before = HashTree(w.common);
  const Json status = w.Ok(ask);
  CHECK(HashTree(w.common) == before);  // status writes nothing
  REQUIRE(status.contains("next_reason"));
  // next_lineage is null exactly for start and none.
  CHECK(status["next_lineage"].is_null() ==
        (status["next"] == "start" || status["next"] == "none"));
  return status;
}

// The interpreter: an author loop and a reviewer loop in one harness (docs/loop.md, "Following
// next"). Each step asks the author's next (`status` without --role); when it is none, the
// reviewer's (`status --role reviewer`); it stops when neither names an action. Returns the
// actions performed and the author's final status.
std::pair<std::string, Json> FollowNext(World& w, const Scenario& s) {
  std::vector<std::string> actions;
  size_t verdict_at = 0;
  bool bound = false;  // a round was bound to the forge's context: the loop ends with its burn
  int sent_back = 0;
  for (int step = 0; step < 24; ++step) {
    const Json author = AskStatus(w, s, "");
    // The author is never told a reviewer's action.
    CHECK(author["next"] != "export");
    CHECK(author["next"] != "post");
    const Json status = author["next"] == "none" ? AskStatus(w, s, "reviewer") : author;
    if (status["next"] == "none") {
      w.reasons.push_back(author["next"].get<std::string>() + "/" +
                          author["next_reason"].get<std::string>());
      return {Join(actions), author};
    }
    const std::string next = status["next"];
    const std::string reason = status["next_reason"];
    w.reasons.push_back(next + "/" + reason);
    // A round is bound to the forge's context when a PR harness opens it, or when next says the
    // round would be capped without one.
    const bool bind = reason == "context_required" || s.post != Scenario::Post::kNothing;
    bound = bound || (bind && (next == "start" || next == "revise"));
    actions.push_back(next + (reason == "context_required" ? "+context" : ""));
    if (next == "start") {
      std::vector<std::string> start = {"start"};
      start.insert(start.end(), s.selector.begin(), s.selector.end());
      if (bind) start.insert(start.end(), {"--context", ReadForge(w)});
      w.lineage = w.Ok(start)["lineage"];
      continue;
    }
    const Json entry = ActedOn(status);
    const std::string lineage = entry["lineage"];
    w.lineage = lineage;
    if (next == "export") {
      const Json envelope = ExportParts(w, status, lineage, w.cwd);
      REQUIRE(envelope["next"] == "verdict");
      const bool capped = reason == "approve_capped";
      CHECK(envelope["next_reason"] == (capped ? "approve_capped" : "context_exported"));
      REQUIRE(verdict_at < s.verdicts.size());
      Given given = Parse(s.verdicts[verdict_at++]);
      // The cap: the verdict due may be any but APPROVE; a person decides instead.
      if (capped && given.verdict == "APPROVE") given = {given.role, "NEEDS_DISCUSSION"};
      actions.push_back(
          "verdict:" + s.verdicts[verdict_at - 1] +
          (given.verdict != Parse(s.verdicts[verdict_at - 1]).verdict ? "->" + given.verdict : ""));
      const Json result = Verdict(w, lineage, given);
      Render(w, lineage, given);
      if (given.verdict == "APPROVE") w.tokens[lineage] = result["token"];
      if (given.verdict == "APPROVE" && s.after_approve) s.after_approve(w);
      if (given.verdict == "REQUEST_CHANGES" && s.author) s.author(w, ++sent_back);
    } else if (next == "abandon") {
      w.Ok({"abandon", "--lineage", lineage, "--reason", "operator_disposition", "--actor",
            "harness"});
    } else if (next == "post") {
      PostNewest(w, s, lineage);
    } else if (next == "revise") {
      std::vector<std::string> revise = {"revise", "--lineage", lineage};
      if (bind) revise.insert(revise.end(), {"--context", ReadForge(w)});
      w.Ok(revise);
    } else if (next == "burn") {
      REQUIRE(w.tokens.count(lineage) == 1);
      w.Ok({"burn", "--lineage", lineage, "--token", w.tokens[lineage], "--expected-revision",
            entry["revision"]});
      // A PR harness is done when its approval is spent: the PR lands (the final status answers
      // for the selector's candidate: burned too, docs/loop.md).
      if (s.post != Scenario::Post::kNothing || bound) return {Join(actions), AskStatus(w, s, "")};
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
void EditRequiringContext(World& w) {
  Edit(w);
  w.repo.GitOk({"config", "gentle-ai.requireContext", "true"});
}
void StartedContextUnavailable(World& w) {
  Edit(w);
  w.Ok({"start", "--context-unavailable", "gh: HTTP 502"});
}

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
       "merged",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         // The PR's next is none / merged until its head moves; then a new change starts.
         std::vector<std::string> ask = {"status"};
         ask.insert(ask.end(), kPr.begin(), kPr.end());
         CHECK(w.Ok(ask)["next_reason"] == "merged");
         PushToPr(w, 1);
         const Json moved = w.Ok(ask);
         CHECK(moved["next"] == "start");
         CHECK(moved["next_reason"] == "no_lineage");
       }},
      {"a PR sent back and pushed to",
       PrBranch,
       kPr,
       {"REQUEST_CHANGES", "APPROVE"},
       PushToPr,
       "start export verdict:REQUEST_CHANGES revise export verdict:APPROVE burn",
       "merged"},
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
      {"a lockfile past 4 MiB beside code is started and read in parts",
       [](World& w) {
         Edit(w);
         w.repo.Write("package-lock.json", Oversize());
         for (const char* name : {"one.txt", "two.txt"}) {
           std::string text;
           while (text.size() < 300000)
             text += "a hand-written line of " + std::string(name) + "\n";
           w.repo.Write(name, text);
         }
       },
       {"--untracked", "package-lock.json", "--untracked", "one.txt", "--untracked", "two.txt",
        "--runtime", "claude"},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "candidate_burned"},
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
      // The reviewer reviews every lineage of the clone; the burn is its own worktree's author's.
      {"a reviewing lineage of another worktree is reviewed here and burned there",
       [](World& w) {
         const std::string linked = w.Linked("linked");
         w.repo.Write("a.txt", "under review there\n");
         w.Ok({"start"}, w.repo.root());
         w.cwd = linked;
       },
       {},
       {"APPROVE"},
       nullptr,
       "export verdict:APPROVE",
       "clean",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         CHECK(Join(w.reasons) == "export/review_due none/clean");
         // Where it was started, its author is told to burn it.
         const Json there = w.Ok({"status"}, w.repo.root());
         CHECK(there["next"] == "burn");
         CHECK(there["next_reason"] == "approved");
       }},
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
      // A PR harness: the forge read before each round, every comment posted and read back.
      {"both roles in one round, posted as issue comments",
       PrBranch,
       kPr,
       {"docs-reviewer:FIXED", "REQUEST_CHANGES", "APPROVE"},
       PushToPr,
       "start export verdict:docs-reviewer:FIXED post export verdict:REQUEST_CHANGES post revise "
       "export verdict:APPROVE post burn",
       "merged",  // the PR's lineage was burned (its trees without the comment ids too)
       Scenario::Post::kIssueComment,
       // Round 2 was opened knowing round 1's newest verdict, from an issue comment (the docs
       // reviewer's summary came first); the harness's own comments never came back as new.
       "previous none; baseline 0; previous round 1 comment REQUEST_CHANGES; new none",
       [](World& w) {
         // Each role's newest verdict of round 1 renders, as it was posted then.
         REQUIRE(w.forge.items.size() == 3);
         const std::vector<std::pair<std::string, std::string>> round1 = {
             {"docs-reviewer", "## Docs Review Summary"}, {"reviewer", "## Code Review Summary"}};
         for (size_t i = 0; i < round1.size(); ++i) {
           const auto& [role, heading] = round1[i];
           RunResult again = GentleAi(
               {"review", "comment", "--lineage", w.lineage, "--round", "1", "--role", role}, w.cwd,
               w.env);
           INFO(again.err);
           REQUIRE(again.exit_code == 0);
           CHECK(again.out.rfind(heading + "\n", 0) == 0);
           CHECK(WithCrlf(again.out) == w.forge.items[i].body);
         }
       }},
      {"a PR round posted as a review body, read back from CRLF",
       PrBranch,
       kPr,
       {"REQUEST_CHANGES", "APPROVE"},
       PushToPr,
       "start export verdict:REQUEST_CHANGES post revise export verdict:APPROVE post burn",
       "merged",
       Scenario::Post::kReviewBody,
       "previous none; baseline 0; previous round 1 review REQUEST_CHANGES; new none",
       [](World& w) {
         REQUIRE(w.forge.items.size() == 2);
         CHECK(w.forge.items[0].review);
         CHECK(w.forge.items[0].body.find("\r\n### Verdict: REQUEST_CHANGES\r\n") !=
               std::string::npos);
       }},
      {"a human's CHANGES_REQUESTED review is new feedback, apart from comment ids",
       [](World& w) {
         PrBranch(w);
         w.forge.Add(false, "octocat", "Please have a look.\n");  // comment 101, baselined
       },
       kPr,
       {"REQUEST_CHANGES", "APPROVE"},
       [](World& w, int round) {
         // Review 101: the same number as the human's comment, in the other id space.
         w.forge.Add(true, "octocat", "Rename the flag too.\n", "CHANGES_REQUESTED");
         PushToPr(w, round);
       },
       "start export verdict:REQUEST_CHANGES post revise export verdict:APPROVE post burn",
       "merged",  // the PR's lineage was burned (its trees without the comment ids too)
       Scenario::Post::kIssueComment,
       "previous none; baseline 1; previous round 1 comment REQUEST_CHANGES; new review:101",
       nullptr},
      {"a round summary posted as an issue comment is where the ledger resumes",
       Edit,
       {},
       {"REQUEST_CHANGES", "REQUEST_CHANGES", "APPROVE"},
       EditAgain,
       "start export verdict:REQUEST_CHANGES post revise export verdict:REQUEST_CHANGES post "
       "revise "
       "export verdict:APPROVE post burn",
       "merged",  // the PR's lineage was burned (its trees without the comment ids too)
       Scenario::Post::kIssueComment,
       "previous none; baseline 0; previous round 1 comment REQUEST_CHANGES; new none; previous "
       "round 2 comment REQUEST_CHANGES; new none",
       nullptr},
      // The APPROVE cap (docs/lifecycle.md, "Review context binding").
      {"requireContext: start binds the context",
       EditRequiringContext,
       {},
       {"APPROVE"},
       nullptr,
       "start+context export verdict:APPROVE post burn",
       "merged",
       Scenario::Post::kNothing,
       "previous none; baseline 0",
       nullptr},
      {"requireContext: the next round is revised with the context",
       EditRequiringContext,
       {},
       {"REQUEST_CHANGES", "APPROVE"},
       EditAgain,
       "start+context export verdict:REQUEST_CHANGES post revise+context export verdict:APPROVE "
       "post burn",
       // The burn of the bound round spent its trees without the comment ids too: not start.
       "merged",
       Scenario::Post::kNothing,
       "previous none; baseline 0; previous round 1 comment REQUEST_CHANGES; new none",
       nullptr},
      {"requireContext not a boolean: read as true",
       [](World& w) {
         PrBranch(w);
         w.repo.GitOk({"config", "gentle-ai.requireContext", "maybe"});
       },
       kPr,
       {"APPROVE"},
       nullptr,
       "start+context export verdict:APPROVE post burn",
       "merged",
       Scenario::Post::kNothing,
       "previous none; baseline 0",
       nullptr},
      {"requireContext set after a round opened without context: a person decides",
       [](World& w) {
         Edit(w);
         w.Ok({"start"});
         w.repo.GitOk({"config", "gentle-ai.requireContext", "true"});
       },
       {},
       {"APPROVE"},
       nullptr,
       "export verdict:APPROVE->NEEDS_DISCUSSION",
       "escalated"},
      {"a round marked context-unavailable: sent back, the next round approves",
       StartedContextUnavailable,
       {},
       {"REQUEST_CHANGES", "APPROVE"},
       EditAgain,
       "export verdict:REQUEST_CHANGES revise export verdict:APPROVE burn",
       "candidate_burned"},
      {"a round marked context-unavailable: APPROVE is capped",
       StartedContextUnavailable,
       {},
       {"APPROVE"},
       nullptr,
       "export verdict:APPROVE->NEEDS_DISCUSSION",
       "escalated"},
      // The loop end to end (docs/loop.md, "Following next").
      {"an older lineage of this worktree also says export: next names its lineage",
       [](World& w) {
         Edit(w);
         w.Ok({"start"});
         EditAgain(w, 1);  // the first lineage's candidate moved: unrelated, still export
       },
       {},
       {"APPROVE", "APPROVE"},
       nullptr,
       // The reviewer reviews both, the first in lineage order first (each export names its
       // lineage); the author burns the one that holds its candidate as soon as it is approved.
       "start export verdict:APPROVE export verdict:APPROVE burn | "
       "start export verdict:APPROVE burn export verdict:APPROVE",
       "candidate_burned",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         const std::string reasons = Join(w.reasons);
         CHECK((reasons == "start/no_lineage export/review_due export/review_due burn/approved "
                           "none/candidate_burned" ||
                reasons == "start/no_lineage export/review_due burn/approved export/review_due "
                           "none/candidate_burned"));
       }},
      {"approved, then committed on the branch: burned as merged",
       Edit,
       {},
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "clean",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         CHECK(Join(w.reasons) == "start/no_lineage export/review_due burn/merged none/clean");
       },
       [](World& w) { w.Commit("a.txt", "the author's change\n", w.repo.root()); }},
      {"a PR approved, then merged: burned as merged",
       PrBranch,
       kPr,
       {"APPROVE"},
       nullptr,
       "start export verdict:APPROVE burn",
       "clean",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         CHECK(Join(w.reasons) == "start/no_lineage export/review_due burn/merged none/clean");
       },
       [](World& w) {
         w.repo.GitOk({"merge", "-q", "--ff-only", "pr"});
       }},
      {"a docs-reviewer's APPROVE after the code APPROVE renders and posts",
       [](World& w) {
         PrBranch(w);
         std::vector<std::string> start = {"start"};
         start.insert(start.end(), kPr.begin(), kPr.end());
         start.insert(start.end(), {"--context", ReadForge(w)});
         const std::string lineage = w.Ok(start)["lineage"];
         w.tokens[lineage] = Verdict(w, lineage, {"reviewer", "APPROVE"})["token"];
         // A co-approval by another actor (the same actor again is a repeat); then the harness
         // died.
         w.Ok({"verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor", "dora", "--role",
               "docs-reviewer", "--body", "The docs read well.\n"});
       },
       kPr,
       {},
       nullptr,
       "post burn",
       "merged",
       Scenario::Post::kIssueComment,
       "previous none; baseline 0",
       [](World& w) {
         CHECK(Join(w.reasons) == "post/post_due burn/approved");
         REQUIRE(w.forge.items.size() == 1);
         CHECK(w.forge.items[0].body.rfind("## Docs Review Summary\r\n", 0) == 0);
         for (const auto& [role, heading] : std::vector<std::pair<std::string, std::string>>{
                  {"docs-reviewer", "## Docs Review Summary\n"},
                  {"reviewer", "## Code Review Summary\n"}}) {
           RunResult again = GentleAi(
               {"review", "comment", "--lineage", w.lineage, "--round", "1", "--role", role}, w.cwd,
               w.env);
           INFO(role << ": " << again.err);
           REQUIRE(again.exit_code == 0);
           CHECK(again.out.rfind(heading, 0) == 0);
           CHECK(again.out.find("### Verdict: APPROVE\n") != std::string::npos);
         }
       }},
      // One live lineage per PR (docs/loop.md, "One lineage per PR").
      {"a PR pushed to while under review keeps its one lineage",
       [](World& w) {
         PrBranch(w);
         std::vector<std::string> start = {"start"};
         start.insert(start.end(), kPr.begin(), kPr.end());
         w.Ok(start);
         PushToPr(w, 9);  // the head moves before the review: the lineage's target is unrelated
       },
       kPr,
       {"REQUEST_CHANGES", "APPROVE"},
       PushToPr,
       "export verdict:REQUEST_CHANGES revise export verdict:APPROVE burn",
       "merged",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         CHECK(Join(w.reasons) ==
               "export/review_due revise/candidate_changed export/review_due burn/approved "
               "none/merged");
       }},
      {"a hand-damaged record is abandoned, and the change starts again",
       [](World& w) {
         Edit(w);
         const std::string lineage = w.Ok({"start"})["lineage"];
         WriteFile(w.repo.record_path(lineage), "{\"damaged\": \n");
       },
       {},
       {"APPROVE"},
       nullptr,
       "abandon start export verdict:APPROVE burn",
       "candidate_burned",
       Scenario::Post::kNothing,
       "",
       [](World& w) {
         CHECK(Join(w.reasons) ==
               "abandon/corrupted start/no_lineage export/review_due burn/approved "
               "none/candidate_burned");
       }},
  };
}

// The entry of `status` for `lineage`.
Json EntryOf(const Json& status, const std::string& lineage) {
  for (const Json& entry : status["lineages"]) {
    if (entry["lineage"] == lineage) return entry;
  }
  FAIL("no entry for " << lineage << ": " << status.dump());
  return {};
}

}  // namespace

TEST_CASE("harness loop: following only next never meets a refusal", "[harness]") {
  for (const Scenario& s : Scenarios()) {
    DYNAMIC_SECTION(s.name) {
      World w;
      if (s.setup) s.setup(w);
      const auto [actions, status] = FollowNext(w, s);
      // " | " separates the orders a row allows (lineage ids are random, and entries are listed
      // in lineage order).
      std::vector<std::string> allowed;
      for (std::string rest = s.actions;;) {
        const size_t bar = rest.find(" | ");
        allowed.push_back(rest.substr(0, bar));
        if (bar == std::string::npos) break;
        rest = rest.substr(bar + 3);
      }
      INFO(actions);
      CHECK(std::find(allowed.begin(), allowed.end(), actions) != allowed.end());
      CHECK(status["next_reason"] == s.final_reason);
      CHECK(Join(w.log, "; ") == s.forge_log);
      if (s.check) s.check(w);
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
  // The shapes the loop must get through unattended, each a row of its own.
  std::vector<std::string> names;
  for (const Scenario& s : Scenarios()) names.push_back(s.name);
  for (const char* shape : {"another worktree", "PR", "oversize", "both roles", "CRLF", "review",
                            "issue comment", "requireContext", "context-unavailable"}) {
    INFO(shape);
    CHECK(std::any_of(names.begin(), names.end(),
                      [&](const std::string& n) { return n.find(shape) != std::string::npos; }));
  }
}

}  // namespace gentle::testing

namespace gentle::testing {
namespace {

// Two harnesses, each following only its role's next (status --role): the author in the
// repository's worktree, the reviewer in a linked one. A harness whose next is none hands over to
// the other; the author changes the candidate when it is told it waits for itself.
TEST_CASE("harness loop: an author and a reviewer in two worktrees follow their role's next",
          "[harness]") {
  World w;
  const std::string author = w.repo.root();
  const std::string reviewer = w.Linked("reviewer");
  Edit(w);
  const std::vector<std::string> verdicts = {"REQUEST_CHANGES", "APPROVE"};
  size_t given = 0;
  int edits = 0;
  bool author_turn = true;
  std::vector<std::string> seen;
  for (int step = 0; step < 30; ++step) {
    const std::string where = author_turn ? author : reviewer;
    // The author asks `status` as it is: its role is the default.
    std::vector<std::string> ask = {"status"};
    if (!author_turn) ask.insert(ask.end(), {"--role", "reviewer"});
    const auto before = HashTree(w.common);
    const Json status = w.Ok(ask, where);
    CHECK(HashTree(w.common) == before);
    if (author_turn) CHECK(status == w.Ok({"status", "--role", "author"}, where));
    const std::string next = status["next"], reason = status["next_reason"];
    seen.push_back(std::string(author_turn ? "A:" : "R:") + next + "/" + reason);
    CHECK(status["next_lineage"].is_null() == (next == "start" || next == "none"));
    if (next == "none") {
      if (author_turn && reason == "waiting_for_author" && edits < 1) {
        EditAgain(w, ++edits);
        continue;
      }
      if (author_turn && (reason == "candidate_burned" || reason == "clean")) break;
      author_turn = !author_turn;
      continue;
    }
    if (next == "start") {
      REQUIRE(author_turn);
      w.Ok({"start"}, where);
      continue;
    }
    const Json entry = ActedOn(status);
    const std::string lineage = entry["lineage"];
    if (next == "export") {
      REQUIRE_FALSE(author_turn);
      CHECK(ExportParts(w, status, lineage, where)["next"] == "verdict");
      REQUIRE(given < verdicts.size());
      const Json result = w.Ok({"verdict", "--lineage", lineage, "--verdict", verdicts[given],
                                "--actor", "ana", "--role", "reviewer", "--body", "Read.\n"},
                               where);
      if (verdicts[given] == "APPROVE") w.tokens[lineage] = result["token"];
      ++given;
    } else if (next == "revise") {
      REQUIRE(author_turn);
      w.Ok({"revise", "--lineage", lineage}, where);
    } else if (next == "burn") {
      REQUIRE(author_turn);
      REQUIRE(w.tokens.count(lineage) == 1);
      w.Ok({"burn", "--lineage", lineage, "--token", w.tokens[lineage], "--expected-revision",
            entry["revision"]},
           where);
    } else {
      FAIL("no generic action for " << next << ": " << status.dump());
    }
  }
  CHECK(Join(seen) ==
        "A:start/no_lineage A:none/review_pending R:export/review_due R:none/nothing_to_review "
        "A:none/waiting_for_author A:revise/candidate_changed A:none/review_pending "
        "R:export/review_due R:none/nothing_to_review A:burn/approved A:none/candidate_burned");
  // A role that is not one of the two is refused before anything is read.
  RunResult bad = w.Review({"status", "--role", "docs-reviewer"}, author);
  CHECK(bad.exit_code == 2);
  CHECK(bad.Json()["error"]["code"] == "usage");
}

// A PR harness binds each round to the forge's context; a blind `start --context` with a context
// imported again (a new comment: other ids, another target identity) answers the PR's lineage
// while it is under review, and revises it once it was sent back: never a second lineage.
TEST_CASE("harness loop: a re-imported context never forks a second lineage of the PR",
          "[harness]") {
  World w;
  PrBranch(w);
  auto start = [&](const std::string& context) {
    std::vector<std::string> args = {"start"};
    args.insert(args.end(), kPr.begin(), kPr.end());
    args.insert(args.end(), {"--context", context});
    return w.Ok(args);
  };
  const Json first = start(ImportContext(w));
  const std::string lineage = first["lineage"];
  CHECK(first["created"] == true);
  w.forge.Add(false, "octocat", "One more thing.\n");
  const Json again = start(ImportContext(w));
  CHECK(again["lineage"] == lineage);
  CHECK(again["created"] == false);
  // The export is the reviewer's next.
  std::vector<std::string> ask = {"status", "--role", "reviewer"};
  ask.insert(ask.end(), kPr.begin(), kPr.end());
  Json status = w.Ok(ask);
  CHECK(status["lineages"].size() == 1);
  CHECK(status["next"] == "export");
  CHECK(status["next_lineage"] == lineage);
  Verdict(w, lineage, {"reviewer", "REQUEST_CHANGES"});
  w.forge.Add(false, "octocat", "And this.\n");
  const Json revised = start(ImportContext(w));
  CHECK(revised["lineage"] == lineage);
  CHECK(revised["created"] == false);
  status = w.Ok(ask);
  REQUIRE(status["lineages"].size() == 1);
  CHECK(status["lineages"][0]["state"] == "reviewing");
  CHECK(status["next"] == "export");
  CHECK(status["next_lineage"] == lineage);
  CHECK(w.Ok({"list"})["lineages"].size() == 1);
}

// A harness posts one lineage's round itself and records the id with `seen add --posted
// --lineage`: that post answers its own lineage's verdict only, so another lineage's verdict,
// given before it, still says post.
TEST_CASE("harness loop: a post recorded for its lineage never hides another lineage's post",
          "[harness]") {
  World w;
  PrBranch(w);
  const std::string context = ImportContext(w);
  std::vector<std::string> start_a = {"start"};
  start_a.insert(start_a.end(), kPr.begin(), kPr.end());
  start_a.insert(start_a.end(), {"--context", context});
  const std::string a = w.Ok(start_a)["lineage"];
  Edit(w);
  const std::string b = w.Ok({"start", "--context", context})["lineage"];
  Verdict(w, b, {"reviewer", "REQUEST_CHANGES"});
  Verdict(w, a, {"reviewer", "REQUEST_CHANGES"});
  Json status = w.Ok({"status", "--role", "reviewer"});
  CHECK(EntryOf(status, a)["next"] == "post");
  CHECK(EntryOf(status, b)["next"] == "post");
  // The harness posts the round status names and records its id for that lineage.
  REQUIRE(status["next"] == "post");
  const std::string first = status["next_lineage"];
  const std::string other = first == a ? b : a;
  RunResult comment = GentleAi({"review", "comment", "--lineage", first}, w.cwd, w.env);
  REQUIRE(comment.exit_code == 0);
  const int id = w.forge.Add(false, kBot, comment.out);
  w.Ok({"seen", "add", "--pr", kPrKey, "--posted", "--lineage", first, "--id", std::to_string(id)});
  status = w.Ok({"status", "--role", "reviewer"});
  CHECK(EntryOf(status, first)["next"] == "none");
  CHECK(EntryOf(status, other)["next"] == "post");
  CHECK(EntryOf(status, other)["next_reason"] == "post_due");
  CHECK(status["next"] == "post");
  CHECK(status["next_lineage"] == other);
  // Its own post, recorded for it, ends it.
  const int second = w.forge.Add(false, kBot, "the other round\n");
  w.Ok({"seen", "add", "--pr", kPrKey, "--posted", "--lineage", other, "--id",
        std::to_string(second)});
  status = w.Ok({"status", "--role", "reviewer"});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "nothing_to_review");
}

// A harness killed between its verdict and its post, while another lineage's round is posted by
// `review post` after it: the first lineage's post is still due, for that lineage; the forge goes
// down and a second post answers busy saying what is pending; once it is back the post is made
// and nothing more is due.
TEST_CASE("harness loop: a crash between verdict and post is due for its own lineage",
          "[harness]") {
  World w;
  FakeForge forge(FakeForge::Kind::kGitea, w.files.path() + "/forge");
  const std::string pr = "gitea:acme/webapp#47";
  const Json pull = {{"number", 47},
                     {"state", "open"},
                     {"merged", false},
                     {"draft", false},
                     {"mergeable", true},
                     {"head", {{"sha", std::string(40, 'a')}, {"ref", "pr"}}},
                     {"updated_at", "2026-12-01T09:00:00Z"},
                     {"labels", Json::array()}};
  forge.SetWorld({{"me", kBot},
                  {"pulls", {{"acme/webapp#47", pull}}},
                  {"issue_comments", {{"acme/webapp#47", Json::array()}}},
                  {"review_comments", {{"acme/webapp#47", Json::array()}}},
                  {"reviews", {{"acme/webapp#47", Json::array()}}}});
  w.repo.GitOk({"remote", "add", "origin", forge.OriginUrl("acme", "webapp")});
  w.env = forge.ClientEnv();
  // Lineage A: the PR's commit range; lineage B: the worktree's change. Both bound.
  PrBranch(w);
  const std::string context = ImportContext(w);
  std::vector<std::string> start_a = {"start"};
  start_a.insert(start_a.end(), kPr.begin(), kPr.end());
  start_a.insert(start_a.end(), {"--context", context});
  const std::string a = w.Ok(start_a)["lineage"];
  Edit(w);
  const std::string b = w.Ok({"start", "--context", context})["lineage"];
  Verdict(w, a, {"reviewer", "REQUEST_CHANGES"});  // ... and the harness dies before its post
  Verdict(w, b, {"reviewer", "REQUEST_CHANGES"});
  RunResult posted = w.Review({"post", "--lineage", b, "--pr", pr}, w.cwd);
  INFO(posted.out << posted.err);
  REQUIRE(posted.exit_code == 0);
  // Without a role, the author's: the lineage whose post was not made waits on its reviewer.
  const Json plain = w.Ok({"status"});
  CHECK(EntryOf(plain, a)["next"] == "none");
  CHECK(EntryOf(plain, a)["next_reason"] == "review_pending");
  CHECK(EntryOf(plain, b)["next_reason"] == "waiting_for_author");
  CHECK(plain["next"] == "none");
  CHECK(plain["next_lineage"].is_null());
  Json status = w.Ok({"status", "--role", "reviewer"});
  CHECK(EntryOf(status, a)["next"] == "post");
  CHECK(EntryOf(status, a)["next_reason"] == "post_due");
  CHECK(EntryOf(status, b)["next"] == "none");
  CHECK(status["next"] == "post");
  CHECK(status["next_lineage"] == a);
  // The forge is down: the post stays pending, and a second post says what is.
  forge.Stop();
  CHECK(w.Review({"post", "--lineage", a, "--pr", pr}, w.cwd).exit_code == 12);
  RunResult down = w.Review({"post", "--lineage", a, "--pr", pr}, w.cwd);
  CHECK(down.exit_code == 12);
  const Json error = down.Json()["error"];
  CHECK(error["code"] == "busy");
  CHECK(error["lineage"] == a);
  CHECK(error["details"]["pending"] == "true");
  CHECK(error["details"]["pending_round"] == "1");
  CHECK(error["details"]["pending_role"] == "reviewer");
  status = w.Ok({"status", "--role", "reviewer"});
  CHECK(status["next"] == "post");
  CHECK(status["next_lineage"] == a);
  forge.Start();
  RunResult recovered = w.Review({"post", "--lineage", a, "--pr", pr}, w.cwd);
  INFO(recovered.out << recovered.err);
  CHECK(recovered.exit_code == 0);
  status = w.Ok({"status", "--role", "reviewer"});
  CHECK(status["next"] == "none");
  CHECK(status["next_reason"] == "nothing_to_review");
}

}  // namespace
}  // namespace gentle::testing
