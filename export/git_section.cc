#include "export/git_section.h"

#include "export/oracle_runner.h"
#include "store/git/git_util.h"
#include "store/test_hooks.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;

bool IsBlobMode(uint32_t mode) { return mode != 0 && mode != kModeGitlink; }

}  // namespace

bool WantsGitSection(const TreeChange& change, const ChangeFacts& facts) {
  if (!facts.known || change.status != 'M') return false;
  if (!IsBlobMode(change.old_mode) || !IsBlobMode(change.new_mode)) return false;
  const uint64_t threshold = store::GitSectionMinBytes(kGitSectionSideBytes);
  return facts.old_side.size >= threshold || facts.new_side.size >= threshold;
}

Result<bool> AppendGitSection(const std::string& common_dir, std::string_view path,
                              const FileSide& old_side, const FileSide& new_side, size_t max_bytes,
                              std::string* out) {
  const std::string old_hex = store::git::OidHex(old_side.oid);
  const std::string new_hex = store::git::OidHex(new_side.oid);
  // git's own header for two blobs: both named by id, both mode 100644.
  const std::string git_header = "diff --git a/" + old_hex + " b/" + new_hex + "\nindex " +
                                 old_hex + ".." + new_hex + " 100644\n";
  constexpr std::string_view kBinaryBody = "GIT binary patch\n";
  const size_t start = out->size();
  AppendSectionHeader(path, old_side, new_side, out);
  if (out->size() > max_bytes) return BudgetExceeded(max_bytes);
  // git's output may exceed ours by its header less ours; past that it is over the budget.
  const size_t room = max_bytes - out->size() + git_header.size();
  auto diff = RunOracleDiff(common_dir, old_hex, new_hex, room);
  if (!diff.ok()) {
    out->resize(start);
    if (diff.status().code() == Code::kBudgetExceeded) return BudgetExceeded(max_bytes);
    // A blob git cannot read (one held in memory by a capture that has not written it yet,
    // store/git/memory_writes.h): the section is written in process, which reads it or says what
    // is wrong with it.
    if (diff.status().code() == Code::kObjectsMissing) return false;
    return diff.status();
  }
  const std::string& bytes = *diff;
  if (bytes.compare(0, git_header.size(), git_header) != 0) {
    out->resize(start);
    return Status(Code::kInternal, "git diff of the blobs at " + std::string(path) +
                                       " did not begin with their diff header");
  }
  if (bytes.compare(git_header.size(), kBinaryBody.size(), kBinaryBody) != 0) {
    out->resize(start);
    return false;
  }
  out->append(bytes, git_header.size(), std::string::npos);
  if (out->size() > max_bytes) return BudgetExceeded(max_bytes);
  return true;
}

}  // namespace gentle::exporter
