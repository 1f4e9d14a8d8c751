# Package.cmake: the Debian package of gentle-ai, made by `cpack -G DEB` from what `cmake --install`
# installs (the binary; the man pages and shell completions of cli/). Included last from the
# top-level CMakeLists.txt. tests/package_check.sh builds it, reads its metadata, installs it with
# `dpkg -i`, runs it and removes it.
#
# Dependencies are what the binary really needs: dpkg-shlibdeps reads its NEEDED entries (glibc's
# libc only; libgit2, SQLite, libcrypto and zlib are linked from static archives, see
# cmake/StaticDeps.cmake), and git, which `review push`/`fetch` and `--engine git` run. ssh-keygen
# (openssh-client) is needed only to sign or check signed approvals, and gh only for the GitHub
# credential of `review watch`/`review post`: suggested. libcurl4 is recommended: both forges'
# transport loads libcurl.so.4 when it first asks a forge (watch/curl_api.h; dlopen, so
# dpkg-shlibdeps cannot see it), and apt installs Recommends by default, so a default install
# reaches the forges, while every other verb, and a system
# that leaves it out, works without it (docs/design.md, "Decisions"). libcurl4t64 is the same
# soname under Debian 13's 64-bit time_t name. The package also holds the daemon's systemd user
# unit (watch/CMakeLists.txt).
set(CPACK_PACKAGE_NAME gentle-ai)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "gentle-ai")
set(CPACK_PACKAGE_CONTACT "gentle-ai maintainers <gentle-ai@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "review transaction store: freeze, decide and verify code reviews in git")
set(CPACK_PACKAGE_DESCRIPTION
  "gentle-ai review freezes a candidate code change (base tree, candidate tree, changed paths,
digests) into a content-addressed lineage inside the repository's git directory, moves it through
a review state machine, and lets anyone (a sibling worktree, a later session, CI) ask, read-only,
what exactly was reviewed, byte for byte, with proof.")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION vcs)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "git")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libcurl4 | libcurl4t64")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openssh-client, gh")
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
# Only what the project installs; the build directory's test and benchmark executables install
# nothing.
include(CPack)
