#include "store/history_replay.h"

#include <utility>

#include "store/history_verb.h"
#include "store/verdict_name.h"

namespace gentle::store {

std::optional<ReviewState> VerdictTarget(std::optional<Verdict> verdict, ReviewState from) {
  if (!verdict) return std::nullopt;
  switch (*verdict) {
    case Verdict::kApprove:
      return ReviewState::kApproved;
    case Verdict::kRequestChanges:
      return ReviewState::kCorrectionRequired;
    case Verdict::kNeedsDiscussion:
      return ReviewState::kEscalated;
    case Verdict::kFixed:
    case Verdict::kNoChanges:
      return from;
  }
  return std::nullopt;
}

bool AcceptsVerdict(const StateName& state) {
  return state.Is(ReviewState::kReviewing) || state.Is(ReviewState::kCorrectionRequired);
}

HistoryReplay::HistoryReplay(std::string lineage, std::optional<std::string> local_tip)
    : lineage_(std::move(lineage)), local_tip_(std::move(local_tip)) {}

HistoryReplay::Point HistoryReplay::PointOf(const HistoryCommit& commit, const RecordView& record,
                                            bool local) {
  Point p;
  p.id = commit.id;
  p.verb = commit.verb;
  p.verdict = commit.verdict;
  p.state = record.state;
  p.revision = record.revision;
  p.record_blob = commit.record_blob;
  p.context_unavailable = commit.context_unavailable;
  p.round = record.round;
  p.initial_identity = record.initial_snapshot.identity;
  p.current_identity = record.current_snapshot.identity;
  p.base_tree = record.current_snapshot.base_tree;
  p.candidate_tree = record.current_snapshot.candidate_tree;
  p.local = local;
  return p;
}

Status HistoryReplay::Broken(const std::string& commit, const std::string& why) const {
  return Status(Code::kCorrupted, "the history of lineage " + lineage_ +
                                      " is not valid at commit " + commit + ": " + why)
      .WithLineage(lineage_)
      .WithDetail(DetailKey::kCommit, commit);
}

Status HistoryReplay::Step(const HistoryCommit& commit, const RecordView& record) {
  if (local_tip_ && commit.id == *local_tip_) reached_local_ = true;
  Point point = PointOf(commit, record, reached_local_);
  if (later_) GENTLE_RETURN_IF_ERROR(CheckStep(point, *later_));
  const bool opens_round =
      point.verb.Is(HistoryVerb::kStart) || point.verb.Is(HistoryVerb::kRevise);
  if (approval_ && opens_round && point.round == approval_->round) {
    if (!point.context_unavailable.empty()) {
      return Broken(approval_->id, "an APPROVE in a round reviewed without its review context (" +
                                       point.context_unavailable + ")");
    }
    approval_.reset();
  }
  if (!point.local && point.verb.Is(HistoryVerb::kVerdict) &&
      point.state.Is(ReviewState::kApproved)) {
    approval_ = point;
  }
  later_ = std::move(point);
  return Status::Ok();
}

Status HistoryReplay::Finish() const {
  if (!later_) return Status::Ok();
  return CheckRoot(*later_);
}

Status HistoryReplay::CheckRoot(const Point& root) const {
  if (root.local) return Status::Ok();
  if (!root.verb.Is(HistoryVerb::kStart)) {
    return Broken(root.id, "the history does not begin with a start commit (a " + root.verb.text() +
                               " commit this store does not hold)");
  }
  if (root.round != 1 || !root.state.Is(ReviewState::kReviewing) ||
      root.initial_identity != root.current_identity) {
    return Broken(root.id, "its start commit is not a new reviewing record of generation 1");
  }
  return Status::Ok();
}

Status HistoryReplay::CheckStep(const Point& parent, const Point& child) const {
  if (child.local) return Status::Ok();  // this store's own history
  const std::string from = " from " + parent.state.name();
  if (child.verb.Is(HistoryVerb::kSync)) {
    return Broken(child.id,
                  "a sync commit above the local history's tip (it records a change no verb "
                  "made)");
  }
  if (child.verb.Is(HistoryVerb::kStart)) return Broken(child.id, "a start commit has a parent");
  if (child.initial_identity != parent.initial_identity) {
    return Broken(child.id, "its initial snapshot is not its parent's");
  }
  const bool same_round =
      child.round == parent.round && child.current_identity == parent.current_identity &&
      child.base_tree == parent.base_tree && child.candidate_tree == parent.candidate_tree;
  const std::optional<ReviewState> parent_state = parent.state.state();
  if (child.verb.Is(HistoryVerb::kVerdict)) {
    if (!parent_state || !AcceptsVerdict(parent.state)) {
      return Broken(child.id, "a verdict" + from +
                                  " (a verdict needs reviewing or "
                                  "correction_required)");
    }
    const std::optional<ReviewState> target = VerdictTarget(child.verdict.value(), *parent_state);
    if (!target) return Broken(child.id, "its Verdict trailer names no verdict");
    if (!child.state.Is(*target)) {
      return Broken(child.id, "a " + child.verdict.text() + " verdict" + from +
                                  " cannot leave the " + "record " + child.state.name());
    }
    if (!same_round) return Broken(child.id, "a verdict changes the round or its trees");
    return Status::Ok();
  }
  if (child.verb.Is(HistoryVerb::kRevise)) {
    if (parent_state != ReviewState::kCorrectionRequired) {
      return Broken(child.id, "a revise" + from + " (revise needs correction_required)");
    }
    if (child.round != parent.round + 1 || !child.state.Is(ReviewState::kReviewing) ||
        child.current_identity == parent.current_identity) {
      return Broken(child.id, "a revise that does not open the next round on a new candidate");
    }
    return Status::Ok();
  }
  if (child.verb.Is(HistoryVerb::kInvalidate)) {
    if (parent_state != ReviewState::kReviewing || parent.round != 1) {
      return Broken(child.id,
                    "an invalidate" + from + " (invalidate needs a pristine reviewing record)");
    }
    if (!child.state.Is(ReviewState::kInvalidated) || !same_round) {
      return Broken(child.id, "an invalidate that does not keep the round as it was");
    }
    return Status::Ok();
  }
  if (child.verb.Is(HistoryVerb::kCoApprove)) {
    if (parent_state != ReviewState::kApproved) {
      return Broken(child.id, "a co-approval" + from + " (a co-approval needs approved)");
    }
    if (child.revision != parent.revision || child.record_blob != parent.record_blob ||
        !same_round) {
      return Broken(child.id, "a co-approval that does not hold its parent's record and trees");
    }
    return Status::Ok();
  }
  const bool burn = child.verb.Is(HistoryVerb::kBurn);
  if (burn && parent_state != ReviewState::kApproved) {
    return Broken(child.id, "a burn" + from + " (only an approved lineage can be burned)");
  }
  if (!burn && !AcceptsAbandon(parent.state)) {
    return Broken(child.id, "an abandon" + from + " (a terminal lineage cannot be abandoned)");
  }
  if (child.revision != parent.revision) {
    return Broken(child.id, "a terminal commit that does not hold its parent's record");
  }
  return Status::Ok();
}

}  // namespace gentle::store
