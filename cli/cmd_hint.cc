// review hint parse LINE (docs/loop.md, "review hint parse").
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "loop/hint.h"

namespace gentle::cli {
namespace {

int RunHintParse(const CommonOptions& common, const std::string& line) {
  auto hint = loop::ParseHint(line);
  if (!hint.ok()) return ReportError(hint.status(), common.json);
  nlohmann::ordered_json out;
  out["schema"] = loop::kHintSchema;
  out["forge"] = std::string(store::ForgeName(hint->pr.forge));
  out["owner"] = hint->pr.owner;
  out["repo"] = hint->pr.repo;
  out["number"] = hint->pr.number;
  out["pr"] = loop::FormatPrKey(hint->pr);
  out["reasons"] = hint->reasons;
  out["skill"] = hint->skill;
  out["updated"] = hint->updated;
  return PrintJson(out);
}

}  // namespace

void DefineHint(CLI::App* review, const Verb& verb, Invocation* in) {
  std::string* line = in->Hold<std::string>();
  CLI::App* hint = AddGroup(review, verb);
  Command parse = AddCommand(
      hint, "parse",
      "Check one [pr-daemon] hint line strictly and print it as JSON (anything else: usage)", in);
  parse.AddOption("line", line, "The hint line (one argument)").Required();
  parse.OnParsed(
      [in, line] { in->Choose([in, line] { return RunHintParse(in->common, *line); }); });
}

}  // namespace gentle::cli
