#include "export/trivial_rebase.h"

#include <git2.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "export/derivation.h"
#include "export/engine.h"
#include "store/git/git_util.h"
#include "store/git/verified_view.h"
#include "store/name_table.h"
#include "store/sha256.h"

namespace gentle::exporter {
namespace {

using Lines = std::vector<std::string_view>;

// One file's section of a patch: its lines, from its `diff --git` line on.
struct Section {
  Lines lines;
  bool binary = false;  // holds a `GIT binary patch` body
};

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The patch's lines (without their '\n'; text after the last '\n' is a line too), grouped into
// sections at each `diff --git ` line. No hunk or binary body line can start with it: hunk lines
// start with ' ', '+', '-' or '\', and base85 has no space.
std::vector<Section> Sections(std::string_view patch) {
  std::vector<Section> sections;
  size_t at = 0;
  while (at < patch.size()) {
    size_t end = patch.find('\n', at);
    if (end == std::string_view::npos) end = patch.size();
    const std::string_view line = patch.substr(at, end - at);
    if (sections.empty() || StartsWith(line, "diff --git ")) sections.emplace_back();
    sections.back().lines.push_back(line);
    if (line == "GIT binary patch") sections.back().binary = true;
    at = end + 1;
  }
  return sections;
}

// Reads decimal digits at `*s`; false when there are none.
bool SkipDigits(std::string_view* s) {
  size_t n = 0;
  while (n < s->size() && (*s)[n] >= '0' && (*s)[n] <= '9') ++n;
  s->remove_prefix(n);
  return n > 0;
}

// Reads "START[,COUNT]" at `*s` and returns ",COUNT" (or ""); nullopt when it is not there.
std::optional<std::string_view> SkipRange(std::string_view* s) {
  if (!SkipDigits(s)) return std::nullopt;
  const std::string_view from = *s;
  if (!s->empty() && s->front() == ',') {
    s->remove_prefix(1);
    if (!SkipDigits(s)) return std::nullopt;
  }
  return from.substr(0, from.size() - s->size());
}

// A `@@ -A[,B] +C[,D] @@...` header without its start lines A and C: ",B +,D @@..." (the counts
// and the function text kept). nullopt when the line is not such a header.
std::optional<std::string> HunkShape(std::string_view line) {
  if (!StartsWith(line, "@@ -")) return std::nullopt;
  std::string_view rest = line.substr(4);
  const auto old_count = SkipRange(&rest);
  if (!old_count || !StartsWith(rest, " +")) return std::nullopt;
  rest.remove_prefix(2);
  const auto new_count = SkipRange(&rest);
  if (!new_count || !StartsWith(rest, " @@")) return std::nullopt;
  return std::string(*old_count) + " +" + std::string(*new_count) + std::string(rest);
}

bool IsHex(std::string_view s) {
  if (s.empty()) return false;
  for (const char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

// An `index OLD..NEW[ MODE]` line with its two ids reduced to what must stay equal: their length,
// whether each is the null id (an absent side), and the mode. nullopt when not such a line.
std::optional<std::string> IndexShape(std::string_view line) {
  if (!StartsWith(line, "index ")) return std::nullopt;
  const std::string_view rest = line.substr(6);
  const size_t dots = rest.find("..");
  if (dots == std::string_view::npos) return std::nullopt;
  const std::string_view old_id = rest.substr(0, dots);
  std::string_view tail = rest.substr(dots + 2);
  const size_t space = tail.find(' ');
  const std::string_view new_id = tail.substr(0, space);
  if (!IsHex(old_id) || !IsHex(new_id)) return std::nullopt;
  auto shape = [](std::string_view id) {
    return std::to_string(id.size()) +
           (id.find_first_not_of('0') == std::string_view::npos ? "z" : "h");
  };
  std::string out = shape(old_id) + ".." + shape(new_id);
  if (space != std::string_view::npos) out += tail.substr(space);
  return out;
}

// Whether two lines of a text section are equal up to what a trivial rebase may change.
bool SameLine(std::string_view a, std::string_view b, bool in_header) {
  if (a == b) return true;
  if (in_header) {
    const auto x = IndexShape(a), y = IndexShape(b);
    return x && y && *x == *y;
  }
  const auto x = HunkShape(a), y = HunkShape(b);
  return x && y && *x == *y;
}

// Where in section `s` line `i` is, for a message.
std::string Where(const Section& s, size_t i) {
  if (s.binary) return "its binary patch";
  size_t hunk = 0;
  for (size_t k = 0; k <= i && k < s.lines.size(); ++k) {
    if (StartsWith(s.lines[k], "@@ -")) ++hunk;
  }
  return hunk == 0 ? "its header" : "hunk " + std::to_string(hunk);
}

std::string SectionName(const Section& s) {
  std::string_view first = s.lines.empty() ? std::string_view() : s.lines.front();
  if (StartsWith(first, "diff --git ")) first.remove_prefix(11);
  return std::string(first.substr(0, 200));
}

// "" when equal up to position; else where section `a` first differs from `b`.
std::string SectionDifference(const Section& a, const Section& b) {
  const size_t n = std::min(a.lines.size(), b.lines.size());
  bool in_header = true;
  for (size_t i = 0; i < n; ++i) {
    if (StartsWith(a.lines[i], "@@ -")) in_header = false;
    const bool same = a.binary || b.binary ? a.lines[i] == b.lines[i]
                                           : SameLine(a.lines[i], b.lines[i], in_header);
    if (!same) return SectionName(a) + ": " + Where(a, i) + " differs";
  }
  if (a.lines.size() == b.lines.size()) return "";
  return SectionName(a) + ": " + Where(a, n) + " differs in length";
}

Status NotReviewed(RebaseRefusal refusal, const std::string& message, const RebasedChange& change) {
  Status st(Code::kNotReviewed, message);
  st.WithDetail(DetailKey::kReason, std::string(RebaseRefusalName(refusal)));
  st.WithDetail(DetailKey::kBaseRef, change.base_ref);
  if (!change.base_commit.empty()) {
    st.WithDetail(DetailKey::kBaseCommit, change.base_commit);
    st.WithDetail(DetailKey::kBaseTree, change.base_tree);
  }
  return st;
}

Result<git_oid> CommitOf(const store::git::Repository& repo, const std::string& rev,
                         const std::string& flag) {
  auto commit = store::git::PeelRev(repo.raw(), rev, GIT_OBJECT_COMMIT);
  if (!commit.ok()) return Status(Code::kUsage, flag + ": " + commit.status().message());
  return *commit;
}

// Whether `commit` is `ref` or an ancestor of it (git merge-base --is-ancestor COMMIT REF).
Result<bool> OnBase(git_repository* view, const git_oid& commit, const git_oid& ref) {
  if (git_oid_equal(&commit, &ref)) return true;
  const int rc = git_graph_descendant_of(view, &ref, &commit);
  if (rc < 0) {
    return Status(Code::kCorrupted, "cannot walk from --base-ref to " + store::git::OidHex(commit) +
                                        ": " + store::git::LastGitError());
  }
  return rc == 1;
}

// A merge commit `head` (two parents or more) whose first parent is not on REF: refused.
Status CheckFirstParent(git_repository* view, const git_commit* head, const git_oid& ref,
                        const RebasedChange& change) {
  if (git_commit_parentcount(head) < 2) return Status::Ok();
  const git_oid first = *git_commit_parent_id(head, 0);
  GENTLE_ASSIGN_OR_RETURN(bool on_base, OnBase(view, first, ref));
  if (on_base) return Status::Ok();
  const std::string hex = store::git::OidHex(first);
  return NotReviewed(RebaseRefusal::kFirstParentOffBase,
                     "the merge commit " + store::git::OidHex(*git_commit_id(head)) +
                         " has a first parent (" + hex + ") that is not on --base-ref " +
                         change.base_ref +
                         ", so its first-parent change may sit on unreviewed code",
                     change)
      .WithDetail(DetailKey::kFirstParent, hex);
}

// Rule 1: the unique merge base of REF and HEAD, a merge HEAD's first parent on REF; every
// object read hash-checked (store/git/verified_view.h).
Status FindChangeBase(const store::git::Repository& repo, const git_oid& head, const git_oid& ref,
                      RebasedChange* change) {
  GENTLE_ASSIGN_OR_RETURN(store::git::RepositoryPtr view, store::git::OpenVerifiedView(repo.raw()));
  git_commit* raw = nullptr;
  if (git_commit_lookup(&raw, view.get(), &head) != 0) {
    return Status(Code::kCorrupted, "cannot read commit " + store::git::OidHex(head) + ": " +
                                        store::git::LastGitError());
  }
  store::git::GitPtr<git_commit, git_commit_free> commit(raw);
  GENTLE_RETURN_IF_ERROR(CheckFirstParent(view.get(), commit.get(), ref, *change));
  git_oidarray bases = {nullptr, 0};
  int rc = git_merge_bases(&bases, view.get(), &ref, &head);
  if (rc == 0 && bases.count == 0) {
    git_oidarray_dispose(&bases);
    rc = GIT_ENOTFOUND;
  }
  if (rc == GIT_ENOTFOUND) {
    return NotReviewed(RebaseRefusal::kNoMergeBase,
                       "no merge base between --base-ref " + change->base_ref + " and " +
                           store::git::OidHex(head) + ", so no change to compare",
                       *change);
  }
  if (rc != 0) {
    return Status(Code::kCorrupted, "cannot walk to the merge base: " + store::git::LastGitError());
  }
  const size_t count = bases.count;
  const git_oid base = bases.ids[0];
  git_oidarray_dispose(&bases);
  if (count != 1) {
    return NotReviewed(RebaseRefusal::kSeveralMergeBases,
                       "--base-ref " + change->base_ref + " and " + store::git::OidHex(head) +
                           " have " + std::to_string(count) +
                           " merge bases, so the change that would land is not one diff",
                       *change)
        .WithDetail(DetailKey::kMergeBases, std::to_string(count));
  }
  change->base_commit = store::git::OidHex(base);
  change->first_parent = git_commit_parentcount(commit.get()) >= 2 &&
                         git_oid_equal(&base, git_commit_parent_id(commit.get(), 0));
  GENTLE_ASSIGN_OR_RETURN(git_oid tree,
                          store::git::PeelRev(repo.raw(), change->base_commit, GIT_OBJECT_TREE));
  change->base_tree = store::git::OidHex(tree);
  return Status::Ok();
}

}  // namespace

namespace {
constexpr store::NameTable kMatchNames = store::MakeNameTable<Match>({
    {Match::kNone, "none"},
    {Match::kExact, "exact"},
    {Match::kTrivialRebase, "trivial_rebase"},
});
}  // namespace

std::string_view MatchName(Match match) { return kMatchNames.Name(match); }

std::string PatchDifference(std::string_view approved, std::string_view rebased) {
  const std::vector<Section> a = Sections(approved), b = Sections(rebased);
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    std::string difference = SectionDifference(a[i], b[i]);
    if (!difference.empty()) return difference;
  }
  if (a.size() == b.size()) return "";
  return "file sections: " + std::to_string(a.size()) + " in the approved patch, " +
         std::to_string(b.size()) + " in the change";
}

Status CheckRebaseRevs(const store::git::Repository& repo, const std::string& head,
                       const std::string& base_ref) {
  GENTLE_RETURN_IF_ERROR(CommitOf(repo, head, "--against").status());
  return CommitOf(repo, base_ref, "--base-ref").status();
}

Result<RebasedChange> MatchTrivialRebase(const store::git::Repository& repo,
                                         const std::string& head, const std::string& base_ref,
                                         const std::string& approved_patch) {
  RebasedChange change;
  change.base_ref = base_ref;
  GENTLE_ASSIGN_OR_RETURN(git_oid head_commit, CommitOf(repo, head, "--against"));
  GENTLE_ASSIGN_OR_RETURN(git_oid ref_commit, CommitOf(repo, base_ref, "--base-ref"));
  GENTLE_RETURN_IF_ERROR(FindChangeBase(repo, head_commit, ref_commit, &change));
  GENTLE_ASSIGN_OR_RETURN(
      git_oid head_tree,
      store::git::PeelRev(repo.raw(), store::git::OidHex(head_commit), GIT_OBJECT_TREE));
  auto derived =
      DeriveInterdiff(repo, change.base_tree, store::git::OidHex(head_tree), Engine::kNative);
  if (!derived.ok() && derived.status().code() == Code::kBudgetExceeded) {
    return NotReviewed(RebaseRefusal::kOverBudget,
                       "the change since " + change.base_commit +
                           " is above the patch budget, so it is not the approved patch",
                       change);
  }
  if (!derived.ok()) return derived.status();
  const std::string difference = PatchDifference(approved_patch, derived->patch);
  if (!difference.empty()) {
    return NotReviewed(RebaseRefusal::kPatchDiffers,
                       "the change " + change.base_commit + ".." + head +
                           " is not the approved patch moved to another base: " + difference,
                       change)
        .WithDetail(DetailKey::kDifference, difference);
  }
  change.byte_size = derived->patch.size();
  change.sha256 = "sha256:" + store::Sha256Hex(derived->patch);
  return change;
}

}  // namespace gentle::exporter
