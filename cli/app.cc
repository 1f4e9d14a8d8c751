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


  // The lifecycle verbs. Optional flags are recorded only when given (count), so an empty
  // --expected-revision is refused rather than ignored.
  LifecycleOptions life;
  std::string expected_revision, body, body_file;
  auto lineage_flag = [&](CLI::App* command) {
    command->add_option("--lineage", life.lineage, "The lineage id")->required();
  };
  auto revision_flag = [&](CLI::App* command, bool required) {
    auto* option = command->add_option("--expected-revision", expected_revision,
                                       "The revision you read (compare-and-swap)");
    if (required) option->required();
  };
  auto given = [](CLI::App* command, const char* name) {
    const CLI::Option* option = command->get_option_no_throw(name);
    return option != nullptr && option->count() > 0;
  };
  auto finish = [&](CLI::App* command) {
    if (given(command, "--expected-revision")) life.expected_revision = expected_revision;
    if (given(command, "--body")) life.body = body;
    if (given(command, "--body-file")) life.body_file = body_file;
  };

  CLI::App* verdict = review->add_subcommand("verdict", "Record a reviewer's verdict");
  AddCommon(verdict, &common);
  lineage_flag(verdict);
  verdict->add_option("--verdict", life.verdict, "APPROVE | REQUEST_CHANGES | NEEDS_DISCUSSION")
      ->required();
  verdict->add_option("--actor", life.actor, "Who decides")->required();
  verdict->add_option("--role", life.role, "The actor's role (reviewer)")->required();
  verdict->add_option("--body", body, "The review body text");
  verdict->add_option("--body-file", body_file, "A file holding the review body");
  revision_flag(verdict, false);
  verdict->callback([&] {
    finish(verdict);
    action = [&] { return RunVerdict(common, life); };
  });

  CLI::App* burn = review->add_subcommand(
      "burn", "Consume an approved lineage's acknowledgement token (exclusive lock)");
  AddCommon(burn, &common);
  lineage_flag(burn);
  burn->add_option("--token", life.token, "The token APPROVE returned")->required();
  revision_flag(burn, true);
  burn->callback([&] {
    finish(burn);
    action = [&] { return RunBurn(common, life); };
  });

  CLI::App* abandon = review->add_subcommand("abandon", "Retire a lineage into quarantine");
  AddCommon(abandon, &common);
  lineage_flag(abandon);
  abandon->add_option("--reason", life.reason, "operator_disposition | retired_schema")->required();
  abandon->add_option("--actor", life.actor, "Who decides")->required();
  revision_flag(abandon, false);
  abandon->callback([&] {
    finish(abandon);
    action = [&] { return RunAbandon(common, life); };
  });

  CLI::App* reclaim = review->add_subcommand(
      "reclaim", "Retire an incomplete lineage entry (no record) into quarantine");
  AddCommon(reclaim, &common);
  lineage_flag(reclaim);
  reclaim->add_option("--reason", life.reason, "Why")->required();
  reclaim->add_option("--actor", life.actor, "Who decides")->required();
  reclaim->callback([&] { action = [&] { return RunReclaim(common, life); }; });

  CLI::App* invalidate = review->add_subcommand(
      "invalidate", "Withdraw a pristine reviewing lineage (the record stays, invalidated)");
  AddCommon(invalidate, &common);
  lineage_flag(invalidate);
  invalidate->add_option("--reason", life.reason, "Why")->required();
  invalidate->add_option("--actor", life.actor, "Who decides")->required();
  revision_flag(invalidate, false);
  invalidate->callback([&] {
    finish(invalidate);
    action = [&] { return RunInvalidate(common, life); };
  });

  CLI::App* store = review->add_subcommand("store", "The store as a whole");
  store->require_subcommand(1);
  CLI::App* reset = store->add_subcommand(
      "reset", "Remove the whole store and its pin refs (prints the plan unless --yes)");
  AddCommon(reset, &common);
  reset->add_flag("--yes", life.yes, "Really remove");
  reset->callback([&] { action = [&] { return RunStoreReset(common, life); }; });

  CLI::App* fsck = review->add_subcommand(
      "fsck", "Prove that files, index and pin refs agree (read-only; exit 0 only when clean)");
  AddCommon(fsck, &common);
  fsck->callback([&] { action = [&] { return RunFsck(common); }; });

  CLI::App* index = review->add_subcommand("index", "The SQLite index");
  index->require_subcommand(1);
  CLI::App* rebuild =
      index->add_subcommand("rebuild", "Regenerate index.sqlite from the files alone");
  AddCommon(rebuild, &common);
  rebuild->callback([&] { action = [&] { return RunIndexRebuild(common); }; });

  for (CLI::App* command : {&app, review, start, status, list, export_context, verify, verdict,
                            burn, abandon, reclaim, invalidate, store, reset, fsck, index,
                            rebuild}) {
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
