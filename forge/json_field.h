// Typed reads of the members of forge JSON (nlohmann values already parsed), each failure a
// `usage` Status naming the input and the JSON path of the bad value, e.g.
//   reviews page 2 (r2.json): [3].user.login: expected a string
// with details {"input": "reviews page 2", "file": "r2.json", "json_path": "[3].user.login"}.
//
// "Absent" means the member is missing or JSON null; "required" reads refuse it. An id is a JSON
// integer >= 1 (what both forges give), returned as its decimal string. Unknown members are never
// looked at.
#ifndef GENTLE_FORGE_JSON_FIELD_H_
#define GENTLE_FORGE_JSON_FIELD_H_

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "store/status.h"

namespace gentle::forge {

using Json = nlohmann::json;

// Where a value came from: the input's label ("reviews page 2") and its file ("-": stdin).
struct Source {
  std::string label;
  std::string file;
};

// `path` extended by an object member or an array index: "" + "user" = "user",
// "[3]" + "user" = "[3].user", "" + 3 = "[3]".
std::string MemberPath(const std::string& path, std::string_view key);
std::string IndexPath(const std::string& path, size_t index);

// The usage Status for the value at `path` of `source`: "<label> (<file>): <path>: <what>".
Status FieldError(const Source& source, const std::string& path, const std::string& what);

class FieldReader {
 public:
  explicit FieldReader(Source source) : source_(std::move(source)) {}
  const Source& source() const { return source_; }

  // `value` itself must be an object / an array.
  Status ExpectObject(const Json& value, const std::string& path) const;
  Status ExpectArray(const Json& value, const std::string& path) const;

  // Members of the object `parent` (at `path`).
  Result<std::string> String(const Json& parent, const std::string& path,
                             std::string_view key) const;
  Result<std::optional<std::string>> OptionalString(const Json& parent, const std::string& path,
                                                    std::string_view key) const;
  Result<std::string> Id(const Json& parent, const std::string& path, std::string_view key) const;
  Result<std::optional<std::string>> OptionalId(const Json& parent, const std::string& path,
                                                std::string_view key) const;
  // A JSON integer >= min.
  Result<std::optional<int64_t>> OptionalInteger(const Json& parent, const std::string& path,
                                                 std::string_view key, int64_t min) const;
  Result<bool> OptionalBool(const Json& parent, const std::string& path, std::string_view key,
                            bool absent) const;
  // The member when it is an object; nullptr when absent; usage for any other type.
  Result<const Json*> OptionalObject(const Json& parent, const std::string& path,
                                     std::string_view key) const;

  Status Error(const std::string& path, const std::string& what) const {
    return FieldError(source_, path, what);
  }

 private:
  // The member, or nullptr when missing or null.
  static const Json* Find(const Json& parent, std::string_view key);

  Source source_;
};

}  // namespace gentle::forge

#endif  // GENTLE_FORGE_JSON_FIELD_H_
