// CommandDoc: a plain description of the gentle-ai command tree (every command, its description
// and its options), read from the CLI11 tree that the parser itself uses (cli/app.h
// VisitCommandTree). The man pages (cli/man_page.h) and the shell completions
// (cli/shell_completion.h) are rendered from it, so neither can name a flag the parser lacks or
// miss one it has.
#ifndef GENTLE_CLI_COMMAND_DOC_H_
#define GENTLE_CLI_COMMAND_DOC_H_

#include <string>
#include <vector>

namespace gentle::cli {

// What an option's value is, for completion: a file (type name FILE or PATH), a directory (DIR),
// or other text.
enum class ValueKind { kNone, kFile, kDirectory, kText };

struct OptionDoc {
  std::string name;        // "--lineage", "-h", or a positional's name ("file")
  std::string short_name;  // "-h" beside "--help"; empty when there is none
  std::string value_name;  // "FILE", "LINEAGE"; empty for a flag
  ValueKind value = ValueKind::kNone;
  bool positional = false;
  bool required = false;
  bool repeatable = false;
  std::string description;
};

struct CommandDoc {
  std::vector<std::string> path;  // {"gentle-ai", "review", "start"}
  std::string description;
  bool requires_subcommand = false;
  std::vector<OptionDoc> options;  // in the order the command defines them
  std::vector<CommandDoc> subcommands;

  // "gentle-ai review start"
  std::string Invocation() const;
  // "gentle-ai-review-start": the man page's name.
  std::string PageName() const;
};

// The whole tree, rooted at `gentle-ai`.
CommandDoc DescribeCommandTree();

// Every command of the tree in pre-order (the root first), each once.
std::vector<const CommandDoc*> Flatten(const CommandDoc& root);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_COMMAND_DOC_H_
