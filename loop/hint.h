// Hint: one `[pr-daemon]` line a PR daemon types into a session (docs/loop.md, "review hint
// parse"). A hint is a cue to query, never an instruction: the line carries an identifier, reason
// labels, a skill name and a timestamp, nothing else.
//
// ParseHint accepts exactly
//   [pr-daemon] <forge>:<owner>/<repo>#<n> reason=<r>[,<r>...] skill=<skill> updated=<time>
// - five fields in that order, separated by exactly one space, nothing before or after (no
//   leading or trailing space, no CR, no newline, no tab, no other control byte anywhere);
// - the PR key as loop/pr_key.h accepts it;
// - reasons from comments | ci | conflicts | state, comma-separated, none empty, none twice;
// - skill: land | review-pr;
// - time: exactly YYYY-MM-DDTHH:MM:SSZ, a real UTC date and time (years 0000 to 9999, month
//   lengths and leap years checked, hour 00-23, minute and second 00-59: no leap second, no
//   fraction, no offset).
// Anything else is `usage`, naming the rule that failed (never echoing the line). At most
// kMaxHintBytes. Pure, no I/O.
#ifndef GENTLE_LOOP_HINT_H_
#define GENTLE_LOOP_HINT_H_

#include <string>
#include <string_view>
#include <vector>

#include "loop/pr_key.h"
#include "store/name_table.h"
#include "store/status.h"

namespace gentle::loop {

inline constexpr std::string_view kHintSchema = "gentle-ai.review-hint/v1";
inline constexpr std::string_view kHintTag = "[pr-daemon]";
inline constexpr size_t kMaxHintBytes = 512;

// The reason labels a hint may carry (docs/watch.md "Reasons"), in the order the daemon lists
// them, and the skills it may name: one enum with one name table each. The PR daemon writes them
// (watch/reasons.h, watch/watcher.h) and ParseHint accepts exactly these.
enum class HintReason { kComments, kCi, kConflicts, kState };
inline constexpr store::NameTable kHintReasonNames = store::MakeNameTable<HintReason>({
    {HintReason::kComments, "comments"},
    {HintReason::kCi, "ci"},
    {HintReason::kConflicts, "conflicts"},
    {HintReason::kState, "state"},
});
inline constexpr const auto& kAllHintReasons = kHintReasonNames.values;

constexpr std::string_view HintReasonName(HintReason reason) {
  return kHintReasonNames.Name(reason);
}

// `land`: a worktree of the clone owns the PR (its head branch is checked out there; docs/watch.md
// "Reasons"); `review-pr`: none does.
enum class HintSkill { kLand, kReviewPr };
inline constexpr store::NameTable kHintSkillNames = store::MakeNameTable<HintSkill>({
    {HintSkill::kLand, "land"},
    {HintSkill::kReviewPr, "review-pr"},
});
inline constexpr const auto& kAllHintSkills = kHintSkillNames.values;

constexpr std::string_view HintSkillName(HintSkill skill) { return kHintSkillNames.Name(skill); }

struct Hint {
  PrKey pr;
  std::vector<std::string> reasons;  // in the line's order
  std::string skill;
  std::string updated;
};

Result<Hint> ParseHint(std::string_view line);

// The line ParseHint reads back as `hint` (the PR daemon's only way to write one): the fields
// joined as above, then checked by ParseHint itself, so a hint that could not be parsed is never
// produced (`usage` naming the rule instead).
Result<std::string> FormatHint(const Hint& hint);

// Ok when `text` is YYYY-MM-DDTHH:MM:SSZ naming a real instant (the rules above).
bool IsUtcSecondTimestamp(std::string_view text);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_HINT_H_
