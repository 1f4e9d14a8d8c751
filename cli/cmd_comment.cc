// review comment | parse-comment.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "cli/round_comment.h"
#include "export/posted_comment.h"

namespace gentle::cli {
namespace {

// At most kMaxCommentInputBytes + 1 bytes of `path` ("-": stdin), so an oversized input is
// refused without reading all of it.
Result<std::string> ReadBounded(const std::string& path) {
  const size_t limit = exporter::kMaxCommentInputBytes + 1;
  std::string text;
  std::FILE* in = path == "-" ? stdin : std::fopen(path.c_str(), "rb");
  if (in == nullptr) return Status(Code::kUsage, "cannot read " + path);
  char buffer[65536];
  while (text.size() < limit) {
    const size_t n = std::fread(buffer, 1, std::min(sizeof buffer, limit - text.size()), in);
    if (n == 0) break;
    text.append(buffer, n);
  }
  const bool failed = std::ferror(in) != 0;
  if (in != stdin) std::fclose(in);
  if (failed) return Status(Code::kUsage, "cannot read " + path);
  return text;
}

}  // namespace

int RunComment(const CommonOptions& common, const CommentOptions& o) {
  auto rendered = RenderRoundComment(common.cwd, o.flags);
  if (!rendered.ok()) return ReportError(rendered.status(), common.json);
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
  out["verdict"] = parsed->verdict;
  out["body"] = parsed->body;
  out["lineage"] = parsed->lineage;
  out["round"] = parsed->round;
  out["revision"] = parsed->revision;
  out["model"] = parsed->model ? nlohmann::ordered_json(*parsed->model) : nullptr;
  out["session"] = parsed->session ? nlohmann::ordered_json(*parsed->session) : nullptr;
  out["nonce"] = parsed->nonce ? nlohmann::ordered_json(*parsed->nonce) : nullptr;
  return PrintJson(out);
}

}  // namespace gentle::cli
