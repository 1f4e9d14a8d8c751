#include "transaction/approval_signer.h"

#include <git2.h>

#include <cstdlib>
#include <optional>

#include "export/allowed_signers.h"
#include "export/allowed_signers_source.h"
#include "store/file_io.h"
#include "store/git/git_util.h"
#include "store/named_file.h"
#include "store/program_run.h"
#include "store/scratch_dir.h"
#include "transaction/config_flag.h"

namespace gentle::transaction {
namespace {

using ConfigPtr = store::git::GitPtr<git_config, git_config_free>;

constexpr std::string_view kLiteralPrefix = "key::";
constexpr std::string_view kSignatureBegin = "-----BEGIN SSH SIGNATURE-----";

Result<ConfigPtr> Snapshot(const store::git::Repository& repo) {
  git_config* config = nullptr;
  if (git_repository_config_snapshot(&config, repo.raw()) != 0) {
    return Status(Code::kInternal,
                  "cannot read the git configuration: " + store::git::LastGitError());
  }
  return ConfigPtr(config);
}

// The value of `name`, nullopt when unset.
Result<std::optional<std::string>> ConfigString(git_config* config, const char* name) {
  git_buf value = GIT_BUF_INIT;
  const int rc = git_config_get_string_buf(&value, config, name);
  if (rc == GIT_ENOTFOUND) return std::optional<std::string>();
  if (rc != 0) {
    return Status(Code::kUsage, std::string("cannot read git config ") + name + ": " +
                                    store::git::LastGitError());
  }
  std::string out(value.ptr, value.size);
  git_buf_dispose(&value);
  return std::optional<std::string>(std::move(out));
}

Status SigningFailed(const std::string& why) {
  return Status(Code::kUsage, "cannot sign the approval: " + why);
}

// `~/` at the start is $HOME, as git expands a path of its configuration.
std::string ExpandHome(const std::string& path) {
  if (path.compare(0, 2, "~/") != 0) return path;
  const char* home = std::getenv("HOME");
  return std::string(home ? home : "") + path.substr(1);
}

// The first line of a program's output, without its line ending or trailing blanks (ssh-keygen
// ends its lines with CR LF): an error message is one line.
std::string FirstLine(const std::string& text) {
  std::string line = text.substr(0, text.find_first_of("\r\n"));
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t')) line.pop_back();
  return line;
}

}  // namespace

Result<bool> SignApprovalsConfigured(const store::git::Repository& repo) {
  return ConfigFlag(repo, "gentle-ai.signApprovals");
}

Result<ApprovalSigner> LoadApprovalSigner(const store::git::Repository& repo) {
  GENTLE_ASSIGN_OR_RETURN(ConfigPtr config, Snapshot(repo));
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> format,
                          ConfigString(config.get(), "gpg.format"));
  if (!format || *format != "ssh") {
    return SigningFailed("gpg.format is " + (format ? "\"" + *format + "\"" : "unset (openpgp)") +
                         "; only SSH signatures are supported (git config gpg.format ssh)")
        .WithDetail(DetailKey::kGpgFormat, format.value_or(""));
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> key,
                          ConfigString(config.get(), "user.signingKey"));
  if (!key || key->empty()) {
    return SigningFailed(
        "user.signingKey is unset (git config user.signingKey <key file or key::<public key>>)");
  }
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> program,
                          ConfigString(config.get(), "gpg.ssh.program"));
  ApprovalSigner signer;
  signer.program = program && !program->empty() ? *program : "ssh-keygen";
  if (key->compare(0, kLiteralPrefix.size(), kLiteralPrefix) == 0) {
    signer.key = key->substr(kLiteralPrefix.size());
    signer.literal = true;
  } else {
    signer.key = ExpandHome(*key);
  }
  return signer;
}

Result<std::string> SignerPrincipal(const store::git::Repository& repo,
                                    const ApprovalSigner& signer) {
  constexpr size_t kMaxKeyBytes = 64u << 10;
  auto no_actor = [](const std::string& why) {
    return Status(Code::kUsage, "--actor is required: " + why);
  };
  GENTLE_ASSIGN_OR_RETURN(ConfigPtr config, Snapshot(repo));
  GENTLE_ASSIGN_OR_RETURN(std::optional<std::string> file,
                          ConfigString(config.get(), "gpg.ssh.allowedSignersFile"));
  if (!file || file->empty()) {
    return no_actor(
        "git config gpg.ssh.allowedSignersFile is unset, so the signing key's "
        "principal is not known");
  }
  const std::string path = ExpandHome(*file);
  // Opened as git opens it: a symlink is followed; not a regular file, or too large, is said.
  auto text = exporter::ReadAllowedSignersPath(path, "gpg.ssh.allowedSignersFile");
  if (!text.ok()) {
    Status st = text.status();
    return no_actor(st.message()).WithDetail(DetailKey::kFile, path);
  }
  std::optional<std::string> blob;
  if (signer.literal) {
    blob = exporter::PublicKeyBlob(signer.key);
  } else {
    for (const std::string& candidate : {signer.key, signer.key + ".pub"}) {
      auto key = store::ReadNamedFile(candidate, kMaxKeyBytes);
      if (key.ok()) blob = exporter::PublicKeyBlob(*key);
      if (blob) break;
    }
  }
  if (!blob) return no_actor("cannot read the public key of user.signingKey " + signer.key);
  const std::vector<std::string> principals = exporter::PrincipalsOfKey(text->text, *blob);
  if (principals.size() == 1) return principals.front();
  std::string names;
  for (const std::string& p : principals) names += (names.empty() ? "" : ",") + p;
  if (principals.empty()) {
    return no_actor("no entry of gpg.ssh.allowedSignersFile " + path + " holds the signing key");
  }
  return no_actor("the signing key's entries in " + path + " name several principals (" + names +
                  ")")
      .WithDetail(DetailKey::kPrincipals, names);
}

Result<std::string> SignPayload(const ApprovalSigner& signer, const std::string& payload) {
  std::optional<store::ScratchDir> dir = store::ScratchDir::Create("gentle-ai-sign-");
  if (!dir || !dir->WriteFile("commit", payload)) {
    return Status(Code::kInternal, "cannot create a temporary directory for signing");
  }
  std::string key_file = signer.key;
  if (signer.literal) {
    if (!dir->WriteFile("key.pub", signer.key + "\n")) {
      return Status(Code::kInternal, "cannot write the signing key to a temporary file");
    }
    key_file = dir->path() + "/key.pub";
  }
  std::vector<std::string> argv = {signer.program, "-Y", "sign", "-n", "git", "-f", key_file};
  if (signer.literal) argv.push_back("-U");
  argv.push_back(dir->path() + "/commit");
  auto run = store::RunProgram(argv, "", store::kSignerDeadline);
  if (!run.ok() && run.status().code() == Code::kBusy) return run.status();
  if (!run.ok()) {
    return SigningFailed(run.status().message()).WithDetail(DetailKey::kProgram, signer.program);
  }
  if (run->exit_code != 0) {
    const std::string why = FirstLine(run->err);
    return SigningFailed(signer.program + " -Y sign exited " + std::to_string(run->exit_code) +
                         (why.empty() ? "" : ": " + why))
        .WithDetail(DetailKey::kProgram, signer.program)
        .WithDetail(DetailKey::kExitCode, std::to_string(run->exit_code))
        .WithDetail(DetailKey::kStderr, why);
  }
  auto signature = store::ReadFileLimited(dir->path() + "/commit.sig", 1u << 20);
  if (!signature.ok() || signature->compare(0, kSignatureBegin.size(), kSignatureBegin) != 0) {
    return SigningFailed(signer.program + " -Y sign wrote no SSH signature")
        .WithDetail(DetailKey::kProgram, signer.program);
  }
  return std::move(signature).value();
}

std::function<Result<std::string>(const std::string& payload)> CommitSigner(ApprovalSigner signer,
                                                                            std::string lineage) {
  return [signer = std::move(signer),
          lineage = std::move(lineage)](const std::string& payload) -> Result<std::string> {
    Result<std::string> signature = SignPayload(signer, payload);
    if (!signature.ok()) return Status(signature.status()).WithLineage(lineage);
    return signature;
  };
}

}  // namespace gentle::transaction
