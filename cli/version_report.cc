#include "cli/version_report.h"

#include <git2/common.h>
#include <openssl/crypto.h>
#include <sqlite3.h>
#include <zlib.h>

#include "cli/build_info.h"

namespace gentle::cli {
namespace {

std::string Libgit2Version() {
  int major = 0, minor = 0, revision = 0;
  git_libgit2_version(&major, &minor, &revision);
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(revision);
}

}  // namespace

VersionReport CollectVersionReport() {
  VersionReport report;
  report.version = ProjectVersion();
  report.describe = BuildDescribe();
  report.libgit2 = Libgit2Version();
  report.sqlite = sqlite3_libversion();
  report.openssl = OpenSSL_version(OPENSSL_VERSION_STRING);
  report.zlib = zlibVersion();
  return report;
}

std::string RenderVersionText(const VersionReport& report) {
  std::string text = "gentle-ai " + report.version;
  if (!report.describe.empty()) text += " (" + report.describe + ")";
  text += "\nlibgit2 " + report.libgit2 + ", SQLite " + report.sqlite + ", OpenSSL " +
          report.openssl + ", zlib " + report.zlib + "\n";
  return text;
}

}  // namespace gentle::cli
