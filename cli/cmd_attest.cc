// review attest.
#include <cstdio>

#include "cli/commands.h"
#include "cli/output_file.h"
#include "cli/render.h"
#include "export/attest.h"

namespace gentle::cli {

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

}  // namespace gentle::cli
