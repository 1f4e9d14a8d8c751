// HintSink: where `review watch` delivered a hint (docs/watch.md), one enum with one name table
// (header-only): `stdout` (printed; no --exec/--on-new command for it), `exec` (the --exec
// command of the worktree owning the PR) or `on-new` (the --on-new command). A cycle's JSON
// report names the sink of each hint; code compares the enum, never the text.
#ifndef GENTLE_WATCH_HINT_SINK_H_
#define GENTLE_WATCH_HINT_SINK_H_

#include <optional>
#include <string_view>

#include "store/name_table.h"

namespace gentle::watch {

enum class HintSink { kStdout, kExec, kOnNew };

inline constexpr store::NameTable kHintSinkNames = store::MakeNameTable<HintSink>({
    {HintSink::kStdout, "stdout"},
    {HintSink::kExec, "exec"},
    {HintSink::kOnNew, "on-new"},
});
inline constexpr const auto& kAllHintSinks = kHintSinkNames.values;

constexpr std::string_view HintSinkName(HintSink value) { return kHintSinkNames.Name(value); }

// nullopt for any other text (case matters).
constexpr std::optional<HintSink> ParseHintSink(std::string_view name) {
  return kHintSinkNames.Parse(name);
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_HINT_SINK_H_
