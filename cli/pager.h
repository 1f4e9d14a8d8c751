// Pager: human output paged as git pages it (docs/show.md, "Paging").
//
// The pager is the first of GIT_PAGER, the repository's git config core.pager, PAGER, and `less`
// that is set; an empty value or `cat` means none. It runs through `/bin/sh -c`, as git runs it,
// with LESS=FRX and LV=-c in its environment unless they are set (so `less` quits when the text
// fits one screen, passes colour through and leaves the screen as it was). Output is paged only
// when stdout is a terminal; otherwise (a pipe, a file) it is written as is. The pager is the one
// child process without a deadline (store/program_run.h): it runs only for a person at a terminal,
// in the foreground, as long as that person reads, and ends when they quit it.
#ifndef GENTLE_CLI_PAGER_H_
#define GENTLE_CLI_PAGER_H_

#include <string>

namespace gentle::cli {

// The pager command for the repository around `cwd`; empty for none.
std::string PagerCommand(const std::string& cwd);

// Writes `text` to stdout, through PagerCommand(cwd) when stdout is a terminal; waits for the
// pager to exit.
void WritePaged(const std::string& text, const std::string& cwd);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_PAGER_H_
