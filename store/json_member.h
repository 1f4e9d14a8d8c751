// StringMember: the one way a store file's reader takes a string member from a parsed JSON object
// (records' side files, audit records, provenance, tombstones): the member's text, or "" when it
// is absent or not a string. A reader that must refuse a wrong type passes `wrong_type`, which
// receives the first such key.
#ifndef GENTLE_STORE_JSON_MEMBER_H_
#define GENTLE_STORE_JSON_MEMBER_H_

#include <nlohmann/json.hpp>
#include <string>

namespace gentle::store {

template <typename Json>
std::string StringMember(const Json& object, const char* key, std::string* wrong_type = nullptr) {
  auto it = object.find(key);
  if (it == object.end()) return "";
  if (!it->is_string()) {
    if (wrong_type != nullptr && wrong_type->empty()) *wrong_type = key;
    return "";
  }
  return it->template get<std::string>();
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_JSON_MEMBER_H_
