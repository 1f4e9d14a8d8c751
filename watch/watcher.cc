#include "watch/watcher.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "loop/comment_id.h"
#include "loop/hint.h"
#include "loop/seen_ledger.h"
#include "store/fault_point.h"
#include "store/program_run.h"
#include "watch/listed_id_kind.h"
#include "watch/reasons.h"

namespace gentle::watch {
namespace {

// Id listings: per page, and at most this many pages per listing.
constexpr int kMaxPages = 10;

std::string RepoPath(const RepoForge& forge) { return "repos/" + forge.owner + "/" + forge.repo; }

loop::PrKey KeyOf(const RepoForge& forge, int64_t number) {
  return loop::PrKey{forge.kind, forge.owner, forge.repo, number};
}

// Id listings: at most this many of a Gitea PR's reviews hold comments (one request each).
constexpr size_t kMaxCommentedReviews = 100;

// One request of an id listing (`path` with its query): its ids appended as "<kind>:<id>"; with
// `counts`, each element's comments_count too.
Status GetIds(ForgeClient& client, const std::string& path, const std::string& what,
              ListedIdKind kind, std::vector<std::string>* out, CycleReport* report, size_t* listed,
              std::vector<int64_t>* counts) {
  GENTLE_ASSIGN_OR_RETURN(HttpResponse answer, client.Get(path, ""));
  ++report->requests;
  if (answer.status != 200) {
    return Status(answer.status >= 500 || answer.status == 403 || answer.status == 429
                      ? Code::kBusy
                      : Code::kNotFound,
                  "forge answered " + std::to_string(answer.status) + " for " + what);
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> ids, ParseIdList(answer.body, what, counts));
  const std::string prefix = std::string(ListedIdKindName(kind)) + ":";
  for (const std::string& id : ids) out->push_back(prefix + id);
  if (out->size() > 3 * kMaxListedIds) return Status(Code::kCorrupted, "too many ids: " + what);
  *listed = ids.size();
  return Status::Ok();
}

// One listing of ids (`path` without query), every page: "<kind>:<id>". With `commented`, the ids
// of the listed objects whose comments_count is above 0 (Gitea's reviews).
Status ListIds(ForgeClient& client, const RepoForge& forge, const std::string& path,
               ListedIdKind kind, std::vector<std::string>* out, CycleReport* report,
               std::vector<std::string>* commented = nullptr) {
  const bool github = forge.kind == store::Forge::kGithub;
  const size_t per_page = github ? 100 : 50;
  for (int page = 1; page <= kMaxPages; ++page) {
    const std::string query =
        (github ? "?per_page=100&page=" : "?limit=50&page=") + std::to_string(page);
    const size_t before = out->size();
    std::vector<int64_t> counts;
    size_t listed = 0;
    GENTLE_RETURN_IF_ERROR(GetIds(client, path + query, path, kind, out, report, &listed,
                                  commented != nullptr ? &counts : nullptr));
    for (size_t i = 0; commented != nullptr && i < counts.size(); ++i) {
      if (counts[i] > 0) {
        commented->push_back((*out)[before + i].substr(ListedIdKindName(kind).size() + 1));
      }
    }
    if (listed < per_page) break;
  }
  return Status::Ok();
}

Result<std::vector<std::string>> ListAllIds(ForgeClient& client, const RepoForge& forge,
                                            int64_t number, CycleReport* report) {
  const std::string n = std::to_string(number);
  const std::string repo = RepoPath(forge);
  std::vector<std::string> ids;
  GENTLE_RETURN_IF_ERROR(ListIds(client, forge, repo + "/issues/" + n + "/comments",
                                 ListedIdKind::kComment, &ids, report));
  if (forge.kind == store::Forge::kGithub) {
    GENTLE_RETURN_IF_ERROR(ListIds(client, forge, repo + "/pulls/" + n + "/comments",
                                   ListedIdKind::kReviewComment, &ids, report));
    GENTLE_RETURN_IF_ERROR(ListIds(client, forge, repo + "/pulls/" + n + "/reviews",
                                   ListedIdKind::kReview, &ids, report));
    return ids;
  }
  // Gitea lists review comments per review (pulls/N/reviews/ID/comments, one unpaged answer):
  // only the reviews whose comments_count says they hold some are asked.
  std::vector<std::string> commented;
  GENTLE_RETURN_IF_ERROR(ListIds(client, forge, repo + "/pulls/" + n + "/reviews",
                                 ListedIdKind::kReview, &ids, report, &commented));
  if (commented.size() > kMaxCommentedReviews) {
    return Status(Code::kCorrupted, "more than 100 reviews with comments: " + repo + "/pulls/" + n);
  }
  for (const std::string& review : commented) {
    const std::string path = repo + "/pulls/" + n + "/reviews/" + review + "/comments";
    size_t listed = 0;
    GENTLE_RETURN_IF_ERROR(
        GetIds(client, path, path, ListedIdKind::kReviewComment, &ids, report, &listed, nullptr));
  }
  return ids;
}

// The ids of `now` not in `before`, in order.
std::vector<std::string> NewIds(const std::vector<std::string>& before,
                                const std::vector<std::string>& now) {
  const std::set<std::string> known(before.begin(), before.end());
  std::vector<std::string> out;
  for (const std::string& id : now) {
    if (!known.count(id)) out.push_back(id);
  }
  return out;
}

// The ids of `fresh` ("<kind>:<id>") the PR's seen ledger does not hold, through the ledger's
// reader. The ledger keys ids by their forge id space: a review body is a `review` id, an issue
// comment or a review comment a `comment` id (loop/comment_id.h).
Result<std::vector<std::string>> UnseenIds(const std::string& common_dir, const std::string& pr,
                                           const std::vector<std::string>& fresh) {
  if (fresh.empty()) return fresh;
  GENTLE_ASSIGN_OR_RETURN(loop::SeenLedgerReader reader, loop::SeenLedgerReader::Open(common_dir));
  std::vector<loop::SeenId> keyed;
  for (const std::string& id : fresh) {
    const size_t colon = id.find(':');
    const std::optional<ListedIdKind> kind =
        ParseListedIdKind(std::string_view(id).substr(0, colon));
    if (!kind || colon == std::string::npos) {  // ListAllIds writes every id as "<kind>:<id>"
      return Status(Code::kCorrupted, "a listed id of no known kind: " + id);
    }
    loop::SeenId seen;
    seen.kind = IdSpaceOf(*kind);
    seen.id = id.substr(colon + 1);
    keyed.push_back(std::move(seen));
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<loop::SeenId> unseen, reader.Unseen(pr, keyed));
  const std::set<loop::SeenId> wanted(unseen.begin(), unseen.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < fresh.size(); ++i) {
    if (wanted.count(keyed[i])) out.push_back(fresh[i]);
  }
  return out;
}

std::string Etag(const HttpResponse& answer) { return answer.Header("ETag").value_or(""); }

Status AnswerStatus(int status, const std::string& what) {
  return Status(status == 404 ? Code::kNotFound : Code::kBusy,
                "forge answered " + std::to_string(status) + " for " + what);
}

Result<store::ProgramOutput> RunHook(const std::string& command,
                                     const std::vector<std::string>& args) {
  std::vector<std::string> argv = {"/bin/sh", "-c", command + " \"$@\"", "sh"};
  argv.insert(argv.end(), args.begin(), args.end());
  return store::RunProgram(argv, "", store::kCommandDeadline);
}

class DefaultFactory {
 public:
  std::unique_ptr<ForgeClient> operator()(const RepoForge& forge) const {
    return MakeForgeClient(EndpointOf(forge));
  }
};

}  // namespace

ClientFactory DefaultClients() { return DefaultFactory(); }

Result<WatchDb*> Watcher::Db(const std::string& common_dir) {
  auto found = dbs_.find(common_dir);
  if (found != dbs_.end()) return found->second.get();
  GENTLE_ASSIGN_OR_RETURN(WatchDb db, WatchDb::Open(common_dir, /*create=*/true));
  auto owned = std::make_unique<WatchDb>(std::move(db));
  WatchDb* raw = owned.get();
  dbs_.emplace(common_dir, std::move(owned));
  return raw;
}

ForgeClient& Watcher::Client(const RepoForge& forge) {
  // A host declared Gitea by one repository and not by another gets a client for each: the token
  // of one never goes with the other's requests.
  std::unique_ptr<ForgeClient>& client =
      client_cache_[forge.HostKey() + (forge.gitea_declared ? "" : " undeclared")];
  if (!client) client = clients_(forge);
  return *client;
}

// Whether a transport's refusal concerns the whole host: the forge cannot be reached or redirects
// (`busy`), its transport cannot run here (`not_found`: a libcurl that cannot be loaded, no gh
// for a GitHub token), or it refused a request sent without a token to an undeclared host
// (`forbidden`), or its API root breaks the transport's rules (`usage`).
static bool IsHostProblem(const Status& status) {
  return status.code() == Code::kBusy || status.code() == Code::kNotFound ||
         status.code() == Code::kForbidden || status.code() == Code::kUsage;
}

// Records a failure of `host` (unreachable, 5xx, no transport): it waits Backoff(failures).
static Status HostFailure(WatchDb& db, const std::string& host, HostRow row, int64_t now,
                          const Status& why) {
  row.failures += 1;
  row.not_before = now + Backoff(row.failures);
  GENTLE_RETURN_IF_ERROR(db.SaveHost(host, row));
  return why;
}

// Records a failure of one PR (a malformed answer, 404...): it waits Backoff(failures).
static Status PrFailure(WatchDb& db, PrRow row, int64_t now, const Status& why) {
  row.failures += 1;
  row.next_poll = now + Backoff(row.failures);
  GENTLE_RETURN_IF_ERROR(db.SavePr(row));
  return why;
}

Status Watcher::PollPr(RepoWatch& repo, WatchDb& db, int64_t number, std::vector<PrRow>* unchanged,
                       CycleReport* report) {
  const int64_t now = clock_.Now();
  const loop::PrKey key = KeyOf(repo.forge, number);
  const std::string pr = loop::FormatPrKey(key);
  GENTLE_ASSIGN_OR_RETURN(std::optional<PrRow> stored, db.LoadPr(pr));
  PrRow row = stored ? *stored : PrRow{pr, std::nullopt, "", {}, now, 0, 0, false};
  if (row.dropped) return Status::Ok();
  const std::string host_key = repo.forge.HostKey();
  GENTLE_ASSIGN_OR_RETURN(HostRow host, db.LoadHost(host_key));
  if (row.next_poll > now || host.not_before > now) {
    ++report->skipped;
    return Status::Ok();
  }
  ++report->polled;
  ForgeClient& client = Client(repo.forge);
  const std::string path = RepoPath(repo.forge) + "/pulls/" + std::to_string(number);
  auto answer = client.Get(path, row.etag);
  ++report->requests;
  if (!answer.ok()) {
    if (IsHostProblem(answer.status())) {
      return HostFailure(db, host_key, host, now, answer.status());
    }
    return answer.status();
  }
  if (answer->status == 403 || answer->status == 429) {
    const int64_t wait = RateLimitWait(*answer, now);
    host.not_before = now + wait;
    GENTLE_RETURN_IF_ERROR(db.SaveHost(host_key, host));
    return Status(Code::kBusy, "rate limited by the forge (" + std::to_string(answer->status) +
                                   "): waiting " + std::to_string(wait) + " s");
  }
  if (answer->status >= 500) {
    return HostFailure(db, host_key, host, now, AnswerStatus(answer->status, path));
  }
  if (host.failures != 0) {
    host = HostRow{};
    GENTLE_RETURN_IF_ERROR(db.SaveHost(host_key, host));
  }
  if (answer->status == 304 && row.meta) {
    ++report->not_modified;
    row.failures = 0;
    row.next_poll = now + PollInterval(row.last_event, now);
    unchanged->push_back(std::move(row));
    return Status::Ok();
  }
  if (answer->status != 200) return PrFailure(db, row, now, AnswerStatus(answer->status, path));
  auto meta = ParsePrMeta(answer->body, path);
  if (!meta.ok()) return PrFailure(db, row, now, meta.status());
  if (row.meta && *row.meta == *meta) {  // a new ETag, nothing we read changed
    row.etag = Etag(*answer);
    row.failures = 0;
    row.next_poll = now + PollInterval(row.last_event, now);
    unchanged->push_back(std::move(row));
    return Status::Ok();
  }
  auto ids = ListAllIds(client, repo.forge, number, report);
  if (!ids.ok()) {
    if (ids.status().code() == Code::kBusy) {
      return HostFailure(db, host_key, host, now, ids.status());
    }
    return PrFailure(db, row, now, ids.status());
  }
  const std::optional<PrMeta> before = row.meta;
  const std::vector<std::string> fresh = NewIds(row.known_ids, *ids);
  row.meta = *meta;
  row.etag = Etag(*answer);
  row.known_ids = std::move(ids).value();
  row.failures = 0;
  row.dropped = meta->Terminal();
  if (!before) {  // first reading: the baseline, nobody is woken
    row.last_event = now;
    row.next_poll = now + kActiveInterval;
    return db.SavePr(row);
  }
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> unseen, UnseenIds(repo.common_dir, pr, fresh));
  std::vector<std::string> reasons = ChangeReasons(*before, *meta, fresh, unseen);
  if (reasons.empty()) {
    row.next_poll = now + PollInterval(row.last_event, now);
    return db.SavePr(row);
  }
  const std::optional<std::string> owner = OwningWorktree(repo.worktrees, meta->head_ref);
  const loop::HintSkill skill = owner ? loop::HintSkill::kLand : loop::HintSkill::kReviewPr;
  loop::Hint hint{key, std::move(reasons), std::string(loop::HintSkillName(skill)),
                  meta->updated_at};
  GENTLE_ASSIGN_OR_RETURN(std::string line, loop::FormatHint(hint));
  row.last_event = now;
  row.next_poll = now + kActiveInterval;
  GENTLE_RETURN_IF_ERROR(db.SavePrWithHint(row, line, owner.value_or(""), now).status());
  store::FaultPoint("watch:hint-recorded");
  return Status::Ok();
}

Result<std::vector<int64_t>> Watcher::Discover(RepoWatch& repo, WatchDb& db, CycleReport* report) {
  const std::string repo_key =
      repo.forge.HostKey() + "/" + repo.forge.owner + "/" + repo.forge.repo;
  const int64_t now = clock_.Now();
  GENTLE_ASSIGN_OR_RETURN(std::optional<ListRow> listed, db.LoadList(repo_key));
  const std::string host_key = repo.forge.HostKey();
  GENTLE_ASSIGN_OR_RETURN(HostRow host, db.LoadHost(host_key));
  std::vector<int64_t> numbers = listed ? listed->numbers : std::vector<int64_t>{};
  if (host.not_before <= now) {
    const std::string path =
        RepoPath(repo.forge) + (repo.forge.kind == store::Forge::kGithub
                                    ? "/pulls?state=open&sort=updated&direction=desc&per_page=100"
                                    : "/pulls?state=open&sort=recentupdate&limit=50");
    auto answer = Client(repo.forge).Get(path, listed ? listed->etag : "");
    ++report->requests;
    if (!answer.ok() && IsHostProblem(answer.status())) {
      return HostFailure(db, host_key, host, now, answer.status());
    }
    if (!answer.ok()) return answer.status();
    if (answer->status == 403 || answer->status == 429) {
      host.not_before = now + RateLimitWait(*answer, now);
      GENTLE_RETURN_IF_ERROR(db.SaveHost(host_key, host));
      return Status(Code::kBusy,
                    "rate limited by the forge (" + std::to_string(answer->status) + ")");
    }
    if (answer->status >= 500) {
      return HostFailure(db, host_key, host, now, AnswerStatus(answer->status, path));
    }
    if (answer->status == 304) {
      ++report->not_modified;
    } else if (answer->status != 200) {
      return AnswerStatus(answer->status, path);
    } else {
      GENTLE_ASSIGN_OR_RETURN(std::vector<PrMeta> open, ParsePrList(answer->body, path));
      numbers.clear();
      for (const PrMeta& pr : open) {
        if (OwningWorktree(repo.worktrees, pr.head_ref)) numbers.push_back(pr.number);
      }
      GENTLE_RETURN_IF_ERROR(db.SaveList(repo_key, ListRow{Etag(*answer), numbers}));
    }
  }
  const loop::PrKey prefix_key = KeyOf(repo.forge, 1);
  std::string prefix = loop::FormatPrKey(prefix_key);
  prefix.pop_back();  // "...#"
  GENTLE_ASSIGN_OR_RETURN(std::vector<std::string> live, db.LivePrs(prefix));
  for (const std::string& pr : live) {
    auto key = loop::ParsePrKey(pr);
    if (key.ok() && std::find(numbers.begin(), numbers.end(), key->number) == numbers.end()) {
      numbers.push_back(key->number);
    }
  }
  return numbers;
}

Status Watcher::Deliver(const RepoWatch& repo, WatchDb& db, CycleReport* report) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<HintRow> pending, db.Undelivered());
  for (HintRow& hint : pending) {
    const bool owned = !hint.worktree.empty();
    const std::optional<std::string>& command = owned ? options_.exec : options_.on_new;
    if (!command) {
      report->hints.push_back(DeliveredHint{std::move(hint), HintSink::kStdout, repo.common_dir});
      continue;
    }
    std::vector<std::string> args = {hint.line};
    if (owned) args.push_back(hint.worktree);
    auto run = RunHook(*command, args);
    if (!run.ok() || run->exit_code != 0) {
      // A command that exited says its exit code; one that could not run or was killed at its
      // deadline says why (store/program_run.h).
      const std::string sink = owned ? "--exec" : "--on-new";
      const std::string what = run.ok()
                                   ? sink + " failed (exit " + std::to_string(run->exit_code) + ")"
                                   : sink + ": " + run.status().message();
      report->errors.push_back(
          WatchError{hint.pr, Status(Code::kBusy, what + "; the hint stays undelivered")});
      continue;
    }
    GENTLE_RETURN_IF_ERROR(db.MarkDelivered(hint.seq, clock_.Now()));
    report->hints.push_back(DeliveredHint{
        std::move(hint), owned ? HintSink::kExec : HintSink::kOnNew, repo.common_dir});
  }
  return Status::Ok();
}

Result<CycleReport> Watcher::RunCycle(std::vector<RepoWatch>& repos) {
  CycleReport report;
  for (RepoWatch& repo : repos) {
    GENTLE_ASSIGN_OR_RETURN(WatchDb * db, Db(repo.common_dir));
    std::vector<int64_t> numbers = repo.prs;
    if (numbers.empty()) {
      auto found = Discover(repo, *db, &report);
      if (!found.ok()) {
        report.errors.push_back(WatchError{repo.root, found.status()});
        continue;
      }
      numbers = std::move(found).value();
    }
    std::vector<PrRow> unchanged;
    for (int64_t number : numbers) {
      Status polled = PollPr(repo, *db, number, &unchanged, &report);
      if (!polled.ok()) {
        report.errors.push_back(WatchError{loop::FormatPrKey(KeyOf(repo.forge, number)), polled});
      }
    }
    // Not written (the file busy past the timeout): they are due again next cycle.
    if (Status saved = db->SavePrs(unchanged); !saved.ok()) {
      report.errors.push_back(WatchError{repo.root, saved});
    }
    // Every undelivered hint, in order: an earlier run's first.
    GENTLE_RETURN_IF_ERROR(Deliver(repo, *db, &report));
  }
  return report;
}

Status Watcher::MarkPrinted(const CycleReport& report) {
  for (const DeliveredHint& delivered : report.hints) {
    if (delivered.sink != HintSink::kStdout) continue;
    GENTLE_ASSIGN_OR_RETURN(WatchDb * db, Db(delivered.common_dir));
    GENTLE_RETURN_IF_ERROR(db->MarkDelivered(delivered.hint.seq, clock_.Now()));
  }
  return Status::Ok();
}

}  // namespace gentle::watch
