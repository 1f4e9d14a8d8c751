// Provenance of an imported lineage (docs/lifecycle.md, "Provenance"; docs/format.md): which
// remote the local state of a lineage came from.
//
// `review import` records, before it moves the local history ref, the remote and the fetched tip
// it brings in <root>/provenance/<lineage>.json:
//   {"schema":"gentle-ai.review-provenance/v1","lineage_id":L,"remote":R,"tip":"<commit hex>"}
// The lineage's `source` is R for as long as the local history's tip is that commit: the first
// local mutation moves the tip (the file is left as it is) and the lineage reads as local again,
// with nothing for the mutation verbs to do. A re-import writes the file again. Because the file
// and the history ref are the truth and the index holds no copy, `index rebuild` keeps it, and a
// crash between the file and the ref leaves the old tip, read as local (what it still is).
//
// ReadProvenance: R and the recorded tip, or nullopt when there is no file, the local history has
// no ref, or its tip is not the recorded one. ImportedSource: R, or "" for nullopt. A file that is
// not a regular file, is over 4 KiB, or does not parse as above (or names another lineage) is
// `corrupted` with details.path; a re-import replaces it. Read-only: one keyed file read and one
// ref read.
//
// WithSource: a refusal with the details that name the history it was read from, `source` (the
// remote) and `tip` (that history's tip commit). The terminal answers (`consumed`, `retired`) of a
// fetched-only lineage (store/fetched_lineage.h) and of an imported one (store/history_evidence.h
// AnswerRecordless) carry them alike.
#ifndef GENTLE_STORE_PROVENANCE_H_
#define GENTLE_STORE_PROVENANCE_H_

#include <optional>
#include <set>
#include <string>

#include "store/git/repository.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

inline constexpr std::string_view kProvenanceSchema = "gentle-ai.review-provenance/v1";

std::string ProvenanceDir(const StoreLayout& layout);
std::string ProvenancePath(const StoreLayout& layout, const std::string& lineage);

// The file's bytes (compact JSON, one trailing newline).
std::string EncodeProvenance(const std::string& lineage, const std::string& remote,
                             const std::string& tip);

struct Provenance {
  std::string remote;
  std::string tip;  // the commit the import brought, the local history's tip
};

Result<std::optional<Provenance>> ReadProvenance(const git::Repository& repo,
                                                 const StoreLayout& layout,
                                                 const std::string& lineage);

Result<std::string> ImportedSource(const git::Repository& repo, const StoreLayout& layout,
                                   const std::string& lineage);

Status WithSource(Status answer, const std::string& remote, const std::string& tip);

// The lineages that have a provenance file (one directory listing; empty when there is no
// provenance directory), so that a caller visiting many lineages asks ImportedSource only for
// those.
Result<std::set<std::string>> ImportedLineages(const StoreLayout& layout);

}  // namespace gentle::store

#endif  // GENTLE_STORE_PROVENANCE_H_
