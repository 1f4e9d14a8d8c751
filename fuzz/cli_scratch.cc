#include "fuzz/cli_scratch.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cli/app.h"
#include "transaction/start.h"

namespace gentle::fuzz {
namespace {

[[noreturn]] void SetupFailed(const std::string& what) {
  std::fprintf(stderr, "fuzz scratch setup failed: %s\n", what.c_str());
  std::abort();
}

void Shell(const std::string& command) {
  if (std::system(command.c_str()) != 0) SetupFailed(command);
}

CliScratch Build() {
  std::string tmpl = (std::filesystem::temp_directory_path() / "gentle-fuzz-cli-XXXXXX").string();
  if (mkdtemp(tmpl.data()) == nullptr) SetupFailed("mkdtemp");
  CliScratch s{tmpl, tmpl + "/repo", "", ""};
  // mkdtemp names hold no quote; the source dir is the project's own checkout.
  Shell("'" GENTLE_SOURCE_DIR "/fixtures/make-demo-repo.sh' '" + s.repo + "' >/dev/null");
  std::ofstream(s.repo + "/src/greet.c", std::ios::app) << "/* edited by the fuzz scratch */\n";
  std::ofstream(s.repo + "/notes.txt") << "an untracked file\n";
  // A binary edit, so export-context and verify also write a `GIT binary patch` section.
  std::ofstream(s.repo + "/assets/logo.png", std::ios::binary)
      << std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR-fuzz", 21);
  if (chdir(s.repo.c_str()) != 0) SetupFailed("chdir " + s.repo);
  setenv("GENTLE_LOCK_TIMEOUT_MS", "100", 1);
  auto started = transaction::Start({s.repo, {}, {}, std::nullopt});
  if (!started.ok()) SetupFailed("start: " + started.status().message());
  s.lineage = started->lineage;
  s.envelope = s.dir + "/envelope.json";
  std::string args[] = {"gentle-ai", "review", "export-context", "--lineage",
                        s.lineage,   "--json", "--output",       s.envelope};
  char* argv[] = {args[0].data(), args[1].data(), args[2].data(), args[3].data(), args[4].data(),
                  args[5].data(), args[6].data(), args[7].data(), nullptr};
  if (cli::Run(8, argv) != 0) SetupFailed("export-context of " + s.lineage);
  std::fprintf(stderr, "fuzz scratch repository: %s\n", s.repo.c_str());
  return s;
}

}  // namespace

const CliScratch& GetCliScratch() {
  static const CliScratch scratch = Build();
  static const bool cleanup_registered = [] {
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(GetCliScratch().dir, ec);
    });
    return true;
  }();
  (void)cleanup_registered;
  return scratch;
}

}  // namespace gentle::fuzz
