#include "export/git_flags.h"

namespace gentle::exporter {

const std::vector<std::string>& PinnedDiffFlags() {
  static const std::vector<std::string> kFlags = {"--binary",
                                                  "--full-index",
                                                  "--no-color",
                                                  "--no-renames",
                                                  "--no-ext-diff",
                                                  "--no-textconv",
                                                  "--diff-algorithm=myers",
                                                  "--no-indent-heuristic",
                                                  "--unified=3",
                                                  "--ignore-submodules=none",
                                                  "--src-prefix=a/",
                                                  "--dst-prefix=b/"};
  return kFlags;
}

const std::vector<std::string>& PinnedConfigArgs() {
  static const std::vector<std::string> kPins = {
      "-c", "core.quotePath=true",     "-c", "diff.suppressBlankEmpty=false",
      "-c", "diff.interHunkContext=0", "-c", "core.loosecompression=1",
      "-c", "diff.relative=false"};
  return kPins;
}

std::vector<std::string> OracleArgv(const std::string& base_tree,
                                    const std::string& candidate_tree) {
  std::vector<std::string> argv = {"git"};
  argv.insert(argv.end(), PinnedConfigArgs().begin(), PinnedConfigArgs().end());
  argv.push_back("diff");
  argv.insert(argv.end(), PinnedDiffFlags().begin(), PinnedDiffFlags().end());
  argv.push_back("-O/dev/null");
  argv.push_back(base_tree);
  argv.push_back(candidate_tree);
  argv.push_back("--");
  return argv;
}

}  // namespace gentle::exporter
