// A delta encoder whose output is meant to equal git's (`git diff --binary`) byte for byte.
//
// Contract: CreateGitDelta(source, target, max_size) returns the pack-format delta (see
// delta_ops.h) that rebuilds `target` from `source`, or nullopt when the encoder's running output
// size (inserts pending included) exceeds `max_size` at any step (0 = unlimited), or when either
// side is empty. The matching behaviour (documented in docs/binary-patch.md) was written from the
// delta format, public descriptions of git's encoder and differential testing against the git CLI;
// no git or libgit2 code was used. The index is exact (content-compared 16-byte windows), which
// equals git's behaviour whenever git does not thin an over-full hash bucket;
// DeltaIsGitIdenticalFor reports whether the source is crowded enough for git's thinning to
// possibly change the stream.
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
