// review verify.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "export/envelope_reader.h"
#include "export/verify.h"
#include "store/file_io.h"

namespace gentle::cli {

namespace {

nlohmann::ordered_json RebaseJson(const exporter::RebasedChange& change) {
  nlohmann::ordered_json out;
  out["base_ref"] = change.base_ref;
  out["base_commit"] = change.base_commit;
  out["base_tree"] = change.base_tree;
  out["first_parent"] = change.first_parent;
  out["byte_size"] = change.byte_size;
  out["sha256"] = change.sha256;
  return out;
}

}  // namespace

int RunVerify(const CommonOptions& common, const VerifyOptions& options) {
  if (options.lineage.empty() == options.envelope.empty()) {
    return ReportError(Status(Code::kUsage, "verify needs exactly one of --lineage or --envelope"),
                       common.json);
  }
  if (options.require_signature != !options.allowed_signers.empty()) {
    return ReportError(
        Status(Code::kUsage, "--require-signature and --allowed-signers FILE go together"),
        common.json);
  }
  if (options.require_signature && options.lineage.empty()) {
    return ReportError(Status(Code::kUsage,
                              "--require-signature needs --lineage: an envelope carries no "
                              "history, so no signature"),
                       common.json);
  }
  if (options.allow_trivial_rebase && (!options.base_ref || !options.against)) {
    return ReportError(Status(Code::kUsage,
                              "--allow-trivial-rebase needs --against REV and --base-ref REF: the "
                              "change it compares is merge-base(REF, REV)..REV"),
                       common.json);
  }
  std::optional<std::string> allowed_signers;
  if (options.require_signature) allowed_signers = options.allowed_signers;
  std::optional<std::string> rebase_base_ref;
  if (options.allow_trivial_rebase) rebase_base_ref = options.base_ref;
  Result<exporter::VerifyResult> result = Status(Code::kInternal, "unreached");
  if (!options.lineage.empty()) {
    result = exporter::VerifyLineage(common.cwd, options.lineage, options.against, allowed_signers,
                                     rebase_base_ref);
  } else {
    auto text = store::ReadFileLimited(options.envelope, exporter::kMaxEnvelopeBytes);
    if (!text.ok()) {
      return ReportError(Status(Code::kUsage, "cannot read --envelope " + options.envelope),
                         common.json);
    }
    result = exporter::VerifyEnvelope(common.cwd, *text, options.against, rebase_base_ref);
  }
  if (!result.ok()) return ReportError(result.status(), common.json);
  const exporter::VerifyResult& r = *result;
  if (common.json) {
    nlohmann::ordered_json out;
    out["schema"] = "gentle-ai.review-verify/v1";
    out["verified"] = true;
    out["mode"] = options.lineage.empty() ? "envelope" : "lineage";
    out["lineage"] = r.lineage;
    out["state"] = r.state;
    out["candidate_tree"] = r.candidate_tree;
    out["against_tree"] = NullIfEmpty(r.against_tree);
    if (options.allow_trivial_rebase) {
      out["match"] = std::string(exporter::MatchName(r.match));
      if (r.rebase) out["rebase"] = RebaseJson(*r.rebase);
    }
    out["byte_size"] = r.byte_size;
    out["sha256"] = r.sha256;
    out["engine"] = std::string(exporter::EngineName(r.engine));
    if (options.envelope.empty()) out["consumed"] = r.consumed;
    if (options.envelope.empty()) out["source"] = NullIfEmpty(r.source);
    if (options.require_signature) {
      out["signature"] = {{"commit", r.approval_commit},
                          {"principal", r.signer},
                          {"key", NullIfEmpty(r.signer_key)}};
    }
    if (!options.envelope.empty()) {
      out["checked"] = exporter::EnvelopeChecked();
      out["self_asserted"] = r.self_asserted;
    }
    return PrintJson(out);
  }
  std::cout << "verified " << r.lineage << ": " << r.byte_size << " bytes, " << r.sha256 << "\n"
            << "  candidate tree: " << r.candidate_tree << "\n";
  if (!r.source.empty()) {
    std::cout << "  from the history fetched from " << r.source << " (verified whole)\n";
  }
  if (r.match == exporter::Match::kExact) {
    std::cout << "  " << *options.against << " has exactly the reviewed tree\n";
  }
  if (r.rebase) {
    std::cout << "  " << *options.against << " (tree " << r.against_tree
              << ") is a trivial rebase: "
              << "its change since " << r.rebase->base_commit
              << (r.rebase->first_parent ? " (its first parent)"
                                         : " (its merge base with " + r.rebase->base_ref + ")")
              << " is the approved patch at other line numbers\n";
  }
  if (!r.signer.empty()) {
    std::cout << "  approval signed by " << r.signer << " (history commit " << r.approval_commit
              << ")\n";
  }
  if (r.consumed) {
    std::cout << "  approved, and the approval's acknowledgement was burned since (consumed)\n";
  }
  if (!options.envelope.empty()) {
    std::cout << "  re-derived from this clone's objects: the patch, its trees, paths digest, "
                 "manifest, git flags and budget\n"
              << "  self-asserted by the envelope, not proven: its lineage, revision and state ("
              << r.state << "), so who approved it, if anyone did\n";
  }
  return 0;
}

}  // namespace gentle::cli
