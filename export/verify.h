// Verify: the CI check of DESIGN.md section 9. Read-only.
//
// VerifyLineage: the record verifies (classification as export-context), its objects are present,
// the trees reproduce its paths and paths_digest, and the patch derives within the budget. With
// `against`: the tree of that revision must equal the current snapshot's candidate tree
// (`not_reviewed` otherwise) and the lineage must be `approved` (`wrong_state` otherwise).
//
// VerifyEnvelope: works in a fresh clone with no store. The envelope's candidate_diff must be
// canonical padded base64 whose decoded length is byte_size (at most 4 MiB) and whose sha256
// matches; the snapshot's identity must bind its fields; the trees in this clone must reproduce its
// paths_digest, and the patch re-derived from them must equal the envelope's bytes. Any of these
// failing is `integrity_mismatch`. With `against`, the tree of that revision must equal the
// candidate tree (`not_reviewed` otherwise).
#ifndef GENTLE_EXPORT_VERIFY_H_
#define GENTLE_EXPORT_VERIFY_H_

#include <optional>
#include <string>

#include "store/status.h"

namespace gentle::exporter {

struct VerifyResult {
  std::string lineage;
  std::string state;  // the record's (lineage mode) or the envelope's claim (envelope mode)
  std::string candidate_tree;
  std::string against_tree;  // empty without --against
  size_t byte_size = 0;
  std::string sha256;
  std::string engine;
};

Result<VerifyResult> VerifyLineage(const std::string& cwd, const std::string& lineage,
                                   const std::optional<std::string>& against);

// `envelope_json` is the file's content.
Result<VerifyResult> VerifyEnvelope(const std::string& cwd, const std::string& envelope_json,
                                    const std::optional<std::string>& against);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_VERIFY_H_
