// The git CLI's side of the reviewer's view (docs/commands.md, "Views and parts"), for tests:
// the pinned diff of some paths, `git diff --numstat` of one, and what the review view must print
// for each entry, all under OracleEnv() (no user, system or attributes configuration). Failing
// git fails the running Catch test.
#ifndef GENTLE_TESTS_SUPPORT_VIEW_ORACLE_H_
#define GENTLE_TESTS_SUPPORT_VIEW_ORACLE_H_

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace gentle::testing {

// git <pins> diff <pinned flags> -O/dev/null <base> <candidate> -- <paths> (all paths if none).
std::string PinnedDiff(const std::string& git_dir, const std::string& base,
                       const std::string& candidate, const std::vector<std::string>& paths);

// The summary line the review view must print for `path`, from `git diff --numstat` of it (with the
// pins, --no-renames and myers) and `git cat-file -s` of its two sides (0 when absent).
std::string NumstatSummaryLine(const std::string& git_dir, const std::string& base,
                               const std::string& candidate, const std::string& path);

// git's header lines of a one-path section: up to its `---`, `Binary files` or `GIT binary patch`
// line.
std::string SectionHeaderLines(const std::string& section);

// The review view of `paths` (in patch order): each path in `summarised` as git's header lines and
// its summary line, every other path as git's section.
std::string ReviewViewOracle(const std::string& git_dir, const std::string& base,
                             const std::string& candidate, const std::vector<std::string>& paths,
                             const std::set<std::string>& summarised);

// Hand-written text: `lines` numbered sentences, every `edit_every`-th reworded in a `generation`
// above 0.
std::string Prose(size_t lines, int generation, size_t edit_every);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_VIEW_ORACLE_H_
