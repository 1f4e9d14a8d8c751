#include "store/git/git_util.h"

namespace gentle::store::git {

std::string LastGitError() {
  const git_error* error = git_error_last();
  return error && error->message ? error->message : "unknown error";
}

std::string OidHex(const git_oid& oid) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof(hex), &oid);
  return hex;
}

Result<git_oid> ParseOidHex(const std::string& hex) {
  git_oid oid;
  if (hex.size() != GIT_OID_HEXSZ || git_oid_fromstr(&oid, hex.c_str()) != 0) {
    return Status(Code::kCorrupted, "malformed object id: " + hex);
  }
  return oid;
}

}  // namespace gentle::store::git
