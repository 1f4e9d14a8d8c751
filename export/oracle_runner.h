// RunOracleDiff: the pinned git CLI of docs/engine.md as a subprocess, for `--engine git`.
//
// git runs against a private temporary bare GIT_DIR whose object directory is the repository's
// (GIT_OBJECT_DIRECTORY), with no system, global or repository configuration and no attributes, so
// nothing of the user's setup can change the bytes. It runs through store::RunProgram: output above
// max_bytes stops the process and yields `budget_exceeded`; a missing object yields
// `objects_missing`; past store::kGitDiffDeadline it is killed (`busy`).
#ifndef GENTLE_EXPORT_ORACLE_RUNNER_H_
#define GENTLE_EXPORT_ORACLE_RUNNER_H_

#include <cstddef>
#include <string>

#include "store/status.h"

namespace gentle::exporter {

Result<std::string> RunOracleDiff(const std::string& common_dir, const std::string& base_tree,
                                  const std::string& candidate_tree, size_t max_bytes);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ORACLE_RUNNER_H_
