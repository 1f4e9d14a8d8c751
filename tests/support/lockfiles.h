// Real-looking lockfiles for tests of big changes (docs/commands.md, "Views and parts"): an npm
// `package-lock.json` (lockfileVersion 3) and a Cargo `Cargo.lock` of `packages` entries each,
// every byte a function of the arguments, so a test builds the same multi-megabyte history on
// every run. Bumping (`generation` > 0) changes the version, URL and checksum of every
// `bump_every`-th package and appends `generation * 10` new packages, as a dependency update does.
#ifndef GENTLE_TESTS_SUPPORT_LOCKFILES_H_
#define GENTLE_TESTS_SUPPORT_LOCKFILES_H_

#include <cstddef>
#include <string>

namespace gentle::testing {

// About 330 bytes per package.
std::string NpmLockfile(size_t packages, int generation, size_t bump_every = 7);

// About 190 bytes per package.
std::string CargoLockfile(size_t packages, int generation, size_t bump_every = 5);

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_LOCKFILES_H_
