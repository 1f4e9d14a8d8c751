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

}  // namespace gentle::store::git
