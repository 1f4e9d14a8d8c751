// Lineage id syntax: ^[a-z0-9]+(-[a-z0-9]+)*$, at most 128 bytes. Checked before any path is built
// from an id, so a hostile id can never name a file outside its lineage directory.
#ifndef GENTLE_STORE_LINEAGE_ID_H_
#define GENTLE_STORE_LINEAGE_ID_H_

#include <string_view>

#include "store/status.h"

namespace gentle::store {

inline constexpr size_t kMaxLineageIdBytes = 128;

bool IsValidLineageId(std::string_view id);
// Ok, or kUsage naming the rule the id breaks.
Status ValidateLineageId(std::string_view id);

}  // namespace gentle::store

#endif  // GENTLE_STORE_LINEAGE_ID_H_
