// Pin refs: refs/gentle-ai/reviews/<lineage> points at a commit whose tree holds the lineage's base
// tree (as "base") and candidate tree (as "candidate"), so `git gc` keeps every object a live
// lineage needs. The commit is deterministic (fixed author, time 0), so writing a pin twice for the
// same trees gives the same commit id.
#ifndef GENTLE_STORE_PIN_REF_H_
#define GENTLE_STORE_PIN_REF_H_

#include <string>
#include <vector>

#include "store/repository.h"
#include "store/status.h"

namespace gentle::store {

Status WritePinRef(const Repository& repo, const std::string& lineage, const std::string& base_tree,
                   const std::string& candidate_tree);
Status DeletePinRef(const Repository& repo, const std::string& lineage);
bool PinRefExists(const Repository& repo, const std::string& lineage);
// Lineage ids of every refs/gentle-ai/reviews/* ref, sorted.
Result<std::vector<std::string>> ListPinRefs(const Repository& repo);

}  // namespace gentle::store

#endif  // GENTLE_STORE_PIN_REF_H_
