#include "watch/poster.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "export/posted_comment.h"
#include "loop/comment_id.h"
#include "loop/pr_key.h"
#include "loop/seen_ledger.h"
#include "store/fault_point.h"
#include "store/strict_json.h"
#include "store/verdict_name.h"
#include "watch/post_intents.h"
#include "watch/routing.h"

namespace gentle::watch {
namespace {

using Json = nlohmann::json;

// Page sizes of the recovery listings (GitHub's pages of bodies are kept small).
constexpr int kGithubPage = 20;
constexpr int kGiteaPage = 50;

store::Forge KindOf(const loop::PrKey& key) {
  return key.forge == store::Forge::kGitea ? store::Forge::kGitea : store::Forge::kGithub;
}

std::string PrPath(const loop::PrKey& key, PostAs as) {
  const bool review = as == PostAs::kReview;
  return "repos/" + key.owner + "/" + key.repo + (review ? "/pulls/" : "/issues/") +
         std::to_string(key.number) + (review ? "/reviews" : "/comments");
}

// The forge's own message of an error answer: printable ASCII, at most 200 bytes, without any
// token the environment gives the transports (were the forge to echo one).
std::string ForgeMessage(const HttpResponse& answer) {
  Json doc;
  store::StrictJsonRefusal why;
  std::string text;
  if (store::ParseStrictJson(answer.body, 8, &doc, &why) && doc.is_object() &&
      doc.contains("message") && doc["message"].is_string()) {
    text = doc["message"].get<std::string>();
  }
  for (const char* name : {"GITEA_TOKEN", "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN",
                           "GITHUB_ENTERPRISE_TOKEN"}) {
    const char* token = std::getenv(name);
    if (token == nullptr || *token == '\0') continue;
    for (size_t at; (at = text.find(token)) != std::string::npos;) {
      text.replace(at, std::strlen(token), "[token]");
    }
  }
  std::string out;
  for (char c : text) {
    if (out.size() == 200) break;
    out.push_back(c >= 0x20 && c < 0x7f ? c : ' ');
  }
  return out;
}

// The code of a refusal (a 4xx): nothing was posted.
Status Refusal(const HttpResponse& answer, const std::string& pr) {
  const int status = answer.status;
  const bool limited =
      status == 429 || (status == 403 && answer.Header("X-RateLimit-Remaining") == "0");
  Code code = Code::kWrongState;
  std::string what = "refused the post";
  if (limited) {
    code = Code::kBusy;
    what = "rate-limited the post";
  } else if (status == 401 || status == 403) {
    code = Code::kForbidden;
    what = status == 401 ? "refused the credentials" : "forbade the post";
  } else if (status == 404) {
    code = Code::kNotFound;
    what = "knows no such pull request (or hides it)";
  }
  const std::string message = ForgeMessage(answer);
  Status out(code, "the forge " + what + " (HTTP " + std::to_string(status) + ") for " + pr +
                       (message.empty() ? "" : ": " + message) + "; nothing was recorded");
  out.WithDetail(DetailKey::kPr, pr).WithDetail(DetailKey::kHttpStatus, std::to_string(status));
  if (limited) {
    if (auto after = answer.Header("Retry-After")) out.WithDetail(DetailKey::kRetryAfter, *after);
  }
  return out;
}

// A positive decimal id at `member` of `doc`, as text.
Result<std::string> IdOf(const Json& doc, const std::string& what) {
  if (!doc.is_object() || !doc.contains("id") || !doc["id"].is_number_unsigned()) {
    return Status(Code::kCorrupted, "forge answer: " + what + " has no numeric id");
  }
  const std::string id = std::to_string(doc["id"].get<uint64_t>());
  GENTLE_RETURN_IF_ERROR(loop::CheckCommentId(id));
  return id;
}

Result<Json> ParseAnswer(const HttpResponse& answer, const std::string& what) {
  Json doc;
  store::StrictJsonRefusal why;
  if (!store::ParseStrictJson(answer.body, 32, &doc, &why)) {
    return Status(Code::kCorrupted, "forge answer: " + what + " is not JSON");
  }
  return doc;
}

std::string SeenIdText(PostAs as, const std::string& id) {
  return as == PostAs::kReview ? "review:" + id : id;
}

class Session {
 public:
  Session(const std::string& common_dir, const PostLinks& links, PostIntents& intents)
      : common_dir_(common_dir), links_(links), intents_(intents) {}

  // Records `id` for the intent as posted and closes it; the time recorded.
  Result<std::string> RecordPosted(const PostIntent& intent, const std::string& id) {
    GENTLE_ASSIGN_OR_RETURN(loop::SeenId seen, loop::ParseSeenId(SeenIdText(intent.as, id)));
    GENTLE_ASSIGN_OR_RETURN(
        loop::SeenWrite write,
        loop::Add(common_dir_, intent.pr, {seen}, loop::SeenKind::kPosted, intent.lineage));
    store::FaultPoint("post:id-recorded");
    GENTLE_RETURN_IF_ERROR(intents_.Close(intent.seq, loop::FormatSeenId(seen), write.recorded_at));
    return write.recorded_at;
  }

  // Sends the intent's text; on the forge's id, records it. Returns the canonical seen id.
  Result<std::string> Send(const PostIntent& intent, std::string* recorded_at) {
    GENTLE_ASSIGN_OR_RETURN(loop::PrKey key, loop::ParsePrKey(intent.pr));
    Json document = {{"body", intent.text}};
    if (intent.as == PostAs::kReview) document["event"] = intent.event.text();
    std::unique_ptr<ForgePoster> poster = links_.poster(KindOf(key), intent.endpoint);
    auto answer = poster->Post(PrPath(key, intent.as), document.dump());
    if (!answer.ok() && answer.status().code() == Code::kForbidden) {
      // An undeclared host's 401 to a request without a token: nothing was posted.
      GENTLE_RETURN_IF_ERROR(intents_.Remove(intent.seq));
      return Status(Code::kForbidden, answer.status().message() + "; nothing was recorded")
          .WithDetail(DetailKey::kPr, intent.pr)
          .WithDetail(DetailKey::kHttpStatus, "401");
    }
    if (!answer.ok()) {
      return Status(answer.status())
          .WithDetail(DetailKey::kPr, intent.pr)
          .WithDetail(DetailKey::kPending, "true");
    }
    if (answer->status >= 400 && answer->status < 500) {
      GENTLE_RETURN_IF_ERROR(intents_.Remove(intent.seq));
      return Refusal(*answer, intent.pr);
    }
    if (answer->status != 200 && answer->status != 201) {
      return Status(Code::kBusy, "the forge answered HTTP " + std::to_string(answer->status) +
                                     " to the post on " + intent.pr +
                                     "; it stays pending until found or sent again")
          .WithDetail(DetailKey::kPr, intent.pr)
          .WithDetail(DetailKey::kHttpStatus, std::to_string(answer->status))
          .WithDetail(DetailKey::kPending, "true");
    }
    GENTLE_ASSIGN_OR_RETURN(Json doc, ParseAnswer(*answer, "the post's answer"));
    GENTLE_ASSIGN_OR_RETURN(std::string id, IdOf(doc, "the post's answer"));
    store::FaultPoint("post:sent");
    GENTLE_ASSIGN_OR_RETURN(*recorded_at, RecordPosted(intent, id));
    return SeenIdText(intent.as, id);
  }

  // Finds the intent's post among the authenticated user's own, or sends it once more.
  Result<std::string> Recover(PostIntent intent, std::string* recorded_at, bool* sent) {
    GENTLE_ASSIGN_OR_RETURN(loop::PrKey key, loop::ParsePrKey(intent.pr));
    std::unique_ptr<ForgeClient> reader = links_.reader(KindOf(key), intent.endpoint);
    GENTLE_ASSIGN_OR_RETURN(std::string me, Login(*reader, intent.pr));
    GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> found, FindOwn(*reader, key, intent, me));
    if (found) {
      GENTLE_ASSIGN_OR_RETURN(*recorded_at, RecordPosted(intent, *found));
      return SeenIdText(intent.as, *found);
    }
    if (intent.attempts >= 2) {
      GENTLE_RETURN_IF_ERROR(intents_.Remove(intent.seq));
      return Status(Code::kNotFound, "the post of round " + std::to_string(intent.round) + " of " +
                                         intent.lineage + " on " + intent.pr +
                                         " was sent twice and is on the forge neither time; "
                                         "nothing was recorded")
          .WithLineage(intent.lineage)
          .WithDetail(DetailKey::kPr, intent.pr)
          .WithDetail(DetailKey::kNonce, intent.nonce);
    }
    intent.attempts = 2;
    GENTLE_RETURN_IF_ERROR(intents_.SetAttempts(intent.seq, intent.attempts));
    *sent = true;
    return Send(intent, recorded_at);
  }

 private:
  static Status AnswerError(const HttpResponse& answer, const std::string& what,
                            const std::string& pr) {
    if (answer.status >= 400 && answer.status < 500) return Refusal(answer, pr);
    return Status(Code::kBusy,
                  "the forge answered HTTP " + std::to_string(answer.status) + " for " + what)
        .WithDetail(DetailKey::kPr, pr)
        .WithDetail(DetailKey::kHttpStatus, std::to_string(answer.status));
  }

  Result<std::string> Login(ForgeClient& reader, const std::string& pr) {
    GENTLE_ASSIGN_OR_RETURN(HttpResponse answer, reader.Get("user", ""));
    if (answer.status != 200) return AnswerError(answer, "the authenticated user", pr);
    GENTLE_ASSIGN_OR_RETURN(Json doc, ParseAnswer(answer, "the authenticated user"));
    if (!doc.is_object() || !doc.contains("login") || !doc["login"].is_string() ||
        doc["login"].get<std::string>().empty()) {
      return Status(Code::kCorrupted, "forge answer: the authenticated user has no login");
    }
    return doc["login"].get<std::string>();
  }

  // The id of the item of the intent's listing written by `me` whose marker carries its nonce.
  Result<std::optional<std::string>> FindOwn(ForgeClient& reader, const loop::PrKey& key,
                                             const PostIntent& intent, const std::string& me) {
    const bool github = KindOf(key) == store::Forge::kGithub;
    const int per_page = github ? kGithubPage : kGiteaPage;
    const std::string path = PrPath(key, intent.as);
    for (int page = 1; page <= kMaxRecoveryPages; ++page) {
      const std::string query = (github ? "?per_page=" : "?limit=") + std::to_string(per_page) +
                                "&page=" + std::to_string(page);
      GENTLE_ASSIGN_OR_RETURN(HttpResponse answer, reader.Get(path + query, ""));
      if (answer.status != 200) return AnswerError(answer, path, intent.pr);
      GENTLE_ASSIGN_OR_RETURN(Json items, ParseAnswer(answer, path));
      if (!items.is_array())
        return Status(Code::kCorrupted, "forge answer: " + path + " is no list");
      for (const Json& item : items) {
        if (!item.is_object() || !item.contains("user") || !item["user"].is_object()) continue;
        const Json& login = item["user"].value("login", Json());
        if (!login.is_string() || login.get<std::string>() != me) continue;
        if (!item.contains("body") || !item["body"].is_string()) continue;
        const exporter::CommentReading reading =
            exporter::ReadComment(item["body"].get<std::string>());
        if (!reading.has_marker || !reading.marker.ok() || reading.comment.nonce != intent.nonce) {
          continue;
        }
        GENTLE_ASSIGN_OR_RETURN(std::string id, IdOf(item, path));
        return std::optional<std::string>(id);
      }
      if (items.size() < static_cast<size_t>(per_page)) return std::optional<std::string>();
    }
    return Status(Code::kBudgetExceeded, "more than " + std::to_string(kMaxRecoveryPages) +
                                             " pages of " + path +
                                             ": the pending post stays pending")
        .WithDetail(DetailKey::kPr, intent.pr);
  }

  const std::string& common_dir_;
  const PostLinks& links_;
  PostIntents& intents_;
};

// Recovers the open intents of `pr` (every PR's when empty); the ids recorded, and in `*resent`
// the seqs of the intents recovery sent again.
// A recovery that failed with its intent still open: the cause, and what stays pending (which
// post, how often sent), so that a harness told `busy` knows what the next post, `seen new` or
// `watch` will look for again. A failure that removed the intent (a refusal, a post found
// neither time) is the cause alone.
Status StillPending(PostIntents& intents, const PostIntent& intent, Status cause) {
  auto open = intents.Unanswered(intent.pr);
  if (!open.ok() || std::none_of(open->begin(), open->end(),
                                 [&](const PostIntent& i) { return i.seq == intent.seq; })) {
    return cause;
  }
  Status out(cause.code(), cause.message() + "; pending: the " + intent.role.text() +
                               "'s post of round " + std::to_string(intent.round) + " of " +
                               intent.lineage + " on " + intent.pr + ", sent " +
                               std::to_string(intent.attempts) +
                               (intent.attempts == 1 ? " time" : " times") +
                               " with its outcome unknown, is looked for again by the next post");
  out.WithDetailsOf(cause);
  return out.WithLineage(intent.lineage)
      .WithDetail(DetailKey::kPending, "true")
      .WithDetail(DetailKey::kPendingRound, std::to_string(intent.round))
      .WithDetail(DetailKey::kPendingRole, intent.role.text());
}

Result<std::vector<std::string>> RecoverLocked(Session& session, PostIntents& intents,
                                               const std::string& pr,
                                               std::vector<int64_t>* resent = nullptr) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<PostIntent> open, intents.Unanswered(pr));
  std::vector<std::string> recovered;
  for (const PostIntent& intent : open) {
    std::string recorded_at;
    bool sent = false;
    auto id = session.Recover(intent, &recorded_at, &sent);
    if (!id.ok()) return StillPending(intents, intent, id.status());
    recovered.push_back(*id);
    if (sent && resent != nullptr) resent->push_back(intent.seq);
  }
  return recovered;
}

}  // namespace

PostLinks DefaultPostLinks(const std::string& worktree_root) {
  // The declarations are read when a Gitea link is first made (most runs make none); a
  // configuration that cannot be read declares nothing, so no $GITEA_TOKEN goes out.
  auto declared = std::make_shared<std::optional<std::vector<std::string>>>();
  auto where = [declared, worktree_root](store::Forge kind, const std::string& endpoint) {
    ForgeEndpoint out;
    out.kind = kind;
    out.endpoint = endpoint;
    out.config_dir = worktree_root;
    if (kind == store::Forge::kGitea) {
      if (!*declared) {
        auto hosts = DeclaredGiteaHosts(worktree_root);
        *declared = hosts.ok() ? std::move(hosts).value() : std::vector<std::string>();
      }
      out.gitea_declared = IsDeclaredGitea(**declared, endpoint);
    }
    return out;
  };
  PostLinks links;
  links.reader = [where](store::Forge kind, const std::string& endpoint) {
    return MakeForgeClient(where(kind, endpoint));
  };
  links.poster = [where](store::Forge kind, const std::string& endpoint) {
    return MakeForgePoster(where(kind, endpoint));
  };
  return links;
}

Result<PostOutcome> PostComment(const std::string& common_dir, const PostLinks& links,
                                PostRequest request) {
  GENTLE_ASSIGN_OR_RETURN(store::FileLock lock, LockPosts(common_dir));
  GENTLE_ASSIGN_OR_RETURN(PostIntents intents, PostIntents::Open(common_dir));
  Session session(common_dir, links, intents);
  PostOutcome out;
  out.as = request.as;
  std::vector<int64_t> resent;
  GENTLE_ASSIGN_OR_RETURN(out.recovered, RecoverLocked(session, intents, request.pr, &resent));
  GENTLE_ASSIGN_OR_RETURN(
      std::optional<PostIntent> done,
      intents.Find(request.pr, request.lineage, request.round, request.role, request.revision));
  if (done) {  // closed: recovery leaves no open intent behind
    out.id = done->posted_id;
    out.as = done->as;
    out.recorded_at = done->posted_at;
    out.created = std::find(resent.begin(), resent.end(), done->seq) != resent.end();
    return out;
  }
  PostIntent intent;
  intent.pr = request.pr;
  intent.lineage = request.lineage;
  intent.round = request.round;
  intent.role = request.role;
  intent.revision = request.revision;
  intent.nonce = request.nonce;
  intent.as = request.as;
  intent.endpoint = request.endpoint;
  intent.text = request.text;
  GENTLE_ASSIGN_OR_RETURN(loop::PrKey key, loop::ParsePrKey(request.pr));
  if (request.as == PostAs::kReview) intent.event = ReviewEventOf(KindOf(key), request.verdict);
  intent.attempts = 1;
  GENTLE_RETURN_IF_ERROR(intents.Record(&intent));
  GENTLE_ASSIGN_OR_RETURN(out.id, session.Send(intent, &out.recorded_at));
  out.created = true;
  return out;
}

Result<std::vector<std::string>> RecoverPosts(const std::string& common_dir, const PostLinks& links,
                                              const std::string& pr, bool writer) {
  if (!writer) {
    GENTLE_ASSIGN_OR_RETURN(bool any, HasUnansweredPosts(common_dir, pr));
    if (!any) return std::vector<std::string>();
  }
  GENTLE_ASSIGN_OR_RETURN(store::FileLock lock, LockPosts(common_dir));
  GENTLE_ASSIGN_OR_RETURN(PostIntents intents, PostIntents::Open(common_dir));
  Session session(common_dir, links, intents);
  return RecoverLocked(session, intents, pr);
}

}  // namespace gentle::watch
