// The pinned git CLI invocation of docs/engine.md: the flags, configuration pins and
// environment under which `git diff` is the oracle the native engine must match byte for byte.
#ifndef GENTLE_EXPORT_GIT_FLAGS_H_
#define GENTLE_EXPORT_GIT_FLAGS_H_

#include <string>
#include <vector>

namespace gentle::exporter {

// The twelve diff flags reported in the envelope's derivation.git_flags, in order.
const std::vector<std::string>& PinnedDiffFlags();

// `-c key=value` pins (and -O/dev/null) that neutralise configuration known to change the bytes.
const std::vector<std::string>& PinnedConfigArgs();

// Full argv for the oracle: git [pins] diff [flags] <base> <candidate> --
std::vector<std::string> OracleArgv(const std::string& base_tree,
                                    const std::string& candidate_tree);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_GIT_FLAGS_H_
