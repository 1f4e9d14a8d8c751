// GeneratedRules: whether a changed path is a generated entry, as GitHub reads the
// `linguist-generated` attribute, over a default list (docs/lifecycle.md, "Generated entries").
//
// The attribute comes from `.gitattributes` files only (the ones of the candidate tree that
// transaction/generated_marks.h reads; never $GIT_DIR/info/attributes, core.attributesFile or the
// system's, which are not part of the candidate). Their syntax and precedence are git's
// (gitattributes(5)): blank lines and lines starting with `#` are skipped; a pattern is C-quoted
// when it starts with `"`; a negative pattern (`!`), a macro definition (`[attr]`) and a line
// of 2,048 bytes or more are ignored, as git ignores them, and so is a line naming an invalid
// attribute; a pattern with no `/` matches a path's last component anywhere below the file's
// directory, one with a `/` matches the path relative to that directory (git's wildmatch, `**`
// included); a pattern ending in `/` names a directory and matches no entry. A deeper file wins
// over a shallower one, and within a file a later line over an earlier one. The states:
// `linguist-generated` (set) and `linguist-generated=<value>` other than `false` mark the path;
// `-linguist-generated` (unset) and `linguist-generated=false` keep it unmarked;
// `!linguist-generated` (unspecified again) or no matching line leaves the decision to the default
// list. Macros are not expanded.
//
// The default list: lockfiles by name (kDefaultGeneratedNames) and the patterns `*.min.js`,
// `*.min.css`, `*.map`, `*.pb.go`, `*_pb2.py`, matched against the path's last component.
#ifndef GENTLE_TRANSACTION_GENERATED_RULES_H_
#define GENTLE_TRANSACTION_GENERATED_RULES_H_

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace gentle::transaction {

inline constexpr std::array<std::string_view, 16> kDefaultGeneratedNames = {"package-lock.json",
                                                                            "npm-shrinkwrap.json",
                                                                            "yarn.lock",
                                                                            "pnpm-lock.yaml",
                                                                            "bun.lock",
                                                                            "Cargo.lock",
                                                                            "go.sum",
                                                                            "poetry.lock",
                                                                            "Pipfile.lock",
                                                                            "uv.lock",
                                                                            "Gemfile.lock",
                                                                            "composer.lock",
                                                                            "mix.lock",
                                                                            "pubspec.lock",
                                                                            "Podfile.lock",
                                                                            "flake.lock"};
inline constexpr std::array<std::string_view, 5> kDefaultGeneratedSuffixes = {
    ".min.js", ".min.css", ".map", ".pb.go", "_pb2.py"};

enum class AttrState { kUnspecified, kSet, kUnset };

// The `linguist-generated` lines of one `.gitattributes` file, in file order.
struct AttrRule {
  std::string pattern;  // unquoted, without a leading '/'
  bool anchored;        // the pattern held a '/' (matched against the relative path)
  AttrState state;      // kUnspecified: `!linguist-generated`
};
struct AttrFile {
  std::string dir;  // the file's directory: "" for the root, else "a/b/" (with the slash)
  std::vector<AttrRule> rules;
};

AttrFile ParseAttrFile(std::string dir, std::string_view text);

// git's wildmatch of `text` against `pattern`; with `pathname`, `*` and `?` never match '/' and
// `**` as a whole component matches any number of components.
bool WildMatch(std::string_view pattern, std::string_view text, bool pathname);

// The attribute's state for `path` from `files`, shallowest first (each file's directory a
// prefix of `path`).
AttrState AttributeState(const std::vector<const AttrFile*>& files, std::string_view path);

bool InDefaultList(std::string_view path);

// The attribute's decision, else the default list's.
bool IsGenerated(const std::vector<const AttrFile*>& files, std::string_view path);

}  // namespace gentle::transaction

#endif  // GENTLE_TRANSACTION_GENERATED_RULES_H_
