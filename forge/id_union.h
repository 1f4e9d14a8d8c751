// The union by id of what several inputs hold (pages that overlap, Aone's default and --resolved
// comment lists): an item seen again with the same normalized contents is kept once; the same id
// with different contents (an edit between two fetches, or an id both an issue comment and a
// review comment) is `usage` naming both inputs, so the harness fetches again instead of the
// store picking one.
#ifndef GENTLE_FORGE_ID_UNION_H_
#define GENTLE_FORGE_ID_UNION_H_

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "forge/json_field.h"
#include "store/status.h"

namespace gentle::forge {

// T has a string `id` and operator==.
template <typename T>
class IdUnion {
 public:
  Status Add(T item, const Source& where, const std::string& path) {
    const std::string id = item.id;
    auto [it, inserted] = by_id_.try_emplace(id, std::move(item), where.label);
    if (inserted || it->second.first == item) return Status::Ok();
    return FieldError(where, path,
                      "id " + id + " was already read from " + it->second.second +
                          " with different contents (fetch the pages again)");
  }

  // The items, in id order of the map (the caller sorts).
  std::vector<T> Take() {
    std::vector<T> out;
    out.reserve(by_id_.size());
    for (auto& [id, entry] : by_id_) out.push_back(std::move(entry.first));
    by_id_.clear();
    return out;
  }

 private:
  std::map<std::string, std::pair<T, std::string>> by_id_;
};

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_ID_UNION_H_
