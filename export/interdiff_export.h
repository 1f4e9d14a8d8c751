// ExportInterdiff: `review export-context --since-round N` (docs/loop.md). Read-only by
// construction, as ExportContext: the shared maintenance lock only, nothing written or created.
//
// The interdiff is the patch from round N's candidate tree to the current round's candidate tree,
// under the pinned flags of the context envelope (docs/format.md, "The context envelope") and
// byte-identical to the pinned `git diff` of those two trees. Round N's record comes from the
// lineage's history as for `--round N` (export/round_record.h: local, verified fetched, or a
// burned lineage's history, then reported with state `consumed`); the current round is the
// current record's. No paths digest binds the pair (no record holds one), so there is no
// integrity_mismatch; objects_missing and budget_exceeded as for the context envelope. N equal to
// the current round gives an empty patch; N < 1 is `usage`; N above the current round or absent
// from the history `not_found`; and the refusals of the lineage's classification (as for
// `export-context`) stand.
//
// The envelope (RenderInterdiffEnvelope) is `gentle-ai.review-interdiff-export/v1`: lineage,
// revision, state, source, `from` and `to` ({round, revision, candidate_tree}), then
// candidate_diff, changed_path_manifest, derivation and budget as in the context envelope
// (docs/format.md, "The interdiff envelope"). It is not an approval context: `verify --envelope`
// refuses it.
#ifndef GENTLE_EXPORT_INTERDIFF_EXPORT_H_
#define GENTLE_EXPORT_INTERDIFF_EXPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "export/derivation.h"
#include "export/engine.h"
#include "store/review_state.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr std::string_view kInterdiffSchema = "gentle-ai.review-interdiff-export/v1";

struct InterdiffRequest {
  std::string cwd = ".";
  std::string lineage;
  Engine engine = Engine::kNative;
  int64_t since_round = 0;
  // As ContextRequest::part (export/context_export.h). The review view summarises a path either
  // round (N or the current one) marked generated.
  std::optional<PartRequest> part;
};

struct InterdiffEnd {
  int64_t round = 0;
  std::string revision;  // the record revision of that round (the round's newest history commit)
  std::string candidate_tree;
};

struct InterdiffExport {
  std::string lineage;
  std::string revision;    // the lineage's current record revision
  store::StateName state;  // the lineage's state (`consumed` for a burned one)
  std::string source;      // the remote of a fetched-only lineage; empty for the local store
  InterdiffEnd from, to;
  Derived derived;
};

Result<InterdiffExport> ExportInterdiff(const InterdiffRequest& request);

// The interdiff envelope, compact, without a trailing newline.
std::string RenderInterdiffEnvelope(const InterdiffExport& interdiff);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_INTERDIFF_EXPORT_H_
