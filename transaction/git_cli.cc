#include "transaction/git_cli.h"

#include <utility>

#include "store/program_run.h"

namespace gentle::transaction {

std::string GitOutput::LastErrorLine() const {
  size_t end = err.size();
  while (end > 0) {
    while (end > 0 && (err[end - 1] == '\n' || err[end - 1] == '\r' || err[end - 1] == ' ')) --end;
    const size_t begin = err.rfind('\n', end == 0 ? 0 : end - 1);
    const size_t start = begin == std::string::npos ? 0 : begin + 1;
    if (end > start) return err.substr(start, end - start);
    if (begin == std::string::npos) break;
    end = begin;
  }
  return "";
}

Result<GitOutput> RunGit(const std::string& dir, const std::vector<std::string>& args) {
  store::ProgramRequest request;
  request.argv = {"git", "-C", dir};
  request.argv.insert(request.argv.end(), args.begin(), args.end());
  request.max_capture = kMaxGitOutput;
  request.deadline = store::kGitDeadline;
  request.name = args.empty() ? "git" : "git " + args[0];
  auto run = store::RunProgram(request);
  if (!run.ok()) {
    if (run.status().code() != Code::kNotFound) return run.status();
    const std::string& why = run.status().message();
    return Status(Code::kNotFound,
                  "cannot run git (is it on PATH?): " + why.substr(why.rfind(": ") + 2));
  }
  GitOutput result;
  result.exit_code = run->exit_code;
  result.out = std::move(run->out);
  result.err = std::move(run->err);
  return result;
}

}  // namespace gentle::transaction

namespace gentle::transaction {

std::string GitCliDir(const store::git::Repository& repo) {
  return repo.is_bare() ? repo.git_dir() : repo.worktree_root();
}

Status RequireRemote(const std::string& dir, const std::string& remote) {
  GENTLE_ASSIGN_OR_RETURN(GitOutput output, RunGit(dir, {"remote", "get-url", remote}));
  if (output.exit_code == 0) return Status::Ok();
  Status st(Code::kNotFound, output.exit_code == 2 ? "no remote named " + remote
                                                   : "git cannot read remote " + remote + ": " +
                                                         output.LastErrorLine());
  return st.WithDetail(DetailKey::kRemote, remote);
}

Status GitFailed(const std::string& verb, const std::string& remote, const GitOutput& output) {
  std::string why = output.LastErrorLine();
  if (why.empty()) why = "exit status " + std::to_string(output.exit_code);
  return Status(Code::kNotFound, "git " + verb + " with remote " + remote + " failed: " + why)
      .WithDetail(DetailKey::kRemote, remote)
      .WithDetail(DetailKey::kGitExit, std::to_string(output.exit_code));
}

}  // namespace gentle::transaction
