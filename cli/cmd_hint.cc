// review hint parse LINE (docs/loop.md, "review hint parse").
#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "cli/render.h"
#include "loop/hint.h"

namespace gentle::cli {

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

}  // namespace gentle::cli
