// review attest.
#include <cstdio>

#include "cli/output_file.h"
#include "cli/render.h"
#include "cli/verb.h"
#include "export/attest.h"

namespace gentle::cli {
namespace {

// The Statement is JSON with or without --json (which makes errors JSON too).
struct AttestOptions {
  std::string lineage;
  std::string output;           // empty: stdout
  std::string allowed_signers;  // names the counted approvals (export/approval_policy.h)
  std::optional<std::string> base_ref;
  std::string base_ref_text;  // as parsed
};

int RunAttest(const CommonOptions& common, const AttestOptions& options) {
  if (options.base_ref && options.allowed_signers.empty()) {
    return ReportError(Status(Code::kUsage,
                              "--base-ref needs --allowed-signers: who approved is known only "
                              "from a signature"),
                       common.json);
  }
  std::optional<exporter::ApprovalPolicy> policy;
  if (!options.allowed_signers.empty()) {
    policy.emplace();
    policy->allowed_signers = options.allowed_signers;
    policy->base_ref = options.base_ref;
  }
  auto attestation = exporter::Attest(common.cwd, options.lineage, policy);
  if (!attestation.ok()) return ReportError(attestation.status(), common.json);
  const std::string statement = exporter::RenderStatement(*attestation);
  if (!options.output.empty()) {
    if (Status st = WriteOutputFile(options.output, statement); !st.ok())
      return ReportError(st, common.json);
    return 0;
  }
  std::fwrite(statement.data(), 1, statement.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace

void DefineAttest(CLI::App* review, const Verb& verb, Invocation* in) {
  AttestOptions* o = in->Hold<AttestOptions>();
  Command attest = AddCommand(review, verb, in);
  attest.AddOption("--lineage", &o->lineage, "The approved lineage").Required();
  attest
      .AddOption("--output", &o->output,
                 "Write the Statement to FILE (a regular file or a new path; atomically) "
                 "instead of stdout")
      .TypeName("FILE");
  attest
      .AddOption("--allowed-signers", &o->allowed_signers,
                 "Name each approval that counts (signed as its actor by a principal of FILE, "
                 "one per person; a path or REF:PATH as for verify): its principal and key "
                 "fingerprint")
      .TypeName("FILE");
  attest
      .AddOption("--base-ref", &o->base_ref_text,
                 "With --allowed-signers: an approval by an author or committer (by email) of "
                 "REF..HEAD does not count")
      .TypeName("REF");
  attest.OnParsed([in, o, attest] {
    if (Given(attest, "--base-ref")) o->base_ref = o->base_ref_text;
    in->Choose([in, o] { return RunAttest(in->common, *o); });
  });
}

}  // namespace gentle::cli
