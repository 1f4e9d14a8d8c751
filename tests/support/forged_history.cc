#include "tests/support/forged_history.h"

#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"

namespace gentle::testing {

void ForgeVerdictBody(const LifecycleRepo& repo, const std::string& lineage, int round,
                      const std::string& body) {
  const std::string root = repo.root();
  const std::string name = "verdicts/" + std::to_string(round) + ".md";
  const std::string index = root + "/.git/forge-index";
  std::istringstream ids(repo.GitOk({"rev-list", "--reverse", ReviewRef(lineage)}));
  std::string parent;
  for (std::string id; std::getline(ids, id);) {
    std::string tree = Trim(repo.GitOk({"rev-parse", id + "^{tree}"}));
    RunResult file = repo.Git({"show", id + ":" + name});
    if (file.exit_code == 0) {
      const size_t end = file.out.find("\n---\n", 4) + 5;
      std::string text = file.out.substr(0, end) + body;
      const size_t digest = text.find("body_sha256: \"sha256:") + 21;
      text.replace(digest, 64, store::Sha256Hex(body));
      WriteFile(root + "/.git/forged.md", text);
      const std::string blob = Trim(repo.GitOk({"hash-object", "-w", root + "/.git/forged.md"}));
      const Env env = {{"GIT_INDEX_FILE", index}};
      REQUIRE(GitRun(root, {"read-tree", id}, env).exit_code == 0);
      REQUIRE(GitRun(root, {"update-index", "--cacheinfo", "100644," + blob + "," + name}, env)
                  .exit_code == 0);
      tree = Trim(GitRun(root, {"write-tree"}, env).out);
    }
    const std::string date = Trim(repo.GitOk({"log", "-1", "--format=%at +0000", id}));
    const std::string raw = repo.GitOk({"cat-file", "commit", id});
    WriteFile(root + "/.git/forged-message", raw.substr(raw.find("\n\n") + 2));
    std::vector<std::string> args = {"commit-tree", tree, "-F", root + "/.git/forged-message"};
    if (!parent.empty()) args.insert(args.end(), {"-p", parent});
    if (raw.substr(0, raw.find("\n\n")).find("\ngpgsig ") != std::string::npos) {
      args.push_back("-S");
    }
    const Env who = {{"GIT_AUTHOR_NAME", "gentle-ai"},
                     {"GIT_AUTHOR_EMAIL", "gentle-ai@invalid"},
                     {"GIT_AUTHOR_DATE", date},
                     {"GIT_COMMITTER_NAME", "gentle-ai"},
                     {"GIT_COMMITTER_EMAIL", "gentle-ai@invalid"},
                     {"GIT_COMMITTER_DATE", date}};
    RunResult made = GitRun(root, args, who);
    INFO(made.err);
    REQUIRE(made.exit_code == 0);
    parent = Trim(made.out);
  }
  repo.GitOk({"update-ref", ReviewRef(lineage), parent});
}

}  // namespace gentle::testing
