#include "store/go_marshal.h"

#include <nlohmann/json.hpp>

#include "store/go_json.h"

namespace gentle::store {
namespace {

void Write(const nlohmann::ordered_json& value, bool indent, int depth, std::string* out) {
  auto newline = [&](int level) {
    if (!indent) return;
    out->push_back('\n');
    out->append(static_cast<size_t>(level) * 2, ' ');
  };
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::object: {
      if (value.empty()) {
        out->append("{}");
        return;
      }
      out->push_back('{');
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out->push_back(',');
        first = false;
        newline(depth + 1);
        out->append(QuoteGoString(it.key()));
        out->append(indent ? ": " : ":");
        Write(it.value(), indent, depth + 1, out);
      }
      newline(depth);
      out->push_back('}');
      return;
    }
    case nlohmann::ordered_json::value_t::array: {
      if (value.empty()) {
        out->append("[]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (const auto& element : value) {
        if (!first) out->push_back(',');
        first = false;
        newline(depth + 1);
        Write(element, indent, depth + 1, out);
      }
      newline(depth);
      out->push_back(']');
      return;
    }
    case nlohmann::ordered_json::value_t::string:
      out->append(QuoteGoString(value.get_ref<const std::string&>()));
      return;
    default:
      out->append(value.dump());  // integers, booleans, null
  }
}

}  // namespace

std::string MarshalCompact(const nlohmann::ordered_json& value) {
  std::string out;
  Write(value, false, 0, &out);
  return out;
}

std::string MarshalIndent(const nlohmann::ordered_json& value, int depth) {
  std::string out;
  Write(value, true, depth, &out);
  return out;
}

}  // namespace gentle::store
