#include "tests/support/review_in.h"

#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {

std::string GitOk(const std::string& repo, const std::vector<std::string>& args,
                  const std::string& input) {
  RunResult run = GitRun(repo, args, {}, input);
  INFO("git " << nlohmann::json(args).dump() << ": " << run.err);
  REQUIRE(run.exit_code == 0);
  return Trim(run.out);
}

RunResult Review(const std::string& dir, std::vector<std::string> args) {
  args.insert(args.begin(), "review");
  args.insert(args.end(), {"--cwd", dir, "--json"});
  return GentleAi(args, dir);
}

nlohmann::json ReviewOk(const std::string& dir, const std::vector<std::string>& args) {
  RunResult run = Review(dir, args);
  INFO(nlohmann::json(args).dump() << ": " << run.out << run.err);
  REQUIRE(run.exit_code == 0);
  return run.Json();
}

nlohmann::json Refused(const RunResult& run, int exit_code, const std::string& code) {
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == exit_code);
  const nlohmann::json out = run.Json();
  CHECK(out["error"]["code"] == code);
  return out["error"];
}

nlohmann::json RefusedDetails(const RunResult& run, int exit_code, const std::string& code) {
  return Refused(run, exit_code, code)["details"];
}

}  // namespace gentle::testing
