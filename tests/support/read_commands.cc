#include "tests/support/read_commands.h"

#include <algorithm>

namespace gentle::testing {
namespace {

const std::string kForge = std::string(GENTLE_FIXTURES_DIR) + "/forge";

void WithJson(std::vector<std::vector<std::string>>& out, std::vector<std::string> args) {
  out.push_back(args);
  args.push_back("--json");
  out.push_back(args);
}

}  // namespace

std::vector<std::vector<std::string>> ReadCommands(const ReadInputs& in) {
  std::vector<std::vector<std::string>> out;
  WithJson(out, {"version"});
  WithJson(out, {"review", "status"});
  WithJson(out, {"review", "list"});
  WithJson(out, {"review", "fsck"});
  for (const std::string& l : in.lineages) {
    for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
             {"review", "status", "--lineage", l},
             {"review", "export-context", "--lineage", l},
             {"review", "export-context", "--lineage", l, "--engine", "git"},
             {"review", "export-context", "--lineage", l, "--output", in.scratch + "/out.patch"},
             {"review", "verify", "--lineage", l},
             {"review", "verify", "--lineage", l, "--against", "HEAD"},
             {"review", "verify", "--lineage", l, "--against", "HEAD", "--base-ref", "HEAD",
              "--allow-trivial-rebase"},
             {"review", "verify", "--lineage", l, "--against", "HEAD", "--require-signature",
              "--allowed-signers", in.allowed_signers, "--min-approvals", "2", "--base-ref", "HEAD",
              "--require-signed-commits"},
             {"review", "verify", "--lineage", l, "--against", "HEAD", "--require-signature",
              "--allowed-signers", "HEAD:allowed_signers"},
             {"review", "show", "--lineage", l},
             {"review", "show", "--lineage", l, "--allowed-signers", in.allowed_signers},
             {"review", "attest", "--lineage", l},
             {"review", "attest", "--lineage", l, "--output", in.scratch + "/statement.json"},
             {"review", "attest", "--lineage", l, "--allowed-signers", in.allowed_signers,
              "--base-ref", "HEAD"},
             {"review", "comment", "--lineage", l}}) {
      WithJson(out, args);
    }
    out.push_back(
        {"review", "show", "--lineage", l, "--html", "--output", in.scratch + "/show.html"});
  }
  for (const std::string& envelope : in.envelopes) {
    out.push_back({"review", "verify", "--envelope", envelope});
    out.push_back({"review", "verify", "--json", "--envelope", envelope, "--against", "HEAD"});
  }
  WithJson(out, {"review", "parse-comment", in.comment});
  const std::string github = kForge + "/github/";
  WithJson(out, {"review", "context", "import", "--forge", "github", "--pr-view",
                 github + "pr-view.json", "--issue-comments", github + "issue-comments-1.json",
                 "--reviews", github + "reviews-1.json", "--review-comments",
                 github + "review-comments-1.json"});
  WithJson(out, {"review", "context", "import", "--forge", "aone", "--mr-view",
                 kForge + "/aone/mr-view.json", "--output", in.scratch + "/context.json"});
  const std::string context = github + "expected-context.json";
  WithJson(out, {"review", "ledger", "--context", context, "--me", "review-bot"});
  WithJson(out, {"review", "seen", "check", "--pr", kReadPr, "--id", "3001"});
  WithJson(out, {"review", "seen", "list", "--pr", kReadPr});
  WithJson(out, {"review", "seen", "new", "--pr", kReadPr, "--context", context});
  WithJson(out, {"review", "hint", "parse",
                 std::string("[pr-daemon] ") + kReadPr +
                     " reason=comments,ci skill=land updated=2026-08-19T15:42:03Z"});
  WithJson(out, {"review", "pr-state", "show", "--pr", kReadPr});
  return out;
}

std::string CommandOf(const std::vector<std::string>& args,
                      const std::vector<std::string>& leaves) {
  std::string command;
  for (const std::string& word : args) {
    const std::string longer = command.empty() ? word : command + " " + word;
    const bool prefix = std::any_of(leaves.begin(), leaves.end(), [&](const std::string& leaf) {
      return leaf == longer || leaf.rfind(longer + " ", 0) == 0;
    });
    if (!prefix) break;
    command = longer;
  }
  return command;
}

}  // namespace gentle::testing
