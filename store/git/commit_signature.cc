#include "store/git/commit_signature.h"

#include <string_view>

#include "store/git/object_reader.h"

namespace gentle::store::git {

Result<std::optional<CommitSignature>> ReadCommitSignature(const Repository& repo,
                                                           const std::string& id) {
  GENTLE_ASSIGN_OR_RETURN(git_oid oid, ParseOidHex(id));
  GENTLE_ASSIGN_OR_RETURN(OdbPtr odb, RepositoryOdb(repo.raw()));
  GENTLE_ASSIGN_OR_RETURN(OdbObjectPtr object, ReadObject(odb.get(), oid, GIT_OBJECT_COMMIT));
  const std::string_view data(static_cast<const char*>(git_odb_object_data(object.get())),
                              git_odb_object_size(object.get()));
  const size_t body = data.find("\n\n");
  if (body == std::string_view::npos) {
    return Status(Code::kCorrupted, "commit " + id + " has no message separator");
  }
  constexpr std::string_view kHeader = "gpgsig ";
  CommitSignature out;
  bool found = false;
  bool in_signature = false;
  size_t pos = 0;
  // Header lines up to and including the one that ends at `body`; the message follows untouched.
  while (pos <= body) {
    const size_t end = data.find('\n', pos);
    const std::string_view line = data.substr(pos, end - pos + 1);  // with its newline
    if (in_signature && !line.empty() && line[0] == ' ') {
      out.signature.append(line.substr(1));
    } else if (!found && line.substr(0, kHeader.size()) == kHeader) {
      found = true;
      in_signature = true;
      out.signature.append(line.substr(kHeader.size()));
    } else {
      in_signature = false;
      out.payload.append(line);
    }
    pos = end + 1;
  }
  out.payload.append(data.substr(pos));
  if (!found) return std::optional<CommitSignature>();
  return std::optional<CommitSignature>(std::move(out));
}

}  // namespace gentle::store::git
