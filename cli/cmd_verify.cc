// review verify.
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/render.h"
#include "cli/verb.h"
#include "export/envelope_reader.h"
#include "export/verify.h"
#include "store/file_io.h"

namespace gentle::cli {
namespace {

struct VerifyOptions {
  std::string lineage;
  std::string envelope;  // a file path; exclusive with lineage
  std::optional<std::string> against;
  bool require_signature = false;  // with allowed_signers, --lineage only
  std::string allowed_signers;
  int min_approvals = 0;  // 0: not given (export/approval_policy.h)
  // --base-ref REF: the branch the change is merged into; self-approval exclusion with
  // allowed_signers, the rebase base with allow_trivial_rebase (docs/ci.md).
  std::optional<std::string> base_ref;
  bool allow_trivial_rebase = false;  // with base_ref and against (export/trivial_rebase.h)
  // with base_ref and allowed_signers: every commit of REF..REV signed (export/approval_policy.h)
  bool require_signed_commits = false;
  std::string against_text, base_ref_text;  // as parsed
};

// The approval policy's flags (docs/ci.md, "Approval policies"), checked before anything is read.
Status CheckPolicyFlags(const VerifyOptions& o) {
  const bool signatures = o.require_signature || o.min_approvals != 0 || o.require_signed_commits;
  if (signatures && o.lineage.empty()) {
    return Status(Code::kUsage,
                  "--require-signature, --min-approvals and --require-signed-commits need "
                  "--lineage: an envelope carries no history, so no signature");
  }
  if (o.min_approvals < 0) return Status(Code::kUsage, "--min-approvals must be at least 1");
  if (signatures != !o.allowed_signers.empty()) {
    return Status(Code::kUsage,
                  "--allowed-signers FILE goes with --require-signature, --min-approvals N or "
                  "--require-signed-commits");
  }
  if (o.require_signed_commits && !o.base_ref) {
    return Status(Code::kUsage,
                  "--require-signed-commits needs --base-ref REF: the commits it checks are "
                  "REF..REV");
  }
  // --base-ref REF is the branch the change merges into: with --allowed-signers an approval by an
  // author of REF..HEAD does not count (only a signature tells who approved); with
  // --allow-trivial-rebase the change is taken from merge-base(REF, REV). One of them, or both.
  if (o.base_ref && o.allowed_signers.empty() && !o.allow_trivial_rebase) {
    return Status(Code::kUsage,
                  "--base-ref REF goes with --allowed-signers FILE (self-approval) or "
                  "--allow-trivial-rebase");
  }
  if (o.allow_trivial_rebase && (!o.base_ref || !o.against)) {
    return Status(Code::kUsage,
                  "--allow-trivial-rebase needs --against REV and --base-ref REF: the change it "
                  "compares is merge-base(REF, REV)..REV");
  }
  return Status::Ok();
}

// An actor from a history (untrusted text) as a JSON string: no control character reaches the
// terminal.
std::string Quoted(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::ordered_json ApprovalsJson(const exporter::ApprovalTally& tally, int required) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const exporter::JudgedApproval& a : tally.approvals) {
    list.push_back({{"kind", std::string(store::ApprovalKindName(a.approval.kind))},
                    {"commit", a.approval.commit},
                    {"actor", a.approval.actor},
                    {"role", a.approval.role.text()},
                    {"principal", NullIfEmpty(a.principal)},
                    {"key", NullIfEmpty(a.key)},
                    {"counted", a.counted()},
                    {"reason", NullIfEmpty(a.reason())},
                    {"person", NullIfEmpty(a.person)},
                    {"same_as", NullIfEmpty(a.same_as)},
                    {"joined_by", a.joined_by}});
  }
  return {{"required", required}, {"count", tally.count()}, {"list", list}};
}

nlohmann::ordered_json CommitsJson(const exporter::ApprovalTally& tally) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const exporter::CommitSigner& c : tally.commit_signers) {
    list.push_back({{"commit", c.commit},
                    {"principal", c.principal},
                    {"key", NullIfEmpty(c.key)},
                    {"person", c.person}});
  }
  return list;
}

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

int RunVerify(const CommonOptions& common, const VerifyOptions& options) {
  if (options.lineage.empty() == options.envelope.empty()) {
    return ReportError(Status(Code::kUsage, "verify needs exactly one of --lineage or --envelope"),
                       common.json);
  }
  if (Status st = CheckPolicyFlags(options); !st.ok()) return ReportError(st, common.json);
  std::optional<exporter::ApprovalPolicy> policy;
  if (!options.allowed_signers.empty()) {
    policy.emplace();
    policy->allowed_signers = options.allowed_signers;
    policy->require_signature = options.require_signature;
    policy->min_approvals = std::max(options.min_approvals, 1);
    policy->base_ref = options.base_ref;
    policy->require_signed_commits = options.require_signed_commits;
  }
  std::optional<std::string> rebase_base_ref;
  if (options.allow_trivial_rebase) rebase_base_ref = options.base_ref;
  Result<exporter::VerifyResult> result = Status(Code::kInternal, "unreached");
  if (!options.lineage.empty()) {
    result = exporter::VerifyLineage(common.cwd, options.lineage, options.against, policy,
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
    out["state"] = r.state.name();
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
    if (r.tally) out["approvals"] = ApprovalsJson(*r.tally, std::max(options.min_approvals, 1));
    if (r.tally && options.require_signed_commits) out["signed_commits"] = CommitsJson(*r.tally);
    if (!options.envelope.empty()) {
      out["checked"] = exporter::EnvelopeChecked();
      out["self_asserted"] = r.self_asserted;
    }
    return PrintJson(out);
  }
  std::ostringstream human;
  human << "verified " << r.lineage << ": " << r.byte_size << " bytes, " << r.sha256 << "\n"
        << "  candidate tree: " << r.candidate_tree << "\n";
  if (!r.source.empty()) {
    human << "  from the history fetched from " << r.source << " (verified whole)\n";
  }
  if (r.match == exporter::Match::kExact) {
    human << "  " << *options.against << " has exactly the reviewed tree\n";
  }
  if (r.rebase) {
    human << "  " << *options.against << " (tree " << r.against_tree << ") is a trivial rebase: "
          << "its change since " << r.rebase->base_commit
          << (r.rebase->first_parent ? " (its first parent, on " + r.rebase->base_ref + ")"
                                     : " (its merge base with " + r.rebase->base_ref + ")")
          << " is the approved patch at other line numbers\n";
  }
  if (!r.signer.empty()) {
    human << "  approval signed by " << r.signer << " (history commit " << r.approval_commit
          << ")\n";
  }
  if (r.tally) {
    human << "  " << r.tally->count() << " counted signed approval"
          << (r.tally->count() == 1 ? "" : "s") << " (" << std::max(options.min_approvals, 1)
          << " required)\n";
    for (const exporter::JudgedApproval& a : r.tally->approvals) {
      human << "    " << (a.counted() ? "counted " : "skipped ") << Quoted(a.approval.actor) << " ("
            << store::ApprovalKindName(a.approval.kind) << " " << a.approval.commit << ")";
      if (!a.counted()) human << ": " << a.reason();
      if (a.skip == exporter::PolicySkip::kSamePerson) {
        human << " (one person with " << a.same_as << ": " << exporter::JoinedBy(a) << ")";
      }
      human << "\n";
    }
    if (options.require_signed_commits) {
      human << "  " << r.tally->commit_signers.size() << " commit"
            << (r.tally->commit_signers.size() == 1 ? "" : "s") << " of " << *options.base_ref
            << ".." << options.against.value_or("HEAD")
            << " signed by keys of the allowed signers file\n";
    }
  }
  if (r.consumed) {
    human << "  approved, and the approval's acknowledgement was burned since (consumed)\n";
  }
  if (!options.envelope.empty()) {
    human << "  re-derived from this clone's objects: the patch, its trees, paths digest, "
             "manifest, git flags and budget\n"
          << "  self-asserted by the envelope, not proven: its lineage, revision and state ("
          << r.state.name() << "), so who approved it, if anyone did\n";
  }
  PrintHuman(human.str());
  return 0;
}

}  // namespace

void DefineVerify(CLI::App* review, const Verb& verb, Invocation* in) {
  VerifyOptions* o = in->Hold<VerifyOptions>();
  Command command = AddCommand(review, verb, in);
  command.AddOption("--lineage", &o->lineage, "Verify a lineage of this store");
  command
      .AddOption("--envelope", &o->envelope,
                 "Verify a context envelope file (works without a store)")
      .TypeName("FILE");
  command
      .AddOption("--against", &o->against_text, "A revision whose tree must be the reviewed tree")
      .TypeName("REV");
  command.AddFlag("--require-signature", &o->require_signature,
                  "--lineage: the approval's history commit must carry an SSH signature by a "
                  "principal of --allowed-signers (else untrusted, exit 10)");
  command
      .AddOption("--allowed-signers", &o->allowed_signers,
                 "git's allowed signers file (with --require-signature, --min-approvals or "
                 "--require-signed-commits): a path (symlinks followed), or REF:PATH to read "
                 "it from a commit (e.g. origin/main:.github/allowed_signers), never the "
                 "worktree; a path holding ':' is written ./PATH")
      .TypeName("FILE");
  command
      .AddOption("--min-approvals", &o->min_approvals,
                 "--lineage: at least N persons of --allowed-signers (principals and keys "
                 "sharing a line, a key or a principal are one person) signed an approval of "
                 "the round as its actor (else untrusted, exit 10)")
      .TypeName("N");
  command
      .AddOption("--base-ref", &o->base_ref_text,
                 "The branch the change is to be merged into (e.g. origin/main): with "
                 "--allowed-signers an approval by an author or committer (by email) of "
                 "REF..HEAD does not count; with --allow-trivial-rebase the change is taken "
                 "from merge-base(REF, REV)")
      .TypeName("REF");
  command.AddFlag("--allow-trivial-rebase", &o->allow_trivial_rebase,
                  "With --against and --base-ref: when the tree is not the reviewed one, accept "
                  "it if its change since merge-base(REF, REV) is the approved patch at other "
                  "line numbers; a merge REV's first parent must be on REF, and a consumed "
                  "approval holds only for its exact tree (docs/ci.md)");
  command.AddFlag("--require-signed-commits", &o->require_signed_commits,
                  "With --base-ref and --allowed-signers: every commit of REF..REV must carry an "
                  "SSH signature by a key of the file (else untrusted naming the commit, exit "
                  "10), and its signer's person counts as an author for self-approval");
  command.OnParsed([in, o, command] {
    if (Given(command, "--against")) o->against = o->against_text;
    if (Given(command, "--base-ref")) o->base_ref = o->base_ref_text;
    in->Choose([in, o] { return RunVerify(in->common, *o); });
  });
}

}  // namespace gentle::cli
