#include "forge/forge_json.h"

#include <string>
#include <vector>

#include "store/go_json.h"

namespace gentle::forge {
namespace {

// Follows a parse to the value it stops at, building nothing: the JSON path of that value (a
// member after its key, an array element by its index) and nlohmann's reason. Run only after a
// parse failed, so a well-formed input is parsed once.
class FailureLocator final : public nlohmann::json_sax<Json> {
 public:
  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open(false); }
  bool start_array(std::size_t) override { return Open(true); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& name) override {
    open_.back().key = name;
    return true;
  }
  bool parse_error(std::size_t, const std::string& token,
                   const nlohmann::detail::exception& e) override {
    path_ = Path();
    token_ = token;
    out_of_range_ = dynamic_cast<const Json::out_of_range*>(&e) != nullptr;
    return false;
  }

  const std::string& path() const { return path_; }
  const std::string& token() const { return token_; }
  bool out_of_range() const { return out_of_range_; }

 private:
  struct Container {
    bool array;
    size_t next = 0;  // arrays: the index of the element being read
    std::string key;  // objects: the member being read
  };

  // The path of the value being read now.
  std::string Path() const {
    std::string path;
    for (const Container& c : open_)
      path = c.array ? IndexPath(path, c.next) : MemberPath(path, c.key);
    return path;
  }
  bool Value() {
    if (!open_.empty() && open_.back().array) ++open_.back().next;
    return true;
  }
  bool Open(bool array) {
    open_.push_back(Container{array, 0, {}});
    return true;
  }
  bool Close() {
    open_.pop_back();
    return Value();
  }

  std::vector<Container> open_;
  std::string path_;
  std::string token_;
  bool out_of_range_ = false;
};

}  // namespace

Result<Json> ParseForgeJson(const Source& source, std::string_view text) {
  if (!store::IsValidUtf8(text)) return FieldError(source, "", "not valid UTF-8");
  try {
    return Json::parse(text.begin(), text.end());
  } catch (const Json::exception& e) {
    FailureLocator locator;
    Json::sax_parse(text.begin(), text.end(), &locator);
    if (locator.out_of_range()) {
      return FieldError(source, locator.path(), "a number out of range: " + locator.token());
    }
    return FieldError(source, "", std::string("not JSON: ") + e.what());
  }
}

}  // namespace gentle::forge
