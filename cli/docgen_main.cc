// gentle-ai-docgen OUTDIR: writes the man pages (OUTDIR/man/*.1) and the bash, zsh and fish
// completions (OUTDIR/completion/) of gentle-ai, rendered from the command table the binary
// parses with (cli/command_doc.h). Run by the build (cli/CMakeLists.txt, target gentle_docs);
// `cmake --install` installs what it wrote. OUTDIR's man/ and completion/ are replaced whole, so
// a removed command leaves no stale page.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "cli/build_info.h"
#include "cli/command_doc.h"
#include "cli/man_page.h"
#include "cli/shell_completion.h"

namespace {

bool WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) std::fprintf(stderr, "gentle-ai-docgen: cannot write %s\n", path.c_str());
  return static_cast<bool>(out);
}

bool FreshDirectory(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::remove_all(path, error);
  std::filesystem::create_directories(path, error);
  if (error) std::fprintf(stderr, "gentle-ai-docgen: cannot create %s\n", path.c_str());
  return !error;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: gentle-ai-docgen OUTDIR\n");
    return 2;
  }
  namespace cli = gentle::cli;
  const std::filesystem::path out = argv[1];
  const cli::CommandDoc root = cli::DescribeCommandTree();
  if (!FreshDirectory(out / "man") || !FreshDirectory(out / "completion")) return 1;
  bool ok = true;
  for (const cli::ManPage& page : cli::RenderManPages(root, cli::ProjectVersion())) {
    ok = WriteFile(out / "man" / page.file_name, page.text) && ok;
  }
  ok = WriteFile(out / "completion" / "gentle-ai", cli::RenderBashCompletion(root)) && ok;
  ok = WriteFile(out / "completion" / "_gentle-ai", cli::RenderZshCompletion(root)) && ok;
  ok = WriteFile(out / "completion" / "gentle-ai.fish", cli::RenderFishCompletion(root)) && ok;
  return ok ? 0 : 1;
}
