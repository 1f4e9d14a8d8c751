#include "tests/support/git_oracle.h"

#include <algorithm>
#include <stdexcept>

#include "export/git_flags.h"
#include "tests/support/git_env.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

std::string Escape(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (c == '\n') {
      out += "\\n\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c >= 0x7f || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

}  // namespace

Result<std::string> OracleDiff(const std::string& git_dir, const std::string& base,
                               const std::string& candidate) {
  std::vector<std::string> argv = exporter::OracleArgv(base, candidate);
  argv.insert(argv.begin() + 1, "--git-dir=" + git_dir);
  RunResult r = Run(argv, "", OracleEnv());
  if (r.exit_code != 0) {
    return Status(Code::kInternal, "oracle failed (" + std::to_string(r.exit_code) + "): " + r.err);
  }
  return std::move(r.out);
}

Result<exporter::DerivedPatch> EngineDiff(git_repository* repo, const std::string& base,
                                          const std::string& candidate,
                                          const exporter::PatchOptions& options) {
  git_oid a;
  git_oid b;
  if (git_oid_fromstr(&a, base.c_str()) != 0 || git_oid_fromstr(&b, candidate.c_str()) != 0) {
    return Status(Code::kUsage, "bad tree id");
  }
  return exporter::DerivePatch(repo, a, b, options);
}

std::string FirstDifference(const std::string& expected, const std::string& actual) {
  if (expected == actual) return "";
  size_t at = 0;
  size_t n = std::min(expected.size(), actual.size());
  while (at < n && expected[at] == actual[at]) ++at;
  size_t line_start = expected.rfind('\n', at == 0 ? 0 : at - 1);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  size_t line_no =
      static_cast<size_t>(std::count(expected.begin(), expected.begin() + line_start, '\n')) + 1;
  size_t section = expected.rfind("diff --git ", at);
  std::string header;
  if (section != std::string::npos) {
    header = expected.substr(section, expected.find('\n', section) - section);
  }
  auto window = [&](const std::string& s) {
    size_t end = line_start;
    for (int lines = 0; end < s.size() && lines < 4; ++lines) {
      size_t nl = s.find('\n', end);
      end = nl == std::string::npos ? s.size() : nl + 1;
    }
    return Escape(std::string_view(s).substr(std::min(line_start, s.size()),
                                             end - std::min(line_start, s.size())));
  };
  return "first difference at byte " + std::to_string(at) + " (line " + std::to_string(line_no) +
         ", expected size " + std::to_string(expected.size()) + ", actual size " +
         std::to_string(actual.size()) + ")\nin section: " + Escape(header) + "\n--- oracle:\n" +
         window(expected) + "\n--- engine:\n" + window(actual);
}

RepoHandle::RepoHandle(const std::string& git_dir) {
  git_libgit2_init();
  if (git_repository_open_ext(&repo_, git_dir.c_str(), GIT_REPOSITORY_OPEN_NO_SEARCH, nullptr) !=
      0) {
    throw std::runtime_error("cannot open repository " + git_dir);
  }
}

RepoHandle::~RepoHandle() {
  git_repository_free(repo_);
  git_libgit2_shutdown();
}

}  // namespace gentle::testing
