// LIST: every lineage the store knows, read-only (docs/lifecycle.md).
#ifndef GENTLE_TRANSACTION_LIST_H_
#define GENTLE_TRANSACTION_LIST_H_

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "store/name_table.h"
#include "store/review_state.h"
#include "store/status.h"

namespace gentle::transaction {

// Where a listed lineage stands: a live record, a lineage directory without a record, burned (a
// tombstone), or retired (a quarantine audit record). One enum, one name table (ListStateName).
enum class ListState { kLive, kIncomplete, kConsumed, kRetired };

// "live", "incomplete", "consumed", "retired": the last three are the `state` list prints for a
// lineage without a live record.
inline constexpr store::NameTable kListStateNames = store::MakeNameTable<ListState>({
    {ListState::kLive, "live"},
    {ListState::kIncomplete, "incomplete"},
    {ListState::kConsumed, "consumed"},
    {ListState::kRetired, "retired"},
});
inline constexpr const auto& kAllListStates = kListStateNames.values;

constexpr std::string_view ListStateName(ListState standing) {
  return kListStateNames.Name(standing);
}
constexpr std::optional<ListState> ParseListState(std::string_view name) {
  return kListStateNames.Parse(name);
}

struct LineageSummary {
  std::string lineage;
  ListState standing = ListState::kLive;
  store::StateName state;  // kLive: the record's state, as written; empty otherwise
  std::string kind;        // empty for incomplete, consumed and retired
  std::string created_at;
  size_t path_count = 0;
  std::string revision;  // empty for incomplete, consumed and retired
  std::string evidence;  // consumed: the tombstone file; retired: the audit record (local only)
  // The remote of a fetched-only lineage, or the remote a local lineage was imported from while
  // no local mutation followed (store/provenance.h); empty otherwise.
  std::string source;

  // The `state` list prints: the record's state, or ListStateName(standing) without a record.
  std::string_view ListedState() const {
    return standing == ListState::kLive ? std::string_view(state.name()) : ListStateName(standing);
  }
};

// Every lineage the store knows: live ones (by creation time), then incomplete entries (a lineage
// directory without a record, by id), then consumed, then retired (the newest audit record of
// each). A lineage is listed once: an incomplete entry whose lineage has an effective tombstone or
// audit record is listed consumed or retired. From the index, plus one scan of v2/ for incomplete
// entries (they have no committed row); without an index (a fresh or Go-written store), from the
// files, with the same answer. Then the lineages known only from fetched histories (store/
// fetched_lineage.h), by id, with `source`: each is verified whole first, and one that does not
// verify (`corrupted`) or that two remotes disagree on (`ambiguous`) fails the list before any
// entry is visited; a terminal one is listed consumed or retired. Unreadable records are not
// lineages here; `review fsck` reports them. Streamed to `visit`: with an index, memory does not
// grow with the number of lineages (duplicates are found by keyed lookups on a second read-only
// connection).
Status VisitLineages(const std::string& cwd,
                     const std::function<void(const LineageSummary&)>& visit);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_LIST_H_
