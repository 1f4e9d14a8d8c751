// BareRepo: a bare repository in a TempDir, opened with libgit2 set up as the product sets it up
// (store::git::EnsureLibgit2), for tests that build blobs and trees directly (the patch engine's
// tests). Its helpers fail the running Catch test when libgit2 or git refuses a step.
#ifndef GENTLE_TESTS_SUPPORT_BARE_REPO_H_
#define GENTLE_TESTS_SUPPORT_BARE_REPO_H_

#include <git2.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/git_oracle.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {

class BareRepo {
 public:
  using TreeEntry = std::tuple<std::string, git_filemode_t, git_oid>;

  BareRepo();
  BareRepo(const BareRepo&) = delete;
  BareRepo& operator=(const BareRepo&) = delete;

  git_repository* get() { return handle_->get(); }
  const std::string& git_dir() const { return git_dir_; }

  git_oid Blob(const std::string& data);
  // A one-level tree from (name, mode, oid) entries.
  git_oid Tree(const std::vector<TreeEntry>& entries);
  // Deletes the loose object file, leaving references to it dangling.
  void RemoveObject(const git_oid& oid);
  // Packs `keep` (and what they reach) and drops their loose copies.
  void Repack(const std::vector<git_oid>& keep);

  static std::string Hex(const git_oid& oid);

 private:
  TempDir dir_;
  std::string git_dir_;
  std::unique_ptr<RepoHandle> handle_;
};

}  // namespace gentle::testing

#endif  // GENTLE_TESTS_SUPPORT_BARE_REPO_H_
