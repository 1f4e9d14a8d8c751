// review context import | review ledger (docs/loop.md, docs/context.md).
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/render.h"
#include "forge/aone_import.h"
#include "forge/forge_input.h"
#include "forge/forge_name.h"
#include "forge/gitea_import.h"
#include "forge/github_import.h"
#include "forge/ledger_recovery.h"
#include "forge/review_context.h"

namespace gentle::cli {
namespace {

// Reads the pages of one flag; "-" (stdin) may be named once in the whole command.
class PageReader {
 public:
  Result<forge::ForgePage> Read(const std::string& label, const std::string& file) {
    if (file == "-") {
      if (stdin_used_) {
        return Status(Code::kUsage, label + ": stdin (-) may be named only once")
            .WithDetail("input", label);
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

}  // namespace

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

}  // namespace gentle::cli
