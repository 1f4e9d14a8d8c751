// NameTable<E, N>: a closed vocabulary's one name table. Each enum that is printed, stored or
// parsed as text defines its names once, as {enumerator, name} pairs, and its Name and Parse
// functions read that table:
//
//   inline constexpr store::NameTable kFooNames = store::MakeNameTable<Foo>({
//       {Foo::kBar, "bar"},
//       {Foo::kBaz, "baz"},
//   });
//   inline constexpr const auto& kAllFoos = kFooNames.values;  // a Foo[N], in declaration order
//   constexpr std::string_view FooName(Foo foo) { return kFooNames.Name(foo); }
//   constexpr std::optional<Foo> ParseFoo(std::string_view name) { return kFooNames.Parse(name); }
//
// MakeNameTable is evaluated by the compiler, and a table that does not list the enumerators
// 0, 1, 2... in declaration order (a gap, a duplicate, a reordering), or has an empty or repeated
// name, does not compile. An enumerator appended after the last one listed cannot be seen this way
// (C++ cannot count an enum's enumerators): Name answers "" for it, and tests/name_tables_test.cc
// pins every table's names. Parse is exact: case and surrounding blanks matter, and nothing but a
// listed name reads back. Header-only, so every layer may use it without a link dependency.
#ifndef GENTLE_STORE_NAME_TABLE_H_
#define GENTLE_STORE_NAME_TABLE_H_

#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace gentle::store {

template <typename E, size_t N>
struct NameTable {
  static_assert(std::is_enum_v<E>);
  E values[N];                // every enumerator, in declaration order
  std::string_view names[N];  // names[i] is values[i]'s

  static constexpr size_t size() { return N; }

  // The enumerator's name; "" only for a value outside the table.
  constexpr std::string_view Name(E value) const {
    const auto index = static_cast<size_t>(value);
    return index < N ? names[index] : std::string_view();
  }

  // The enumerator named exactly `name`; nullopt for any other text.
  constexpr std::optional<E> Parse(std::string_view name) const {
    for (size_t i = 0; i < N; ++i) {
      if (names[i] == name) return values[i];
    }
    return std::nullopt;
  }
};

namespace name_table_internal {
// Not constexpr: reaching it while the compiler evaluates MakeNameTable is a compile error.
inline void TableIsNotOneNamePerEnumeratorInOrder() {}
}  // namespace name_table_internal

template <typename E, size_t N>
consteval NameTable<E, N> MakeNameTable(const std::pair<E, std::string_view> (&entries)[N]) {
  NameTable<E, N> table{};
  for (size_t i = 0; i < N; ++i) {
    bool valid = static_cast<size_t>(entries[i].first) == i && !entries[i].second.empty();
    for (size_t j = 0; j < i; ++j) valid = valid && entries[j].second != entries[i].second;
    if (!valid) name_table_internal::TableIsNotOneNamePerEnumeratorInOrder();
    table.values[i] = entries[i].first;
    table.names[i] = entries[i].second;
  }
  return table;
}

}  // namespace gentle::store

#endif  // GENTLE_STORE_NAME_TABLE_H_
