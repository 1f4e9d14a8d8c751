// review context import | review ledger (docs/loop.md, docs/context.md).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/output_file.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "forge/aone_import.h"
#include "forge/forge_input.h"
#include "forge/forge_name.h"
#include "forge/gitea_import.h"
#include "forge/github_import.h"
#include "forge/ledger_recovery.h"
#include "forge/review_context.h"

namespace gentle::cli {
namespace {

// review context import: a forge's JSON normalized into one ReviewContext (docs/context.md),
// written to `output` (atomically) or stdout. Per forge, only its own flags may be given.
struct ContextImportOptions {
  std::string forge;  // a forge name (forge/forge_name.h): github | aone | gitea
  std::optional<std::string> pr_view;
  std::vector<std::string> issue_comments, reviews, review_comments;  // one page each
  std::optional<std::string> mr_view, comments, resolved_comments;
  std::string output;                                                             // empty: stdout
  std::string pr_view_text, mr_view_text, comments_text, resolved_comments_text;  // as parsed
};

// review ledger: JSON gentle-ai.review-ledger/v1 with or without --json.
struct LedgerOptions {
  std::string context;
  std::string me;  // "": the login is unknown
};

// Reads the pages of one flag; "-" (stdin) may be named once in the whole command.
class PageReader {
 public:
  Result<forge::ForgePage> Read(const std::string& label, const std::string& file) {
    if (file == "-") {
      if (stdin_used_) {
        return Status(Code::kUsage, label + ": stdin (-) may be named only once")
            .WithDetail(DetailKey::kInput, label);
      }
      stdin_used_ = true;
    }
    forge::Source source{label, file};
    GENTLE_ASSIGN_OR_RETURN(forge::Json json, forge::ReadForgeJson(source));
    return forge::ForgePage{std::move(source), std::move(json)};
  }

  Result<std::vector<forge::ForgePage>> ReadPages(const std::string& flag,
                                                  const std::vector<std::string>& files) {
    std::vector<forge::ForgePage> pages;
    for (size_t i = 0; i < files.size(); ++i) {
      GENTLE_ASSIGN_OR_RETURN(forge::ForgePage page,
                              Read(flag + " page " + std::to_string(i + 1), files[i]));
      pages.push_back(std::move(page));
    }
    return pages;
  }

 private:
  bool stdin_used_ = false;
};

Status Refuse(forge::Forge forge, const char* flag) {
  return Status(Code::kUsage,
                std::string(flag) + " does not apply to --forge " + std::string(ForgeName(forge)));
}

// GitHub's and Gitea's inputs: the pull request (--pr-view) and the REST pages.
Result<forge::RestInput> ReadRestInput(forge::Forge forge, const ContextImportOptions& o) {
  if (o.mr_view) return Refuse(forge, "--mr-view");
  if (o.comments) return Refuse(forge, "--comments");
  if (o.resolved_comments) return Refuse(forge, "--resolved-comments");
  if (!o.pr_view) {
    return Status(Code::kUsage,
                  "--forge " + std::string(ForgeName(forge)) + " needs --pr-view FILE");
  }
  PageReader reader;
  forge::RestInput input;
  GENTLE_ASSIGN_OR_RETURN(input.pr_view, reader.Read("pr-view", *o.pr_view));
  GENTLE_ASSIGN_OR_RETURN(input.issue_comments,
                          reader.ReadPages("issue-comments", o.issue_comments));
  GENTLE_ASSIGN_OR_RETURN(input.reviews, reader.ReadPages("reviews", o.reviews));
  GENTLE_ASSIGN_OR_RETURN(input.review_comments,
                          reader.ReadPages("review-comments", o.review_comments));
  return input;
}

Result<forge::ReviewContext> ImportGithub(const ContextImportOptions& o) {
  GENTLE_ASSIGN_OR_RETURN(forge::GithubInput input, ReadRestInput(forge::Forge::kGithub, o));
  return forge::ImportGithub(input);
}

Result<forge::ReviewContext> ImportGitea(const ContextImportOptions& o) {
  GENTLE_ASSIGN_OR_RETURN(forge::GiteaInput input, ReadRestInput(forge::Forge::kGitea, o));
  return forge::ImportGitea(input);
}

Result<forge::ReviewContext> ImportAone(const ContextImportOptions& o) {
  if (o.pr_view) return Refuse(forge::Forge::kAone, "--pr-view");
  if (!o.issue_comments.empty()) return Refuse(forge::Forge::kAone, "--issue-comments");
  if (!o.reviews.empty()) return Refuse(forge::Forge::kAone, "--reviews");
  if (!o.review_comments.empty()) return Refuse(forge::Forge::kAone, "--review-comments");
  if (!o.mr_view) return Status(Code::kUsage, "--forge aone needs --mr-view FILE");
  PageReader reader;
  forge::AoneInput input;
  GENTLE_ASSIGN_OR_RETURN(input.mr_view, reader.Read("mr-view", *o.mr_view));
  if (o.comments) {
    GENTLE_ASSIGN_OR_RETURN(input.comments, reader.Read("comments", *o.comments));
  }
  if (o.resolved_comments) {
    GENTLE_ASSIGN_OR_RETURN(input.resolved_comments,
                            reader.Read("resolved-comments", *o.resolved_comments));
  }
  return forge::ImportAone(input);
}

int RunContextImport(const CommonOptions& common, const ContextImportOptions& options) {
  Result<forge::ReviewContext> context =
      Status(Code::kUsage,
             "--forge must be " + forge::ForgeNameList() + ", got \"" + options.forge + "\"");
  if (const std::optional<forge::Forge> name = forge::ParseForge(options.forge)) {
    switch (*name) {
      case forge::Forge::kGithub:
        context = ImportGithub(options);
        break;
      case forge::Forge::kAone:
        context = ImportAone(options);
        break;
      case forge::Forge::kGitea:
        context = ImportGitea(options);
        break;
    }
  }
  if (!context.ok()) return ReportError(context.status(), common.json);
  const std::string text = forge::RenderReviewContext(*context);
  if (!options.output.empty()) {
    if (Status st = WriteOutputFile(options.output, text); !st.ok())
      return ReportError(st, common.json);
    return 0;
  }
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return 0;
}

int RunLedger(const CommonOptions& common, const LedgerOptions& options) {
  auto text = forge::ReadForgeInput(forge::Source{"review context", options.context});
  if (!text.ok()) return ReportError(text.status(), common.json);
  auto context = forge::ParseReviewContext(*text, options.context);
  if (!context.ok()) return ReportError(context.status(), common.json);
  auto ledger = forge::RecoverLedger(*context, options.me);
  if (!ledger.ok()) return ReportError(ledger.status(), common.json);
  return PrintJson(forge::LedgerJson(*ledger));
}

}  // namespace

void DefineContext(CLI::App* review, const Verb& verb, Invocation* in) {
  ContextImportOptions* o = in->Hold<ContextImportOptions>();
  CLI::App* context = AddGroup(review, verb);
  Command command =
      AddCommand(context, "import",
                 "Normalize what gh, a1 or Gitea's API printed into one ReviewContext JSON "
                 "(gentle-ai.review-context/v1)",
                 in);
  command.AddOption("--forge", &o->forge, "github | aone | gitea").Required();
  command
      .AddOption("--pr-view", &o->pr_view_text,
                 "github: gh pr view --json ... output; gitea: /pulls/N (- stdin)")
      .TypeName("FILE");
  command
      .AddOption("--issue-comments", &o->issue_comments,
                 "github, gitea: one page of /issues/N/comments (repeatable)")
      .TypeName("FILE");
  command
      .AddOption("--reviews", &o->reviews,
                 "github, gitea: one page of /pulls/N/reviews (repeatable)")
      .TypeName("FILE");
  command
      .AddOption("--review-comments", &o->review_comments,
                 "github: one page of /pulls/N/comments; gitea: of /pulls/N/reviews/ID/comments "
                 "(repeatable)")
      .TypeName("FILE");
  command.AddOption("--mr-view", &o->mr_view_text, "aone: a1 repo mr view output").TypeName("FILE");
  command.AddOption("--comments", &o->comments_text, "aone: the default comment list")
      .TypeName("FILE");
  command
      .AddOption("--resolved-comments", &o->resolved_comments_text,
                 "aone: the --resolved comment list")
      .TypeName("FILE");
  command
      .AddOption("--output", &o->output,
                 "Write the context to FILE (a regular file or a new path; atomically)")
      .TypeName("FILE");
  command.OnParsed([in, o, command] {
    if (Given(command, "--pr-view")) o->pr_view = o->pr_view_text;
    if (Given(command, "--mr-view")) o->mr_view = o->mr_view_text;
    if (Given(command, "--comments")) o->comments = o->comments_text;
    if (Given(command, "--resolved-comments")) o->resolved_comments = o->resolved_comments_text;
    in->Choose([in, o] { return RunContextImport(in->common, *o); });
  });
}

void DefineLedger(CLI::App* review, const Verb& verb, Invocation* in) {
  LedgerOptions* o = in->Hold<LedgerOptions>();
  Command ledger = AddCommand(review, verb, in);
  ledger.AddOption("--context", &o->context, "The ReviewContext file (- stdin)")
      .TypeName("FILE")
      .Required();
  ledger
      .AddOption("--me", &o->me,
                 "The forge login of this harness; \"\" when unknown (fails closed on a "
                 "critical root marker)")
      .Required();
  ledger.OnParsed([in, o] { in->Choose([in, o] { return RunLedger(in->common, *o); }); });
}

}  // namespace gentle::cli
