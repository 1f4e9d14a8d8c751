// gentle-ai version [--json] (docs/commands.md, "gentle-ai --version and gentle-ai version");
// `gentle-ai --version` prints the same text.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/render.h"
#include "cli/verb.h"
#include "cli/version_report.h"

namespace gentle::cli {
namespace {

int RunVersion(const CommonOptions& common) {
  const VersionReport report = CollectVersionReport();
  if (!common.json) {
    std::fputs(RenderVersionText(report).c_str(), stdout);
    return 0;
  }
  nlohmann::ordered_json out;
  out["schema"] = kVersionSchema;
  out["version"] = report.version;
  out["git_describe"] = NullIfEmpty(report.describe);
  out["libraries"] = {{"libgit2", report.libgit2},
                      {"sqlite", report.sqlite},
                      {"openssl", report.openssl},
                      {"zlib", report.zlib}};
  return PrintJson(out);
}

}  // namespace

// gentle-ai version [--json]: only --json (no repository is read).
void DefineVersion(CLI::App* app, const Verb& verb, Invocation* in) {
  Command version = AddBareCommand(app, verb.name, verb.summary);
  version.AddFlag("--json", &in->common.json, "Machine-readable output");
  version.OnParsed([in] { in->Choose([in] { return RunVersion(in->common); }); });
}

}  // namespace gentle::cli
