// Byte-level encoding of git's pack delta format (the format only; no matching logic).
//
// Contract: a delta is varint(source size), varint(target size), then ops. A varint is
// little-endian base-128 with the high bit marking continuation. A copy op is one byte 0x80|flags
// followed by the non-zero bytes of the source offset (flags 0x01,0x02,0x04,0x08 for offset bytes
// 0..3, low first) and of the size (flags 0x10,0x20 for size bytes 0..1); a size of exactly 0x10000
// has no size bytes, because a zero size means 0x10000. An insert op is a count byte 1..127
// followed by that many literal bytes. ApplyDelta reverses the encoding and validates it (used by
// tests and debug checks).
#ifndef GENTLE_EXPORT_DELTA_OPS_H_
#define GENTLE_EXPORT_DELTA_OPS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

inline constexpr size_t kMaxCopySize = 0x10000;
inline constexpr size_t kMaxInsertSize = 127;

void AppendDeltaVarint(uint64_t value, std::string* out);

// Requires 1 <= size <= kMaxCopySize and offset < 2^32.
void AppendCopyOp(uint64_t offset, size_t size, std::string* out);

// Requires 1 <= bytes.size() <= kMaxInsertSize.
void AppendInsertOp(std::string_view bytes, std::string* out);

// Reconstructs the target from `source` and `delta`; kCorrupted if the delta is malformed.
Result<std::string> ApplyDelta(std::string_view source, std::string_view delta);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_DELTA_OPS_H_
