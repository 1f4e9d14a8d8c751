// Burn tombstones, <root>/terminal-consumption/v1/<key>.json (docs/format.md; gentle-ai's
// compact_terminal_consumption format).
//
// key = hex(sha256(repoKey + "\n" + target)), repoKey = "sha256:" + hex(sha256(worktree root)).
// Payload: compact JSON, no trailing newline, members in this order:
//   {"schema":"gentle-ai.review-terminal-consumption/v1","repository":R,"target":T,"lineage":L}
// ParseTombstone is strict like gentle-ai's reader: a regular file of at most 4096 bytes, one flat
// JSON object parsed strictly (store/strict_json.h: no key twice, no trailing data, UTF-8), the
// schema, a sha256 repository and target, a valid lineage id, and a file name that binds them.
#ifndef GENTLE_STORE_TOMBSTONE_H_
#define GENTLE_STORE_TOMBSTONE_H_

#include <string>
#include <string_view>

#include "store/index/index_db.h"
#include "store/layout.h"
#include "store/status.h"

namespace gentle::store {

inline constexpr std::string_view kTombstoneSchema = "gentle-ai.review-terminal-consumption/v1";
inline constexpr size_t kMaxTombstoneBytes = 4096;

// 64 lowercase hex: the file name without ".json".
std::string TombstoneKey(std::string_view repo_key, std::string_view target_identity);
std::string TombstonePath(const StoreLayout& layout, std::string_view key);

std::string EncodeTombstone(std::string_view repo_key, std::string_view target_identity,
                            std::string_view lineage);

// The row a tombstone file implies (status committed). kCorrupted when it does not bind.
Result<index::TombstoneRow> ParseTombstone(std::string_view bytes, std::string_view key);

// Reads and parses <tombstone_dir>/<key>.json. kNotFound when absent.
Result<index::TombstoneRow> LoadTombstone(const StoreLayout& layout, std::string_view key);

// `consumed` when the candidate `target_identity` was approved and burned in the worktree rooted at
// `worktree_root` (a keyed probe of its tombstone path, symlinks refused as everywhere in the
// store); Ok otherwise. `lineage` names the lineage the answer is about. Read-only.
Status RefuseBurnedCandidate(const StoreLayout& layout, std::string_view worktree_root,
                             std::string_view target_identity, const std::string& lineage);

}  // namespace gentle::store

#endif  // GENTLE_STORE_TOMBSTONE_H_
