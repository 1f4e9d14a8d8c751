// review watch (docs/watch.md): the PR daemon's command line around watch/watcher.h.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/render.h"
#include "cli/verb.h"
#include "loop/pr_key.h"
#include "store/git/repository.h"
#include "store/go_marshal.h"
#include "watch/poster.h"
#include "watch/watcher.h"

namespace gentle::cli {
namespace {

// review watch: the PR daemon (docs/watch.md). Runs until killed, or one cycle with --once.
struct WatchOptions {
  std::vector<std::string> repos;  // --repo DIR (repeatable); none: the current repository
  std::vector<std::string> prs;    // --pr FORGE:OWNER/REPO#N (repeatable); none: discover
  bool once = false;
  std::optional<std::string> exec, on_new;
  std::string exec_text, on_new_text;  // as parsed
};

using Json = nlohmann::ordered_json;
constexpr std::string_view kWatchSchema = "gentle-ai.review-watch/v1";

Result<watch::RepoWatch> OpenRepo(const std::string& dir) {
  GENTLE_ASSIGN_OR_RETURN(store::git::Repository repo, store::git::Repository::Discover(dir));
  GENTLE_RETURN_IF_ERROR(repo.RequireWorktree("review watch"));
  watch::RepoWatch out;
  out.root = repo.worktree_root();
  out.common_dir = repo.common_dir();
  GENTLE_ASSIGN_OR_RETURN(out.forge, watch::ResolveRepoForge(out.root));
  GENTLE_ASSIGN_OR_RETURN(out.worktrees, watch::ListWorktrees(out.root));
  return out;
}

bool SameRepo(const watch::RepoForge& forge, const loop::PrKey& key) {
  return forge.kind == key.forge && forge.owner == key.owner && forge.repo == key.repo;
}

// The repositories to watch: each --repo (or the current one) discovers its PRs unless --pr
// names PRs; a --pr goes to the repository with its OWNER/REPO, else one is made for it beside
// the first repository (same state file, the forge host of its kind).
Result<std::vector<watch::RepoWatch>> Plan(const CommonOptions& common,
                                           const WatchOptions& options) {
  std::vector<loop::PrKey> keys;
  for (const std::string& text : options.prs) {
    GENTLE_ASSIGN_OR_RETURN(loop::PrKey key, loop::ParsePrKey(text));
    if (key.forge != store::Forge::kGithub && key.forge != store::Forge::kGitea) {
      return Status(Code::kUsage, "--pr " + text + ": review watch polls github and gitea only");
    }
    keys.push_back(std::move(key));
  }
  std::vector<watch::RepoWatch> repos;
  const std::vector<std::string> dirs =
      options.repos.empty() ? std::vector<std::string>{common.cwd} : options.repos;
  for (const std::string& dir : dirs) {
    GENTLE_ASSIGN_OR_RETURN(watch::RepoWatch repo, OpenRepo(dir));
    repos.push_back(std::move(repo));
  }
  if (keys.empty()) return repos;
  const size_t given = repos.size();
  for (const loop::PrKey& key : keys) {
    watch::RepoWatch* home = nullptr;
    for (watch::RepoWatch& repo : repos) {
      if (SameRepo(repo.forge, key)) home = &repo;
    }
    if (home == nullptr) {
      watch::RepoWatch extra = repos[0];
      const bool same_kind = extra.forge.kind == key.forge;
      if (key.forge == store::Forge::kGitea && !same_kind) {
        return Status(Code::kUsage, "--pr " + loop::FormatPrKey(key) +
                                        ": no --repo on a Gitea host (its base URL is unknown)");
      }
      if (!same_kind) extra.forge = watch::RepoForge{};
      extra.forge.owner = key.owner;
      extra.forge.repo = key.repo;
      extra.prs.clear();
      repos.push_back(std::move(extra));
      home = &repos.back();
    }
    home->prs.push_back(key.number);
  }
  // With --pr, a repository none of them belongs to is not watched.
  std::vector<watch::RepoWatch> watched;
  for (size_t i = 0; i < repos.size(); ++i) {
    if (!repos[i].prs.empty() || i >= given) watched.push_back(std::move(repos[i]));
  }
  return watched;
}

// Writes `text` and flushes: false when stdout did not take it.
bool Emit(const std::string& text) {
  return std::fwrite(text.data(), 1, text.size(), stdout) == text.size() &&
         std::fflush(stdout) == 0;
}

Json ReportJson(const watch::CycleReport& report) {
  Json out;
  out["schema"] = kWatchSchema;
  out["hints"] = Json::array();
  for (const watch::DeliveredHint& delivered : report.hints) {
    Json hint;
    hint["pr"] = delivered.hint.pr;
    hint["line"] = delivered.hint.line;
    hint["worktree"] = NullIfEmpty(delivered.hint.worktree);
    hint["sink"] = watch::HintSinkName(delivered.sink);
    out["hints"].push_back(hint);
  }
  out["errors"] = Json::array();
  for (const watch::WatchError& error : report.errors) {
    out["errors"].push_back({{"subject", error.subject},
                             {"code", CodeName(error.status.code())},
                             {"message", error.status.message()}});
  }
  out["requests"] = report.requests;
  out["not_modified"] = report.not_modified;
  out["polled"] = report.polled;
  out["skipped"] = report.skipped;
  return out;
}

// Prints what the cycle delivered to stdout (and its errors on stderr); false when stdout failed.
bool PrintCycle(const watch::CycleReport& report, bool json) {
  for (const watch::WatchError& error : report.errors) {
    if (!json) {
      std::cerr << "gentle-ai: watch: " << error.subject << ": " << CodeName(error.status.code())
                << ": " << error.status.message() << "\n";
    }
  }
  if (json) return Emit(store::MarshalCompact(ReportJson(report)) + "\n");
  std::string text;
  for (const watch::DeliveredHint& delivered : report.hints) {
    if (delivered.sink == watch::HintSink::kStdout) text += delivered.hint.line + "\n";
  }
  return text.empty() || Emit(text);
}

// Recovers every repository's unanswered posts once per common dir; what failed, per dir.
std::vector<watch::WatchError> RecoverUnansweredPosts(const std::vector<watch::RepoWatch>& repos) {
  std::vector<watch::WatchError> errors;
  std::set<std::string> done;
  for (const watch::RepoWatch& repo : repos) {
    if (!done.insert(repo.common_dir).second) continue;
    auto recovered = watch::RecoverPosts(repo.common_dir, watch::DefaultPostLinks(repo.root), "",
                                         /*writer=*/true);
    if (!recovered.ok()) errors.push_back(watch::WatchError{repo.root, recovered.status()});
  }
  return errors;
}

int RunWatch(const CommonOptions& common, const WatchOptions& options) {
  auto planned = Plan(common, options);
  if (!planned.ok()) return ReportError(planned.status(), common.json);
  std::vector<watch::RepoWatch> repos = std::move(planned).value();
  std::unique_ptr<watch::Clock> clock = watch::SystemClock();
  watch::Watcher watcher(*clock, watch::DefaultClients(),
                         watch::WatchOptions{options.exec, options.on_new});
  while (true) {
    // Posts a `review post` left unanswered are recorded before the cycle reads the seen ledger,
    // so the daemon never wakes a session for its own reply (docs/loop.md "review post").
    std::vector<watch::WatchError> pending = RecoverUnansweredPosts(repos);
    auto report = watcher.RunCycle(repos);
    if (!report.ok()) return ReportError(report.status(), common.json);
    report->errors.insert(report->errors.begin(), pending.begin(), pending.end());
    if (!PrintCycle(*report, common.json)) {
      return ReportError(Status(Code::kInternal, "watch: stdout is not writable"), common.json);
    }
    if (Status marked = watcher.MarkPrinted(*report); !marked.ok()) {
      return ReportError(marked, common.json);
    }
    if (options.once) return 0;
    clock->SleepUntil(clock->Now() + watch::kActiveInterval);
    for (watch::RepoWatch& repo : repos) {
      // Worktrees come and go while the daemon runs: routing follows them.
      if (auto worktrees = watch::ListWorktrees(repo.root); worktrees.ok()) {
        repo.worktrees = std::move(worktrees).value();
      }
    }
  }
}

}  // namespace

void DefineWatch(CLI::App* review, const Verb& verb, Invocation* in) {
  WatchOptions* o = in->Hold<WatchOptions>();
  Command watch = AddCommand(review, verb, in);
  watch
      .AddOption("--repo", &o->repos,
                 "A repository whose worktrees' PRs to watch (repeatable; default: the current "
                 "one)")
      .TypeName("DIR");
  watch.AddOption("--pr", &o->prs, "Watch this PR only: FORGE:OWNER/REPO#N (repeatable)")
      .TypeName("PR");
  watch.AddFlag("--once", &o->once, "Run one cycle and exit");
  watch
      .AddOption("--exec", &o->exec_text,
                 "Deliver each hint by running CMD with the hint and the owning worktree as "
                 "arguments (default: print it)")
      .TypeName("CMD");
  watch
      .AddOption("--on-new", &o->on_new_text,
                 "Deliver the hints of PRs no worktree owns by running CMD with the hint")
      .TypeName("CMD");
  watch.OnParsed([in, o, watch] {
    if (Given(watch, "--exec")) o->exec = o->exec_text;
    if (Given(watch, "--on-new")) o->on_new = o->on_new_text;
    in->Choose([in, o] { return RunWatch(in->common, *o); });
  });
}

}  // namespace gentle::cli
