#include "store/strict_json.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace gentle::store {
namespace {

using Json = nlohmann::json;

// Builds the tree as nlohmann's DOM parser does: `open_` holds the arrays and objects being
// filled, innermost last; `member_` is the slot the last key created in the innermost object.
// Pointers stay valid: an object's members are map nodes, and an array only grows at its end,
// after the element it last received is closed.
class StrictDomBuilder final : public nlohmann::json_sax<Json> {
 public:
  StrictDomBuilder(size_t max_depth, Json* root, StrictJsonRefusal* why)
      : max_depth_(max_depth), root_(root), why_(why) {}

  bool null() override { return Put(Json(nullptr)); }
  bool boolean(bool value) override { return Put(Json(value)); }
  bool number_integer(number_integer_t value) override { return Put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Put(Json(value)); }
  bool number_float(number_float_t value, const string_t&) override { return Put(Json(value)); }
  bool string(string_t& value) override { return Put(Json(std::move(value))); }
  bool binary(binary_t& value) override { return Put(Json(std::move(value))); }

  bool start_object(std::size_t) override { return Open(Json::value_t::object); }
  bool start_array(std::size_t) override { return Open(Json::value_t::array); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }

  bool key(string_t& name) override {
    Json& object = *open_.back();
    auto [slot, inserted] = object.get_ref<Json::object_t&>().try_emplace(name);
    if (!inserted) return Refuse(StrictJsonRefusal::Kind::kDuplicateKey, name);
    member_ = &slot->second;
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    return Refuse(StrictJsonRefusal::Kind::kSyntax, e.what());
  }

 private:
  // The slot a value read now goes to: the root, the next element of the innermost array, or the
  // member the last key named.
  Json* Slot() {
    if (open_.empty()) return root_;
    Json& container = *open_.back();
    if (container.is_array()) return &container.emplace_back();
    return member_;
  }

  // A value of either kind (scalar, array, object) inside more than max_depth containers.
  bool TooDeep() const { return open_.size() > max_depth_; }

  bool Put(Json value) {
    if (TooDeep()) return Refuse(StrictJsonRefusal::Kind::kTooDeep, "");
    *Slot() = std::move(value);
    return true;
  }

  bool Open(Json::value_t type) {
    if (TooDeep()) return Refuse(StrictJsonRefusal::Kind::kTooDeep, "");
    Json* slot = Slot();
    *slot = Json(type);
    open_.push_back(slot);
    return true;
  }

  bool Close() {
    open_.pop_back();
    return true;
  }

  bool Refuse(StrictJsonRefusal::Kind kind, std::string detail) {
    why_->kind = kind;
    why_->detail = std::move(detail);
    return false;
  }

  const size_t max_depth_;
  Json* const root_;
  StrictJsonRefusal* const why_;
  std::vector<Json*> open_;
  Json* member_ = nullptr;
};

}  // namespace

bool ParseStrictJson(std::string_view text, size_t max_depth, Json* out, StrictJsonRefusal* why) {
  StrictDomBuilder builder(max_depth, out, why);
  return Json::sax_parse(text.begin(), text.end(), &builder);
}

Result<nlohmann::json> ParseStrictJsonFile(std::string_view text, size_t max_depth,
                                           std::string_view subject) {
  Json parsed;
  StrictJsonRefusal why;
  if (ParseStrictJson(text, max_depth, &parsed, &why)) return parsed;
  std::string message(subject);
  switch (why.kind) {
    case StrictJsonRefusal::Kind::kDuplicateKey:
      message += " holds the key \"" + why.detail + "\" twice";
      break;
    case StrictJsonRefusal::Kind::kTooDeep:
      message += " is nested too deeply";
      break;
    case StrictJsonRefusal::Kind::kSyntax:
      message += " is not valid JSON: " + why.detail;
      break;
  }
  return Status(Code::kCorrupted, message);
}

}  // namespace gentle::store
