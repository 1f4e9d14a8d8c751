// A delta encoder whose output equals git's (`git diff --binary`, git 2.39) byte for byte.
//
// Contract: CreateGitDelta(source, target, max_size) returns the pack-format delta (see
// delta_ops.h) that rebuilds `target` from `source`, or nullopt when either side is empty or when
// the encoder's running output size (a pending insert counted with its count byte) exceeds
// `max_size` after any step (0 = unlimited) -- a later backward extension does not undo that. The
// matching behaviour is described in docs/binary-patch.md. It was written from the delta format,
// public descriptions of git's encoder, black-box probes (scripts/probe-git-delta.py) and
// differential testing against the git CLI; no git or libgit2 code was used. DeltaIsGitIdenticalFor
// names the inputs outside the measured envelope (currently only sides of 4 GiB or more) so a
// caller can route them to the CLI.
#ifndef GENTLE_EXPORT_GIT_DELTA_H_
#define GENTLE_EXPORT_GIT_DELTA_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gentle::exporter {

std::optional<std::string> CreateGitDelta(std::string_view source, std::string_view target,
                                          size_t max_size);

// False when `source` indexes so many identical 16-byte blocks that git (which caps each hash
// bucket at 64 entries and thins crowded buckets using its own fingerprint) might pick different
// matches than this encoder; the caller should then ask the git CLI. True means identity is
// expected.
bool DeltaIsGitIdenticalFor(std::string_view source, std::string_view target);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_GIT_DELTA_H_
