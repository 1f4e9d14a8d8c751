#include "export/view_plan.h"

#include <algorithm>
#include <limits>
#include <set>

#include "export/entry_summary.h"
#include "export/patch_bound.h"
#include "export/patch_budget.h"
#include "export/patch_engine.h"
#include "store/git/object_reader.h"

namespace gentle::exporter {
namespace {

constexpr size_t kNoCap = std::numeric_limits<size_t>::max();

size_t AsCap(uint64_t bytes) { return bytes >= kNoCap ? kNoCap : static_cast<size_t>(bytes); }

// budget_exceeded for an entry of the review view that is not generated and cannot fit a part.
Status EntryOverBudget(const std::string& path, uint64_t size, bool exact, uint64_t max_bytes) {
  const std::string size_text = std::to_string(size);
  const std::string max_text = std::to_string(max_bytes);
  return Status(Code::kBudgetExceeded, "the entry " + path + " is " + (exact ? "" : "at least ") +
                                           size_text + " bytes, over the part size of " + max_text +
                                           " bytes, and is not generated; nothing is truncated")
      .WithDetail(DetailKey::kByteSize, size_text)
      .WithDetail(DetailKey::kByteSizeBound, exact ? "exact" : "at_least")
      .WithDetail(DetailKey::kMaxBytes, max_text)
      .WithDetail(DetailKey::kPath, path);
}

// The bytes of change `i` in the view, written to `scratch` (cleared first) up to `cap`.
Status MeasureEntry(git_repository* repo, const TreeChange& change, const ChangeFacts& facts,
                    bool summarised, size_t cap, std::string* scratch) {
  scratch->clear();
  if (summarised) return AppendEntrySummary(repo, change, scratch);
  return AppendChangeSection(repo, change, facts, cap, scratch);
}

// Greedy in order: a part takes entries while they fit; an entry that fits no part is its own.
std::vector<ViewPart> Split(const std::vector<PlannedEntry>& entries, uint64_t max_bytes) {
  std::vector<ViewPart> parts;
  ViewPart current;
  for (size_t i = 0; i < entries.size(); ++i) {
    const uint64_t bytes = entries[i].bytes;
    if (current.count > 0 && (current.bytes > max_bytes || bytes > max_bytes - current.bytes)) {
      parts.push_back(current);
      current = ViewPart{i, 0, 0};
    }
    if (current.count == 0) current.first = i;
    ++current.count;
    current.bytes += bytes;
  }
  parts.push_back(current);
  return parts;
}

}  // namespace

Result<ViewPlan> PlanView(git_repository* repo, const std::vector<TreeChange>& changes,
                          const std::vector<std::string>& generated, View view,
                          uint64_t max_bytes) {
  ViewPlan plan;
  plan.view = view;
  plan.max_bytes = max_bytes;
  plan.entries.reserve(changes.size());
  const std::set<std::string> marked(generated.begin(), generated.end());
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  const std::vector<ChangeFacts> facts = GatherFacts(odb.get(), changes);
  // In the review view an entry that is not summarised must fit a part; past this it is refused.
  const size_t review_cap = AsCap(std::max<uint64_t>(max_bytes, kMeasureLimitBytes));
  std::string scratch;
  for (size_t i = 0; i < changes.size(); ++i) {
    const TreeChange& change = changes[i];
    PlannedEntry entry;
    entry.path = change.path;
    entry.summarised = view == View::kReview && marked.count(change.path) > 0;
    const bool bounded = view == View::kReview && !entry.summarised;
    Status status = MeasureEntry(repo, change, facts[i], entry.summarised,
                                 bounded ? review_cap : kNoCap, &scratch);
    if (bounded && status.code() == Code::kBudgetExceeded) {
      const uint64_t lower =
          std::max<uint64_t>(uint64_t{review_cap} + 1, ChangeLowerBound(change, facts[i]));
      return EntryOverBudget(change.path, lower, false, max_bytes);
    }
    GENTLE_RETURN_IF_ERROR(status);
    entry.bytes = scratch.size();
    if (bounded && entry.bytes > max_bytes) {
      return EntryOverBudget(change.path, entry.bytes, true, max_bytes);
    }
    plan.entries.push_back(std::move(entry));
  }
  plan.parts = Split(plan.entries, max_bytes);
  return plan;
}

Status AppendViewPart(git_repository* repo, const std::vector<TreeChange>& changes,
                      const ViewPlan& plan, size_t index, std::string* out) {
  if (index >= plan.parts.size() || plan.entries.size() != changes.size()) {
    return Status(Code::kInternal, "view part " + std::to_string(index + 1) + " is not planned");
  }
  const ViewPart& part = plan.parts[index];
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  const std::vector<TreeChange> slice(
      changes.begin() + static_cast<ptrdiff_t>(part.first),
      changes.begin() + static_cast<ptrdiff_t>(part.first + part.count));
  const std::vector<ChangeFacts> facts = GatherFacts(odb.get(), slice);
  const size_t start = out->size();
  for (size_t i = 0; i < slice.size(); ++i) {
    const PlannedEntry& entry = plan.entries[part.first + i];
    if (entry.summarised) {
      GENTLE_RETURN_IF_ERROR(AppendEntrySummary(repo, slice[i], out));
    } else {
      GENTLE_RETURN_IF_ERROR(AppendChangeSection(repo, slice[i], facts[i], kNoCap, out));
    }
  }
  if (out->size() - start != part.bytes) {
    return Status(Code::kInternal,
                  "view part " + std::to_string(index + 1) + " changed size while it was written");
  }
  return Status::Ok();
}

}  // namespace gentle::exporter
