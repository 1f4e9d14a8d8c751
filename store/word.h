// Word<kTable>: a word of a closed vocabulary as a record, a file, a comment or a command line
// holds it: the enumerator when the word is one of kTable's names (store/name_table.h), and the
// text as written. The text is kept for what must stay byte for byte what came in: a verdict file
// or a history trailer written by a newer gentle-ai, an error message quoting a refused
// argument. Code asks Is(enumerator) or value(), never compares the text; text() is for writing
// and printing only. An empty Word is "no word". store/review_state.h StateName is the same idea
// for the two state vocabularies at once.
//
//   using VerdictWord = Word<kVerdictNames>;
//   VerdictWord given = VerdictWord::FromText(argument);  // parsed once, at the edge
//   if (given.Is(Verdict::kApprove)) ...
#ifndef GENTLE_STORE_WORD_H_
#define GENTLE_STORE_WORD_H_

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "store/name_table.h"

namespace gentle::store {

template <const auto& kTable>
class Word {
 public:
  using Enum = std::remove_cvref_t<decltype(kTable.values[0])>;

  Word() = default;
  Word(Enum value)  // NOLINT: implicit, a known word is its name
      : text_(kTable.Name(value)), value_(value) {}
  // The text as written; value() answers when it is one of the table's names.
  static Word FromText(std::string text) {
    Word out;
    out.value_ = kTable.Parse(text);
    out.text_ = std::move(text);
    return out;
  }

  const std::string& text() const { return text_; }
  bool empty() const { return text_.empty(); }
  std::optional<Enum> value() const { return value_; }
  bool Is(Enum value) const { return value_ == value; }
  bool operator==(const Word& other) const { return text_ == other.text_; }

 private:
  std::string text_;
  std::optional<Enum> value_;
};

}  // namespace gentle::store

#endif  // GENTLE_STORE_WORD_H_
