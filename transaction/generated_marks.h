// GeneratedMarks: which changed entries of a candidate are generated (docs/lifecycle.md,
// "Generated entries"), decided at start and revise from the candidate tree alone and frozen in
// the round's history commit (store/history_ref.h kHistoryGeneratedName), so that a later edit of
// the attributes, of the worktree or of git's configuration never changes an old round.
//
// Contract: MarkGenerated reads the `.gitattributes` blob of every directory of the candidate tree
// on the way to a changed path (the root's included; a regular file entry only, as git reads
// attributes from a tree; a file above kMaxAttrFileBytes is ignored, as git ignores it), hash
// checked and bounded before it is inflated, and answers the changed paths that
// transaction/generated_rules.h marks, in the paths' (bytewise) order. A deleted path is decided
// by the candidate tree's attributes too. A tree or blob the database cannot give is the error
// objects_missing, as for any read of the candidate.
#ifndef GENTLE_TRANSACTION_GENERATED_MARKS_H_
#define GENTLE_TRANSACTION_GENERATED_MARKS_H_

#include <git2.h>

#include <cstdint>
#include <string>
#include <vector>

#include "store/history_ref.h"
#include "store/snapshot.h"
#include "store/status.h"

namespace gentle::transaction {

// git's own limit on one attributes file (attr.c ATTR_MAX_FILE_SIZE).
inline constexpr uint64_t kMaxAttrFileBytes = uint64_t{100} << 20;

Result<std::vector<std::string>> MarkGenerated(git_odb* odb, const std::string& candidate_tree,
                                               const std::vector<std::string>& paths);

// MarkGenerated for the snapshot's candidate and changed paths, read through `repo`'s object
// database (a capture's objects held in memory included).
Result<std::vector<std::string>> MarkGenerated(git_repository* repo,
                                               const store::Snapshot& snapshot);

// Adds `file` (store/generated_paths.h EncodeGeneratedPaths of the marks) to the round's history
// commit unless it is empty (no path marked: the round's commit has no such file).
void AddGeneratedPaths(const std::string& file, store::HistoryCommitSpec* commit);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_GENERATED_MARKS_H_
