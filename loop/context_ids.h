// The comment and review ids of a ReviewContext file (schema `gentle-ai.review-context/v1`,
// docs/context.md), for `review seen new` (docs/loop.md). Only `schema`, `comments[].id` (comment
// ids) and `verdicts[].id` (review ids: GitHub's reviews, a human's CHANGES_REQUESTED body
// included) are read; every other member is ignored, so the reader does not depend on the rest of
// the importer's schema.
//
// The schema is the importer's (forge/review_context.h kReviewContextSchema, the one constant).
// This is the one lenient reader of the format: `review seen new` reads it through
// ParseContextIds, and a round's --context binding (transaction/round_context_binding.h) through
// ReadContextIdList, each wording the refusal in its own messages. The strict, whole-schema reader
// is forge/review_context.h's ParseReviewContext (the command line's gate for --context).
//
// Contract: the file is read whole up to kMaxContextBytes (64 MiB; a larger file is refused
// without reading past the limit) and parsed strictly (store/strict_json.h: no duplicate key, at
// most 64 levels deep). The top level must be an object whose `schema` is the string above and
// whose `comments` is an array of objects, each with a string `id` that loop/comment_id.h accepts;
// `verdicts`, when present, the same. Anything else is `usage` naming the file and the JSON path
// (`comments[3].id`, `verdicts[0].id`). The ids are returned in the file's order, the comments
// first, then the reviews, each once (a repeated id keeps its first place).
#ifndef GENTLE_LOOP_CONTEXT_IDS_H_
#define GENTLE_LOOP_CONTEXT_IDS_H_

#include <string>
#include <string_view>
#include <vector>

#include "loop/comment_id.h"
#include "store/status.h"

namespace gentle::loop {

inline constexpr size_t kMaxContextBytes = size_t{64} << 20;

// Why a text is not a context the rules above accept: what is wrong and where.
struct ContextIdsRefusal {
  enum class Kind {
    kTooLarge,     // over kMaxContextBytes                              (path "$")
    kNotJson,      // not strict JSON; `reason` says how                 (path "$")
    kNotObject,    // the top level or a list item is not an object      ("$", "comments[3]")
    kSchema,       // `schema` is missing, not a string or another one   ("schema")
    kNotArray,     // `comments` missing or not an array, `verdicts` not one
    kIdNotString,  // an item's `id` is missing or not a string          ("comments[3].id")
    kIdInvalid,    // an item's `id` is not a comment id (loop/comment_id.h)
  };
  Kind kind = Kind::kNotJson;
  std::string path;    // the JSON path, "$" for the whole text
  std::string reason;  // the rule that failed, in `seen new`'s words
};

// The rules above on `text`: the ids into `ids` (cleared first), or false and `why`.
bool ReadContextIdList(std::string_view text, std::vector<SeenId>* ids, ContextIdsRefusal* why);

Result<std::vector<SeenId>> ReadContextIds(const std::string& path);

// The same rules on text already read (`name` is the file name used in messages).
Result<std::vector<SeenId>> ParseContextIds(std::string_view text, const std::string& name);

}  // namespace gentle::loop

#endif  // GENTLE_LOOP_CONTEXT_IDS_H_
