#include "cli/app.h"

#include <CLI/CLI.hpp>

namespace gentle::cli {

int Run(int argc, char** argv) {
  CLI::App app{"gentle-ai: the review transaction store"};
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return 0;
}

}  // namespace gentle::cli
