#include "cli/round_comment_flags.h"

#include "cli/verb.h"

namespace gentle::cli {

void AddRoundCommentFlags(Command command, RoundCommentFlags* flags, RoundCommentText* text,
                          bool nonce) {
  command.AddOption("--lineage", &flags->lineage, "The lineage").Required();
  command.AddOption("--round", &text->round,
                    "The round (record generation) whose verdict to render (default: current)");
  command.AddOption("--role", &text->role,
                    "Render this role's newest verdict of the round: reviewer or docs-reviewer "
                    "(default: the round's newest verdict, whatever its role)");
  command.AddOption("--model", &text->model,
                    "Put model=M in the marker (A-Z a-z 0-9 _ : + -, '.' between digits)");
  command.AddOption("--session", &text->session,
                    "Put session=<first 8 bytes of S> in the marker (same characters)");
  if (nonce) {
    command.AddOption("--nonce", &text->nonce,
                      "Put nonce=N in the marker (32 lowercase hex digits; review post draws "
                      "its own)");
  }
}

void ApplyRoundCommentFlags(const Command& command, const RoundCommentText& text,
                            RoundCommentFlags* flags) {
  if (Given(command, "--round")) flags->round = text.round;
  if (Given(command, "--role")) flags->role = store::RoleWord::FromText(text.role);
  if (Given(command, "--model")) flags->model = text.model;
  if (Given(command, "--session")) flags->session = text.session;
  if (Given(command, "--nonce")) flags->nonce = text.nonce;
}

}  // namespace gentle::cli
