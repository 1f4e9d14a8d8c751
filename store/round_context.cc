#include "store/round_context.h"

#include "store/history_ref.h"
#include "store/history_verb.h"

namespace gentle::store {
namespace {

// The round a start or revise commit opens; 0 when its Round trailer is not a decimal >= 1.
int64_t OpenedRound(const HistoryCommit& commit) {
  if (commit.verb.Is(HistoryVerb::kStart)) return 1;
  if (commit.round.empty() || commit.round.size() > 18 || commit.round[0] == '0') return 0;
  int64_t round = 0;
  for (char c : commit.round) {
    if (c < '0' || c > '9') return 0;
    round = round * 10 + (c - '0');
  }
  return round;
}

}  // namespace

Result<std::optional<RoundContext>> ReadRoundContext(const git::Repository& repo,
                                                     const std::string& tip, int64_t round) {
  std::optional<std::string> at = tip;
  while (at) {
    GENTLE_ASSIGN_OR_RETURN(HistoryCommit commit, ReadHistoryCommit(repo, *at, RecordBytes::kSkip));
    if (commit.verb.Is(HistoryVerb::kStart) || commit.verb.Is(HistoryVerb::kRevise)) {
      const int64_t opened = OpenedRound(commit);
      if (opened > round) {
        at = commit.parent;
        continue;
      }
      if (opened != round) return std::optional<RoundContext>();
      return std::optional<RoundContext>(
          RoundContext{opened, commit.id, commit.context_digest, commit.context_unavailable});
    }
    at = commit.parent;
  }
  return std::optional<RoundContext>();
}

}  // namespace gentle::store
