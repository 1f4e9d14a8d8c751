// The flags that choose and mark a round's comment, for `comment` and `post` alike (one renderer,
// cli/round_comment.h): --lineage, --round, --role, --model, --session, and --nonce for `comment`
// only (`post` draws its own). AddRoundCommentFlags defines them; ApplyRoundCommentFlags records
// the ones given (an absent flag stays nullopt).
#ifndef GENTLE_CLI_ROUND_COMMENT_FLAGS_H_
#define GENTLE_CLI_ROUND_COMMENT_FLAGS_H_

#include <string>

#include "cli/round_comment.h"
#include "cli/verb.h"

namespace gentle::cli {

// The optional flags' text as parsed.
struct RoundCommentText {
  std::string round, role, model, session, nonce;
};

void AddRoundCommentFlags(Command command, RoundCommentFlags* flags, RoundCommentText* text,
                          bool nonce);
void ApplyRoundCommentFlags(const Command& command, const RoundCommentText& text,
                            RoundCommentFlags* flags);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_ROUND_COMMENT_FLAGS_H_
