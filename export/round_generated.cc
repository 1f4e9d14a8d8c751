#include "export/round_generated.h"

#include "store/generated_paths.h"
#include "store/round_context.h"

namespace gentle::exporter {

Result<std::vector<std::string>> ReadRoundGenerated(const store::git::Repository& repo,
                                                    const std::optional<store::HistoryCommit>& tip,
                                                    int64_t round) {
  std::vector<std::string> marked;
  if (!tip) return marked;
  GENTLE_ASSIGN_OR_RETURN(std::optional<store::RoundContext> opened,
                          store::ReadRoundContext(repo, tip->id, round));
  if (!opened) return marked;
  const std::string name(store::kHistoryGeneratedName);
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                          store::ReadHistoryFile(repo, opened->commit, name));
  if (!file) return marked;
  if (!store::DecodeGeneratedPaths(*file, &marked)) {
    return Status(Code::kCorrupted, "the history file " + name + " of commit " + opened->commit +
                                        " is not a list of increasing NUL-terminated paths")
        .WithDetail(DetailKey::kFile, name);
  }
  return marked;
}

}  // namespace gentle::exporter
