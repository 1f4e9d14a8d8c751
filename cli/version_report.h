// The answer to `gentle-ai --version` and `gentle-ai version [--json]`: what this build is and the
// versions of the libraries actually linked in, asked of the libraries themselves at run time (so a
// shared-library build reports what it loaded, not what it was compiled against).
#ifndef GENTLE_CLI_VERSION_REPORT_H_
#define GENTLE_CLI_VERSION_REPORT_H_

#include <string>

namespace gentle::cli {

inline constexpr char kVersionSchema[] = "gentle-ai.version/v1";

struct VersionReport {
  std::string version;   // the project version
  std::string describe;  // git describe of the build; empty when not built from a checkout
  std::string libgit2;   // "major.minor.revision"
  std::string sqlite;    // sqlite3_libversion()
  std::string openssl;   // OpenSSL_version(OPENSSL_VERSION_STRING), e.g. "3.0.17"
  std::string zlib;      // zlibVersion()
};

VersionReport CollectVersionReport();

// Two lines: "gentle-ai VERSION[ (DESCRIBE)]" and the libraries, each line ending in '\n'.
std::string RenderVersionText(const VersionReport& report);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_VERSION_REPORT_H_
