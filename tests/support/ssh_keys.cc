#include "tests/support/ssh_keys.h"

#include <catch2/catch.hpp>

#include "tests/support/files.h"
#include "tests/support/process.h"

namespace gentle::testing {

SshKey MakeSshKey(const TempDir& dir, const std::string& name) {
  const std::string file = dir.path() + "/" + name;
  RunResult made = Run({"ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", file});
  INFO(made.err);
  REQUIRE(made.exit_code == 0);
  return {file, Trim(ReadFile(file + ".pub"))};
}

void WriteAllowedSigners(const std::string& path,
                         const std::vector<std::pair<std::string, SshKey>>& signers) {
  std::string text;
  for (const auto& [principal, key] : signers) text += principal + " " + key.public_key + "\n";
  WriteFile(path, text);
}

}  // namespace gentle::testing
