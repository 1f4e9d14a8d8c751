// review comment | parse-comment.
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/round_comment.h"
#include "cli/round_comment_flags.h"
#include "cli/verb.h"
#include "export/posted_comment.h"
#include "store/named_file.h"

namespace gentle::cli {
namespace {

// review comment: the forge comment for a round's verdict (docs/loop.md). The comment is text with
// or without --json (which makes errors JSON).
struct CommentOptions {
  RoundCommentFlags flags;  // lineage, round, role, and the marker's model, session and nonce
  RoundCommentText text;    // the optional flags as parsed
};

// review parse-comment [FILE|-]: JSON gentle-ai.review-comment/v1 with or without --json.
struct ParseCommentOptions {
  std::string file = "-";
};

// At most kMaxCommentInputBytes + 1 bytes of `path` ("-": stdin), so that ParseComment refuses
// an oversized input by its size without reading all of it.
Result<std::string> ReadBounded(const std::string& path) {
  auto text = store::ReadNamedInput(path, exporter::kMaxCommentInputBytes + 1);
  if (!text.ok())
    return Status(Code::kUsage, "cannot read " + path + ": " + text.status().message());
  return text;
}

int RunComment(const CommonOptions& common, const CommentOptions& o) {
  auto rendered = RenderRoundComment(common.cwd, o.flags);
  if (!rendered.ok()) return ReportError(rendered.status(), common.json);
  // The bytes `post` sends, verbatim into a pipe or a file; on a terminal, human output.
  if (isatty(1) == 1) {
    PrintHuman(rendered->text);
    return 0;
  }
  std::fwrite(rendered->text.data(), 1, rendered->text.size(), stdout);
  std::fflush(stdout);
  return 0;
}

int RunParseComment(const CommonOptions& common, const std::string& file) {
  auto text = ReadBounded(file);
  if (!text.ok()) return ReportError(text.status(), common.json);
  auto parsed = exporter::ParseComment(*text);
  if (!parsed.ok()) return ReportError(parsed.status(), common.json);
  nlohmann::ordered_json out;
  out["schema"] = exporter::kCommentSchema;
  out["kind"] = exporter::CommentKindName(parsed->kind);
  out["verdict"] = parsed->verdict.text();
  out["body"] = parsed->body;
  out["lineage"] = parsed->lineage;
  out["round"] = parsed->round;
  out["revision"] = parsed->revision;
  out["model"] = parsed->model ? nlohmann::ordered_json(*parsed->model) : nullptr;
  out["session"] = parsed->session ? nlohmann::ordered_json(*parsed->session) : nullptr;
  out["nonce"] = parsed->nonce ? nlohmann::ordered_json(*parsed->nonce) : nullptr;
  return PrintJson(out);
}

}  // namespace

void DefineComment(CLI::App* review, const Verb& verb, Invocation* in) {
  CommentOptions* o = in->Hold<CommentOptions>();
  Command comment = AddCommand(review, verb, in);
  AddRoundCommentFlags(comment, &o->flags, &o->text, true);
  comment.OnParsed([in, o, comment] {
    ApplyRoundCommentFlags(comment, o->text, &o->flags);
    in->Choose([in, o] { return RunComment(in->common, *o); });
  });
}

void DefineParseComment(CLI::App* review, const Verb& verb, Invocation* in) {
  ParseCommentOptions* o = in->Hold<ParseCommentOptions>();
  Command parse = AddCommand(review, verb, in);
  parse.AddOption("file", &o->file, "The comment file, or - for stdin (default)").TypeName("FILE");
  parse.OnParsed([in, o] { in->Choose([in, o] { return RunParseComment(in->common, o->file); }); });
}

}  // namespace gentle::cli
