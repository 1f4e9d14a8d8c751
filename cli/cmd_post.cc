// review post (docs/loop.md "review post"): the round's comment, rendered by the renderer of
// `review comment` with a fresh nonce in its marker, posted on the PR and its id recorded as
// posted in the seen ledger, crash-safe through a recorded intent (watch/poster.h).
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/render.h"
#include "cli/round_comment.h"
#include "cli/round_comment_flags.h"
#include "cli/verb.h"
#include "loop/pr_key.h"
#include "store/git/repository.h"
#include "store/secret.h"
#include "watch/post_as.h"
#include "watch/poster.h"
#include "watch/routing.h"

namespace gentle::cli {
namespace {

// review post's options: the flags of `comment` but --nonce (post draws its own), the PR and how
// to post.
struct PostOptions {
  RoundCommentFlags flags;
  RoundCommentText text;  // the optional flags as parsed
  std::string pr;
  std::string as{watch::PostAsName(watch::PostAs::kReview)};  // --as: review | comment
};

using Json = nlohmann::ordered_json;
constexpr std::string_view kPostSchema = "gentle-ai.review-post/v1";

// Where the PR's forge answers: the Enterprise HOST[:PORT] of the repository's GitHub origin, or
// "" for gh's host; the Gitea base URL of the repository's Gitea origin (docs/watch.md "Forge
// resolution").
Result<std::string> Endpoint(const store::git::Repository& repo, const loop::PrKey& key) {
  auto forge = repo.is_bare() ? Result<watch::RepoForge>(Status(Code::kUsage, "a bare repository"))
                              : watch::ResolveRepoForge(repo.worktree_root());
  if (key.forge == store::Forge::kGithub) {
    return forge.ok() && forge->kind == store::Forge::kGithub ? forge->host : std::string();
  }
  if (!forge.ok() && !repo.is_bare()) {  // why the origin gives no base URL (no origin, plain http)
    return Status(Code::kUsage, "--pr " + loop::FormatPrKey(key) + ": " + forge.status().message());
  }
  if (!forge.ok() || forge->kind != store::Forge::kGitea) {
    return Status(Code::kUsage, "--pr " + loop::FormatPrKey(key) +
                                    ": the repository's origin is no Gitea host, so its base URL "
                                    "is unknown (docs/watch.md \"Forge resolution\")");
  }
  return forge->base_url;
}

int Print(const CommonOptions& common, const std::string& pr, const RenderedComment& rendered,
          const watch::PostOutcome& outcome) {
  if (common.json) {
    Json out;
    out["schema"] = kPostSchema;
    out["pr"] = pr;
    out["lineage"] = rendered.verdict.lineage;
    out["round"] = rendered.verdict.round;
    out["role"] = store::ReviewerRoleName(rendered.checked_role);
    out["verdict"] = store::VerdictName(rendered.checked_verdict);
    out["as"] = watch::PostAsName(outcome.as);
    out["id"] = outcome.id;
    out["created"] = outcome.created;
    out["recorded_at"] = outcome.recorded_at;
    out["recovered"] = outcome.recovered;
    return PrintJson(out);
  }
  std::ostringstream human;
  for (const std::string& id : outcome.recovered) {
    human << "recovered " << id << " (an earlier post) on " << pr << "\n";
  }
  human << (outcome.created ? "posted " : "already posted ") << outcome.id << " on " << pr
        << " (round " << rendered.verdict.round << ", "
        << store::ReviewerRoleName(rendered.checked_role) << ", "
        << store::VerdictName(rendered.checked_verdict) << ")\n";
  PrintHuman(human.str());
  return 0;
}

int RunPost(const CommonOptions& common, const PostOptions& o) {
  auto key = loop::ParsePrKey(o.pr);
  if (!key.ok()) return ReportError(key.status(), common.json);
  const std::string pr = loop::FormatPrKey(*key);
  if (key->forge != store::Forge::kGithub && key->forge != store::Forge::kGitea) {
    return ReportError(Status(Code::kUsage, "--pr " + pr +
                                                ": review post posts on github and "
                                                "gitea only"),
                       common.json);
  }
  const std::optional<watch::PostAs> as = watch::ParsePostAs(o.as);
  if (!as) {
    return ReportError(
        Status(Code::kUsage, "--as must be " +
                                 std::string(watch::PostAsName(watch::PostAs::kReview)) + " or " +
                                 std::string(watch::PostAsName(watch::PostAs::kComment)) +
                                 ", got \"" + o.as + "\""),
        common.json);
  }
  auto nonce = store::RandomHex(exporter::kNonceHexBytes / 2);
  if (!nonce.ok()) return ReportError(nonce.status(), common.json);
  RoundCommentFlags flags = o.flags;
  flags.nonce = *nonce;
  auto rendered = RenderRoundComment(common.cwd, flags);
  if (!rendered.ok()) return ReportError(rendered.status(), common.json);
  auto repo = store::git::Repository::Discover(common.cwd);
  if (!repo.ok()) return ReportError(repo.status(), common.json);
  auto endpoint = Endpoint(*repo, *key);
  if (!endpoint.ok()) return ReportError(endpoint.status(), common.json);
  watch::PostRequest request;
  request.pr = pr;
  request.endpoint = *endpoint;
  request.lineage = rendered->verdict.lineage;
  request.round = rendered->verdict.round;
  request.role = rendered->checked_role;
  request.revision = rendered->verdict.revision;
  request.verdict = rendered->checked_verdict;
  request.as = *as;
  request.text = rendered->text;
  request.nonce = *nonce;
  auto outcome = watch::PostComment(
      repo->common_dir(),
      watch::DefaultPostLinks(repo->is_bare() ? std::string() : repo->worktree_root()), request);
  if (!outcome.ok()) {
    return ReportError(Status(outcome.status()).WithLineage(request.lineage), common.json);
  }
  return Print(common, pr, *rendered, *outcome);
}

}  // namespace

void DefinePost(CLI::App* review, const Verb& verb, Invocation* in) {
  PostOptions* o = in->Hold<PostOptions>();
  Command post = AddCommand(review, verb, in);
  AddRoundCommentFlags(post, &o->flags, &o->text, false);
  post.AddOption("--pr", &o->pr, "The pull request: FORGE:OWNER/REPO#N").TypeName("PR").Required();
  post.AddOption("--as", &o->as,
                 "review (default: a PR review whose event follows the verdict) or comment (an "
                 "issue comment)");
  post.OnParsed([in, o, post] {
    ApplyRoundCommentFlags(post, o->text, &o->flags);
    in->Choose([in, o] { return RunPost(in->common, *o); });
  });
}

}  // namespace gentle::cli
