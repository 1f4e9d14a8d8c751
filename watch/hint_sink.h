// HintSink: where `review watch` delivered a hint (docs/watch.md), one enum with one name table
// (header-only): `stdout` (printed; no --exec/--on-new command for it), `exec` (the --exec
// command of the worktree owning the PR) or `on-new` (the --on-new command). A cycle's JSON
// report names the sink of each hint; code compares the enum, never the text.
#ifndef GENTLE_WATCH_HINT_SINK_H_
#define GENTLE_WATCH_HINT_SINK_H_

#include <optional>
#include <string_view>

namespace gentle::watch {

enum class HintSink { kStdout, kExec, kOnNew };

inline constexpr HintSink kAllHintSinks[] = {HintSink::kStdout, HintSink::kExec, HintSink::kOnNew};

constexpr std::string_view HintSinkName(HintSink sink) {
  switch (sink) {
    case HintSink::kStdout:
      return "stdout";
    case HintSink::kExec:
      return "exec";
    case HintSink::kOnNew:
      return "on-new";
  }
  return "";
}

// nullopt for any other text (case matters).
constexpr std::optional<HintSink> ParseHintSink(std::string_view name) {
  for (HintSink sink : kAllHintSinks) {
    if (HintSinkName(sink) == name) return sink;
  }
  return std::nullopt;
}

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_HINT_SINK_H_
