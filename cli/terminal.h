// Terminal: what human output may do on a stream (docs/commands.md, "Progress and colour").
//
// A stream is a capable terminal when it is a tty and TERM names a terminal (set, not empty, not
// "dumb"): only then does the command line write control sequences to it (a progress line
// rewritten with \r, colour). Colour also needs NO_COLOR unset or empty (https://no-color.org) and
// human output (never under --json). Piped output is byte for byte what it is without a terminal.
#ifndef GENTLE_CLI_TERMINAL_H_
#define GENTLE_CLI_TERMINAL_H_

#include <string>
#include <string_view>

#include "store/review_state.h"
#include "transaction/list.h"

namespace gentle::cli {

// Whether `fd` is a tty and TERM is set, not empty and not "dumb".
bool CapableTerminal(int fd);

// Whether human output on `fd` may carry colour: not `json`, CapableTerminal(fd), NO_COLOR unset or
// empty.
bool ColourWanted(int fd, bool json);

enum class Tone { kPlain, kRed, kGreen, kYellow, kDim };

// `text` wrapped in the SGR sequence of `tone` and a reset when `colour`, else `text` itself.
std::string Paint(std::string_view text, Tone tone, bool colour);

// The tone of a lineage state in human status and list output: approved green; correction_required,
// escalated and decision_required yellow; invalidated red; consumed and retired (ended) dim; a
// state this build does not know plain.
Tone StateTone(const store::StateName& state);

// The tone of a list entry's state: its record's (StateTone), else incomplete yellow and consumed
// and retired dim.
Tone ListTone(const transaction::LineageSummary& entry);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_TERMINAL_H_
