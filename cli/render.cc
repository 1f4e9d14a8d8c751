#include "cli/render.h"

#include <cerrno>
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

namespace {

int stdout_errno = 0;  // the errno of the first write to stdout that was refused

}  // namespace

bool WriteStdout(std::string_view bytes) {
  errno = 0;
  if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) == bytes.size() &&
      std::fflush(stdout) == 0) {
    return true;
  }
  if (stdout_errno == 0) stdout_errno = errno;
  return false;
}

void PrintHuman(std::string_view text) { WriteStdout(store::VisibleText(text)); }

int PrintJson(const nlohmann::ordered_json& document) {
  std::string text = store::MarshalCompact(document);
  text.push_back('\n');
  WriteStdout(text);
  return 0;
}

int StdoutErrno() { return stdout_errno; }

}  // namespace gentle::cli
