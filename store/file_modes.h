// The modes of the store's files and directories: gentle-ai's wherever gentle-ai writes the same
// kind of file (docs/format.md): records, tombstones and audit records 0644, directories
// 0755, quarantine entries 0700. Files only this project writes (the index) keep 0600.
#ifndef GENTLE_STORE_FILE_MODES_H_
#define GENTLE_STORE_FILE_MODES_H_

#include <sys/types.h>

namespace gentle::store {

inline constexpr mode_t kRecordFileMode = 0644;     // review-state.json, tombstones, audit records
inline constexpr mode_t kStoreDirMode = 0755;       // gentle-ai/, review-transactions/, v2/, ...
inline constexpr mode_t kQuarantineDirMode = 0700;  // quarantine/ and its entries

}  // namespace gentle::store

#endif  // GENTLE_STORE_FILE_MODES_H_
