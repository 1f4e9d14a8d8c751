// Where an allowed signers file comes from (docs/ci.md, "Whose signers file"): the root of trust
// of every signature check (export/approval_signature.h), read once per command, whole.
//
// LoadAllowedSigners(repo, spec, flag) reads `spec`, which is one of two forms:
//   - REF:PATH, the file PATH in the tree of the revision REF
//   (`origin/main:.github/allowed_signers`),
//     read from the object database, never from the worktree or the index: the form CI uses so
//     that a pull request cannot supply its own signers. A spec is this form when it contains a ':'
//     and does not begin with '/', "./" or "../". REF resolves as store/git/repository.h PeelRev
//     resolves it (to a tree); PATH is '/'-separated from the tree's root, every component
//     non-empty and neither "." nor "..". A REF that does not resolve, a PATH that is not in the
//     tree, an entry that is not a regular file (a tree, a symlink, a submodule) or a blob over
//     kMaxAllowedSignersBytes is `usage` naming which. Never falls back to a file of that name:
//     a literal path containing ':' is written with a leading "./" (or absolute).
//   - a path (any other spec), opened as git opens gpg.ssh.allowedSignersFile: a symlink is
//     followed (store/named_file.h ReadNamedFile); a target that is not a regular file, or one
//     over kMaxAllowedSignersBytes, is `usage` naming the flag, the path and which.
// An empty spec is `usage`. `flag` names the option in messages ("--allowed-signers").
//
// ReadAllowedSignersPath(path, what) is the path form alone, for a file named by git config
// (gpg.ssh.allowedSignersFile), `what` naming it in messages.
#ifndef GENTLE_EXPORT_ALLOWED_SIGNERS_SOURCE_H_
#define GENTLE_EXPORT_ALLOWED_SIGNERS_SOURCE_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "store/git/repository.h"
#include "store/status.h"

namespace gentle::exporter {

inline constexpr size_t kMaxAllowedSignersBytes = 16u << 20;

struct AllowedSigners {
  std::string name;  // the spec as given: how messages name the file
  std::string text;  // its bytes
};

// True when `spec` is read as REF:PATH (see above).
bool IsRefPathSpec(std::string_view spec);

Result<AllowedSigners> LoadAllowedSigners(const store::git::Repository& repo,
                                          const std::string& spec,
                                          std::string_view flag = "--allowed-signers");

Result<AllowedSigners> ReadAllowedSignersPath(const std::string& path, std::string_view what);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ALLOWED_SIGNERS_SOURCE_H_
