// The command table: one row per verb, in the order --help lists them, each naming the Define
// function of its own file, cli/cmd_<verb>.cc (cli/verb.h). cli/app.cc parses a command line with
// the row of the verb it names alone, and with every row for the root's --help, a typo and the
// generated man pages and completions.
#ifndef GENTLE_CLI_VERB_TABLE_H_
#define GENTLE_CLI_VERB_TABLE_H_

#include "cli/verb.h"

namespace gentle::cli {

void DefineStart(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineStatus(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineList(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineExportContext(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineVerify(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineAttest(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineComment(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineParseComment(CLI::App* parent, const Verb& verb, Invocation* in);
void DefinePost(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineShow(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineVerdict(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineRevise(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineBurn(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineAbandon(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineReclaim(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineInvalidate(CLI::App* parent, const Verb& verb, Invocation* in);
void DefinePush(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineFetch(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineImport(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineStore(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineFsck(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineIndex(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineRepair(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineContext(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineLedger(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineSeen(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineHint(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineWatch(CLI::App* parent, const Verb& verb, Invocation* in);
void DefinePrState(CLI::App* parent, const Verb& verb, Invocation* in);
void DefineVersion(CLI::App* parent, const Verb& verb, Invocation* in);

// The verbs of `gentle-ai review`.
inline constexpr Verb kReviewVerbs[] = {
    {"start", "Freeze the live candidate into a lineage (idempotent for the same candidate)",
     DefineStart},
    {"status",
     "State, applicability and next action of lineages against the live target (read-only; "
     "with start's selector flags: of the candidate they name)",
     DefineStatus},
    {"list", "Every lineage the store knows (read-only)", DefineList},
    {"export-context",
     "Print the frozen diff of a lineage's current round (--round N: an earlier round; "
     "--since-round N: the interdiff since it), re-derived and verified (read-only; --json: "
     "envelope)",
     DefineExportContext},
    {"verify", "CI check: the lineage or envelope binds its bytes; --against REV has its tree",
     DefineVerify},
    {"attest", "An in-toto Statement v1 for an approved (or burned) lineage's approval (read-only)",
     DefineAttest},
    {"comment",
     "Print the forge comment for a round's verdict: heading, body, verdict line, marker "
     "(read-only)",
     DefineComment},
    {"parse-comment",
     "Read a posted review comment back strictly and print it as JSON (anything else: usage)",
     DefineParseComment},
    {"post",
     "Post a round's comment on the PR (GitHub or Gitea, through their REST APIs) and record "
     "its id as posted in the seen ledger, in one crash-safe step",
     DefinePost},
    {"show",
     "A lineage for people: its timeline and a round's diff in git's style (paged, coloured on a "
     "terminal), --json the timeline as data, --html one self-contained page (read-only)",
     DefineShow},
    {"verdict", "Record a reviewer's verdict", DefineVerdict},
    {"revise",
     "Start the next review round after REQUEST_CHANGES: re-capture the live candidate with the "
     "lineage's own selector",
     DefineRevise},
    {"burn", "Consume an approved lineage's acknowledgement token (exclusive lock)", DefineBurn},
    {"abandon", "Retire a lineage into quarantine", DefineAbandon},
    {"reclaim", "Retire an incomplete lineage entry (no record) into quarantine", DefineReclaim},
    {"invalidate", "Withdraw a pristine reviewing lineage (the record stays, invalidated)",
     DefineInvalidate},
    {"push", "Push lineage histories to a remote with your git, never forced (diverged: conflict)",
     DefinePush},
    {"fetch", "Fetch a remote's lineage histories into refs/gentle-ai/remotes/R/ and verify each",
     DefineFetch},
    {"import",
     "Bring a fetched lineage into the local store: verify its whole history, fast-forward only "
     "(exclusive lock)",
     DefineImport},
    {"store", "The store as a whole", DefineStore},
    {"fsck", "Prove that files, index and history refs agree (read-only; exit 0 only when clean)",
     DefineFsck},
    {"index", "The SQLite index", DefineIndex},
    {"repair",
     "Bring histories level with the records: roll back tips ahead, record what is behind",
     DefineRepair},
    {"context", "A forge review's context (docs/loop.md)", DefineContext},
    {"ledger",
     "Recover earlier rounds from the markers in a ReviewContext's ledger carriers (JSON)",
     DefineLedger},
    {"seen",
     "The seen ledger: per pull request, the comment and review ids handled or posted "
     "(review-loop.sqlite)",
     DefineSeen},
    {"hint", "PR daemon hint lines", DefineHint},
    {"watch",
     "The PR daemon: poll GitHub and Gitea for PR changes and deliver one-line "
     "hints (--once: one cycle)",
     DefineWatch},
    {"pr-state",
     "A session's PR state: phase, head SHA, what each round asked for, what it is blocked on "
     "(review-loop.sqlite)",
     DefinePrState},
};

// The commands of `gentle-ai` beside the `review` group.
inline constexpr Verb kRootVerbs[] = {
    {"version", "The version of this build and of the libraries linked in (libgit2, SQLite, ...)",
     DefineVersion},
};

}  // namespace gentle::cli

#endif  // GENTLE_CLI_VERB_TABLE_H_
