// The one way a store file's reader takes a member from a parsed JSON object (records, their side
// files, audit records, provenance, tombstones, the recorded selector):
//
//   TypedMember   the member when it is present and of the asked type, else nullptr and why
//                 (absent or of another type), for a reader that refuses either with its own
//                 message; an integer asked for also takes an unsigned one (nlohmann keeps
//                 non-negative numbers as unsigned);
//   StringMember  the member's text, or "" when it is absent or not a string; a reader that must
//                 refuse a wrong type passes `wrong_type`, which receives the first such key.
//
// Neither throws, and neither inserts into the object (no operator[] on a non-const document).
#ifndef GENTLE_STORE_JSON_MEMBER_H_
#define GENTLE_STORE_JSON_MEMBER_H_

#include <nlohmann/json.hpp>
#include <string>

namespace gentle::store {

enum class MemberFault { kNone, kAbsent, kWrongType };

template <typename Json>
const Json* TypedMember(const Json& object, const char* key, nlohmann::json::value_t type,
                        MemberFault* fault = nullptr) {
  MemberFault found = MemberFault::kNone;
  const Json* member = nullptr;
  auto it = object.find(key);
  if (it == object.end()) {
    found = MemberFault::kAbsent;
  } else if (it->type() == type || (type == nlohmann::json::value_t::number_integer &&
                                    it->type() == nlohmann::json::value_t::number_unsigned)) {
    member = &*it;
  } else {
    found = MemberFault::kWrongType;
  }
  if (fault != nullptr) *fault = found;
  return member;
}

template <typename Json>
std::string StringMember(const Json& object, const char* key, std::string* wrong_type = nullptr) {
  MemberFault fault = MemberFault::kNone;
  const Json* member = TypedMember(object, key, nlohmann::json::value_t::string, &fault);
  if (member != nullptr) return member->template get<std::string>();
  if (fault == MemberFault::kWrongType && wrong_type != nullptr && wrong_type->empty()) {
    *wrong_type = key;
  }
  return "";
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_JSON_MEMBER_H_
