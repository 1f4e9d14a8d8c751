#include "forge/json_field.h"

#include <string>

namespace gentle::forge {

std::string MemberPath(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string IndexPath(const std::string& path, size_t index) {
  return path + "[" + std::to_string(index) + "]";
}

Status FieldError(const Source& source, const std::string& path, const std::string& what) {
  const std::string where = path.empty() ? "the top level" : path;
  return Status(Code::kUsage, source.label + " (" + source.file + "): " + where + ": " + what)
      .WithDetail(DetailKey::kInput, source.label)
      .WithDetail(DetailKey::kFile, source.file)
      .WithDetail(DetailKey::kJsonPath, where);
}

const Json* FieldReader::Find(const Json& parent, std::string_view key) {
  const auto it = parent.find(std::string(key));
  if (it == parent.end() || it->is_null()) return nullptr;
  return &*it;
}

Status FieldReader::ExpectObject(const Json& value, const std::string& path) const {
  return value.is_object() ? Status::Ok() : Error(path, "expected an object");
}

Status FieldReader::ExpectArray(const Json& value, const std::string& path) const {
  return value.is_array() ? Status::Ok() : Error(path, "expected an array");
}

Result<std::string> FieldReader::String(const Json& parent, const std::string& path,
                                        std::string_view key) const {
  GENTLE_ASSIGN_OR_RETURN(auto value, OptionalString(parent, path, key));
  if (!value) return Error(MemberPath(path, key), "missing (expected a string)");
  return *value;
}

Result<std::optional<std::string>> FieldReader::OptionalString(const Json& parent,
                                                               const std::string& path,
                                                               std::string_view key) const {
  const Json* value = Find(parent, key);
  if (value == nullptr) return std::optional<std::string>();
  if (!value->is_string()) return Error(MemberPath(path, key), "expected a string");
  return std::optional<std::string>(value->get<std::string>());
}

Result<std::string> FieldReader::Id(const Json& parent, const std::string& path,
                                    std::string_view key) const {
  GENTLE_ASSIGN_OR_RETURN(auto value, OptionalId(parent, path, key));
  if (!value) return Error(MemberPath(path, key), "missing (expected an integer id)");
  return *value;
}

Result<std::optional<std::string>> FieldReader::OptionalId(const Json& parent,
                                                           const std::string& path,
                                                           std::string_view key) const {
  const Json* value = Find(parent, key);
  if (value == nullptr) return std::optional<std::string>();
  if (value->is_number_unsigned()) {
    const uint64_t id = value->get<uint64_t>();
    if (id >= 1) return std::optional<std::string>(std::to_string(id));
  } else if (value->is_number_integer()) {
    const int64_t id = value->get<int64_t>();
    if (id >= 1) return std::optional<std::string>(std::to_string(id));
  }
  return Error(MemberPath(path, key), "expected an integer id >= 1");
}

Result<std::optional<int64_t>> FieldReader::OptionalInteger(const Json& parent,
                                                            const std::string& path,
                                                            std::string_view key,
                                                            int64_t min) const {
  const Json* value = Find(parent, key);
  if (value == nullptr) return std::optional<int64_t>();
  const std::string what = "expected an integer >= " + std::to_string(min);
  if (value->is_number_unsigned()) {
    const uint64_t n = value->get<uint64_t>();
    if (n > static_cast<uint64_t>(INT64_MAX)) return Error(MemberPath(path, key), what);
    if (static_cast<int64_t>(n) >= min) return std::optional<int64_t>(static_cast<int64_t>(n));
  } else if (value->is_number_integer()) {
    const int64_t n = value->get<int64_t>();
    if (n >= min) return std::optional<int64_t>(n);
  }
  return Error(MemberPath(path, key), what);
}

Result<bool> FieldReader::OptionalBool(const Json& parent, const std::string& path,
                                       std::string_view key, bool absent) const {
  const Json* value = Find(parent, key);
  if (value == nullptr) return absent;
  if (!value->is_boolean()) return Error(MemberPath(path, key), "expected true or false");
  return value->get<bool>();
}

Result<const Json*> FieldReader::OptionalObject(const Json& parent, const std::string& path,
                                                std::string_view key) const {
  const Json* value = Find(parent, key);
  if (value == nullptr) return static_cast<const Json*>(nullptr);
  if (!value->is_object()) return Error(MemberPath(path, key), "expected an object");
  return value;
}

}  // namespace gentle::forge
