// review verdict.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "export/posted_comment.h"
#include "store/named_file.h"
#include "transaction/verdict.h"

namespace gentle::cli {
namespace {

struct VerdictOptions {
  std::string lineage;
  std::string verdict;
  std::string actor;
  std::string role;
  std::optional<std::string> body;
  std::optional<std::string> body_file;
  std::optional<std::string> expected_revision;
  bool sign = false;
  std::string body_text, body_file_text, revision_text;  // as parsed
};

Result<std::string> ReadBody(const VerdictOptions& o) {
  if (o.body.has_value() == o.body_file.has_value()) {
    return Status(Code::kUsage, "give exactly one of --body and --body-file");
  }
  if (o.body) return *o.body;
  // A regular file only (a FIFO would block the read), of at most 1 MiB.
  auto text = store::ReadNamedFile(*o.body_file, exporter::kMaxBodyBytes);
  if (!text.ok()) {
    return Status(Code::kUsage, "--body-file " + *o.body_file + ": " + text.status().message())
        .WithDetail(DetailKey::kFile, *o.body_file);
  }
  return text;
}

int RunVerdict(const CommonOptions& common, const VerdictOptions& o) {
  transaction::VerdictRequest request{common.cwd,
                                      o.lineage,
                                      store::VerdictWord::FromText(o.verdict),
                                      o.actor,
                                      store::RoleWord::FromText(o.role),
                                      "",
                                      o.expected_revision,
                                      o.sign};
  if (Status st = transaction::ValidateVerdictRequest(request); !st.ok()) {
    return ReportError(st, common.json);
  }
  auto body = ReadBody(o);
  if (!body.ok()) return ReportError(body.status(), common.json);
  request.body = *body;
  auto result = transaction::GiveVerdict(request);
  if (!result.ok()) return ReportError(result.status(), common.json);
  const transaction::VerdictResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-verdict/v1";
    out["lineage"] = r.lineage;
    out["verdict"] = store::VerdictName(r.verdict);
    out["previous_state"] = r.previous_state.name();
    out["state"] = r.state.name();
    out["previous_revision"] = r.previous_revision;
    out["revision"] = r.revision;
    out["body_sha256"] = r.body_sha256;
    out["at"] = r.at;
    out["token"] = NullIfEmpty(r.token);
    out["signed"] = r.signed_approval;
    out["actor"] = r.actor;
    out["approval"] = r.approval
                          ? nlohmann::ordered_json(transaction::ApprovalOutcomeName(*r.approval))
                          : nlohmann::ordered_json();
    return PrintJson(out);
  }
  std::cout << store::VerdictName(r.verdict) << " " << r.lineage << ": " << r.previous_state.name()
            << " -> " << r.state.name() << "\n  revision: " << r.revision << "\n";
  if (r.approval == transaction::ApprovalOutcome::kCoApproval) {
    std::cout << "  a co-approval of the approved round (a history commit; the record is as it "
                 "was)\n";
  } else if (r.approval == transaction::ApprovalOutcome::kRepeat) {
    std::cout << "  this actor already approved the round: nothing written\n";
  }
  if (r.signed_approval) std::cout << "  signed:   the approval's history commit (SSH)\n";
  if (!r.token.empty()) {
    std::cout << "  token:    " << r.token
              << "\n  (shown once; `review burn` needs it with the revision above)\n";
  }
  return 0;
}

}  // namespace

void DefineVerdict(CLI::App* review, const Verb& verb, Invocation* in) {
  VerdictOptions* o = in->Hold<VerdictOptions>();
  Command command = AddCommand(review, verb, in);
  AddLineageFlag(command, &o->lineage);
  command
      .AddOption("--verdict", &o->verdict,
                 "APPROVE | REQUEST_CHANGES | NEEDS_DISCUSSION (reviewer); APPROVE | FIXED | "
                 "NO_CHANGES (docs-reviewer; FIXED and NO_CHANGES keep the state)")
      .Required();
  command.AddOption("--actor", &o->actor,
                    "Who decides (required unless --sign: then the signing key's principal in "
                    "gpg.ssh.allowedSignersFile)");
  command
      .AddOption("--role", &o->role,
                 "The actor's role: reviewer or docs-reviewer (others: forbidden)")
      .Required();
  command.AddOption("--body", &o->body_text, "The review body text");
  command.AddOption("--body-file", &o->body_file_text, "A file holding the review body")
      .TypeName("FILE");
  command.AddFlag("--sign", &o->sign,
                  "APPROVE only: sign the approval's history commit as git commit -S does "
                  "(gpg.format=ssh, user.signingKey, gpg.ssh.program; git config "
                  "gentle-ai.signApprovals=true signs without it)");
  AddRevisionFlag(command, &o->revision_text, false);
  command.OnParsed([in, o, command] {
    if (Given(command, "--expected-revision")) o->expected_revision = o->revision_text;
    if (Given(command, "--body")) o->body = o->body_text;
    if (Given(command, "--body-file")) o->body_file = o->body_file_text;
    in->Choose([in, o] { return RunVerdict(in->common, *o); });
  });
}

}  // namespace gentle::cli
