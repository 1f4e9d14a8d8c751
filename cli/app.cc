#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <cstring>

#include "cli/commands.h"
#include "cli/render.h"

namespace gentle::cli {
namespace {

bool WantsJson(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0) return true;
  }
  return false;
}

void AddCommon(CLI::App* command, CommonOptions* common) {
  command->add_option("--cwd", common->cwd, "Directory inside the repository (default: .)");
  command->add_flag("--json", common->json, "Machine-readable output (errors too)");
}

}  // namespace

int Run(int argc, char** argv) {
  CLI::App app{"gentle-ai: the review transaction store"};
  app.name("gentle-ai");
  app.require_subcommand(1);
  CLI::App* review = app.add_subcommand("review", "Review transactions: freeze, inspect, decide");
  review->require_subcommand(1);

  CommonOptions common;
  std::function<int()> action;

  transaction::Selector selector;
  CLI::App* start = review->add_subcommand(
      "start", "Freeze the live candidate into a lineage (idempotent for the same candidate)");
  AddCommon(start, &common);
  start->add_option("--kind", selector.kind, "current-changes | base-diff | commit-range");
  start->add_option("--base", selector.base, "Base revision (base-diff, commit-range)");
  start->add_option("--head", selector.head, "Head revision (commit-range)");
  start->add_flag("--staged", selector.staged, "Review the index instead of the workspace");
  start->add_option("--untracked", selector.untracked,
                    "An untracked file to include (repeatable; relative to the worktree root)");
  start->callback([&] { action = [&] { return RunStart(common, selector); }; });

  std::string status_lineage;
  CLI::App* status = review->add_subcommand(
      "status", "State and applicability of lineages against the live target (read-only)");
  AddCommon(status, &common);
  status->add_option("--lineage", status_lineage, "Only this lineage");
  status->callback([&] {
    action = [&] {
      return RunStatus(common,
                       status->count("--lineage") ? std::optional(status_lineage) : std::nullopt);
    };
  });

  CLI::App* list = review->add_subcommand("list", "Every lineage the store knows (read-only)");
  AddCommon(list, &common);
  list->callback([&] { action = [&] { return RunList(common); }; });

  ExportOptions export_options;
  CLI::App* export_context = review->add_subcommand(
      "export-context",
      "Print the frozen diff of a lineage, re-derived and verified (read-only; --json: envelope)");
  AddCommon(export_context, &common);
  export_context->add_option("--lineage", export_options.lineage, "The lineage")->required();
  export_context->add_option("--output", export_options.output, "Write to FILE instead of stdout");
  export_context->add_option("--engine", export_options.engine,
                             "native (default) or git (the pinned git CLI, for cross-checks)");
  export_context->callback(
      [&] { action = [&] { return RunExportContext(common, export_options); }; });

  VerifyOptions verify_options;
  std::string against;
  CLI::App* verify = review->add_subcommand(
      "verify", "CI check: the lineage or envelope binds its bytes; --against REV has its tree");
  AddCommon(verify, &common);
  verify->add_option("--lineage", verify_options.lineage, "Verify a lineage of this store");
  verify->add_option("--envelope", verify_options.envelope,
                     "Verify a context envelope file (works without a store)");
  verify->add_option("--against", against, "A revision whose tree must be the reviewed tree");
  verify->callback([&] {
    action = [&] {
      if (verify->count("--against")) verify_options.against = against;
      return RunVerify(common, verify_options);
    };
  });

  for (CLI::App* command : {&app, review, start, status, list, export_context, verify}) {
    command->allow_extras(false);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return ReportError(Status(Code::kUsage, e.what()), WantsJson(argc, argv));
  }
  return action ? action() : 0;
}

}  // namespace gentle::cli
