// SSH signing fixtures for Catch tests: ed25519 key pairs made by ssh-keygen (no passphrase) and
// allowed signers files in git's format (`<principals> <key type> <key> [comment]`). MakeSshKey
// fails the running test when ssh-keygen fails.
#ifndef GENTLE_TESTS_SUPPORT_SSH_KEYS_H_
#define GENTLE_TESTS_SUPPORT_SSH_KEYS_H_

#include <string>
#include <utility>
#include <vector>

#include "tests/support/temp_dir.h"

namespace gentle::testing {

struct SshKey {
  std::string file;        // the private key; its public half is file + ".pub"
  std::string public_key;  // "ssh-ed25519 AAAA... <name>"
};

// A new key in `dir`, its comment `name`.
SshKey MakeSshKey(const TempDir& dir, const std::string& name);

// Writes `path` with one line per (principal, key): "<principal> <public key line>".
void WriteAllowedSigners(const std::string& path,
                         const std::vector<std::pair<std::string, SshKey>>& signers);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_SSH_KEYS_H_
