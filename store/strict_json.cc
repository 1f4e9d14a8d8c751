#include "store/strict_json.h"

#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "store/json_event_reader.h"

namespace gentle::store {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Builds the tree as nlohmann's DOM parser does: `open_` holds the arrays and objects being
// filled, innermost last; `member_` is the slot the last key created in the innermost object.
// Pointers stay valid: a std::map object's members are map nodes; an ordered object's members and
// an array's elements only grow at the end, after the value last received is closed.
//
// Members are added in time independent of how many the object already holds: a std::map object
// by its own keyed insert, an ordered object (a vector underneath, whose own insert searches it
// linearly) by appending, with its keys seen so far kept in a hash set to refuse a key twice.
template <typename J>
class StrictDomBuilder final : public nlohmann::json_sax<J> {
 public:
  using Base = nlohmann::json_sax<J>;
  using typename Base::binary_t;
  using typename Base::number_float_t;
  using typename Base::number_integer_t;
  using typename Base::number_unsigned_t;
  using typename Base::string_t;

  StrictDomBuilder(size_t max_depth, J* root, StrictJsonRefusal* why)
      : max_depth_(max_depth), root_(root), why_(why) {}

  bool null() override { return Put(J(nullptr)); }
  bool boolean(bool value) override { return Put(J(value)); }
  bool number_integer(number_integer_t value) override { return Put(J(value)); }
  bool number_unsigned(number_unsigned_t value) override { return Put(J(value)); }
  bool number_float(number_float_t value, const string_t&) override { return Put(J(value)); }
  bool string(string_t& value) override { return Put(J(std::move(value))); }
  bool binary(binary_t& value) override { return Put(J(std::move(value))); }

  bool start_object(std::size_t) override { return Open(J::value_t::object); }
  bool start_array(std::size_t) override { return Open(J::value_t::array); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }

  bool key(string_t& name) override {
    auto& members = open_.back().node->template get_ref<typename J::object_t&>();
    if constexpr (std::is_same_v<J, OrderedJson>) {
      if (!open_.back().keys.insert(name).second) {
        return Refuse(StrictJsonRefusal::Kind::kDuplicateKey, name);
      }
      members.emplace_back(name, J());
      member_ = &members.back().second;
    } else {
      auto [slot, inserted] = members.try_emplace(name);
      if (!inserted) return Refuse(StrictJsonRefusal::Kind::kDuplicateKey, name);
      member_ = &slot->second;
    }
    return true;
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    return Refuse(StrictJsonRefusal::Kind::kSyntax, e.what());
  }

 private:
  struct Open_ {
    J* node;
    std::unordered_set<std::string> keys;  // ordered objects only
  };

  // The slot a value read now goes to: the root, the next element of the innermost array, or the
  // member the last key named.
  J* Slot() {
    if (open_.empty()) return root_;
    J& container = *open_.back().node;
    if (container.is_array()) return &container.emplace_back();
    return member_;
  }

  // A value of either kind (scalar, array, object) inside more than max_depth containers.
  bool TooDeep() const { return open_.size() > max_depth_; }

  bool Put(J value) {
    if (TooDeep()) return Refuse(StrictJsonRefusal::Kind::kTooDeep, "");
    *Slot() = std::move(value);
    return true;
  }

  bool Open(typename J::value_t type) {
    if (TooDeep()) return Refuse(StrictJsonRefusal::Kind::kTooDeep, "");
    J* slot = Slot();
    *slot = J(type);
    open_.push_back(Open_{slot, {}});
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
  J* const root_;
  StrictJsonRefusal* const why_;
  std::vector<Open_> open_;
  J* member_ = nullptr;
};

// The fast reader first (store/json_event_reader.h); whatever it does not accept is parsed again
// from the start by nlohmann, whose answer (value or refusal) is then the answer.
template <typename J>
bool Parse(std::string_view text, size_t max_depth, J* out, StrictJsonRefusal* why) {
  {
    StrictDomBuilder<J> builder(max_depth, out, why);
    if (ReadJsonEvents(text, &builder) == JsonEventResult::kAccepted) return true;
  }
  *out = J();
  *why = StrictJsonRefusal{};
  StrictDomBuilder<J> builder(max_depth, out, why);
  return J::sax_parse(text.begin(), text.end(), &builder);
}

}  // namespace

bool ParseStrictJson(std::string_view text, size_t max_depth, Json* out, StrictJsonRefusal* why) {
  return Parse(text, max_depth, out, why);
}

bool ParseStrictOrderedJson(std::string_view text, size_t max_depth, OrderedJson* out,
                            StrictJsonRefusal* why) {
  return Parse(text, max_depth, out, why);
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
