// The verdict file of a history commit, `verdicts/<round>.md` (docs/format.md, "The history
// tree"), read back: a front matter between two `---` lines, one `key: <JSON string>` per line
// (verdict, actor, role, at, from_state, to_state, body_sha256), then the body.
// transaction/history_writer.h writes it (VerdictFile).
//
// ParseVerdictFile is strict: the opening `---` line, every front matter line a known key with a
// JSON string value, each key at most once, and the closing `---` line are required; anything else
// is `corrupted`. Keys missing from the front matter stay empty. The verdict, the role and the two
// states are parsed here, once, and keep their text as written (a newer gentle-ai's word reads
// back byte for byte).
#ifndef GENTLE_STORE_VERDICT_FILE_H_
#define GENTLE_STORE_VERDICT_FILE_H_

#include <string>
#include <string_view>

#include "store/review_state.h"
#include "store/status.h"
#include "store/verdict_name.h"

namespace gentle::store {

struct VerdictFileFields {
  VerdictWord verdict;
  RoleWord role;
  StateName from_state, to_state;
  std::string actor, at, body_sha256;
  std::string body;
};

Result<VerdictFileFields> ParseVerdictFile(std::string_view text);

}  // namespace gentle::store

#endif  // GENTLE_STORE_VERDICT_FILE_H_
