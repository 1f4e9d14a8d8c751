#include "cli/render.h"

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/terminal.h"
#include "store/go_marshal.h"
#include "store/visible_text.h"

namespace gentle::cli {

int ReportError(const Status& status, bool json) {
  if (json) {
    nlohmann::ordered_json error;
    error["code"] = std::string(CodeName(status.code()));
    error["message"] = status.message();
    error["lineage"] = NullIfEmpty(status.lineage());
    error["details"] = nlohmann::ordered_json::object();
    for (const auto& [key, value] : status.details()) error["details"][key] = value;
    nlohmann::ordered_json envelope;
    envelope["schema"] = "gentle-ai.review-error/v1";
    envelope["error"] = error;
    PrintJson(envelope);
  } else {
    const std::string message = store::VisibleLine(status.message());
    std::cerr << "gentle-ai: " << Paint(CodeName(status.code()), Tone::kRed, ColourWanted(2, false))
              << ": " << message << "\n";
  }
  return ExitCodeFor(status.code());
}

nlohmann::ordered_json NullIfEmpty(const std::string& value) {
  return value.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(value);
}

void PrintHuman(std::string_view text) {
  const std::string visible = store::VisibleText(text);
  std::fwrite(visible.data(), 1, visible.size(), stdout);
  std::fflush(stdout);
}

int PrintJson(const nlohmann::ordered_json& document) {
  std::string text = store::MarshalCompact(document);
  text.push_back('\n');
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  return 0;
}

}  // namespace gentle::cli
