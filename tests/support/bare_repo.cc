#include "tests/support/bare_repo.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/git/repository.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {

BareRepo::BareRepo() : git_dir_(dir_.path() + "/r.git") {
  store::git::EnsureLibgit2();  // as the product: libgit2's own hash check off
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, git_dir_.c_str(), 1) == 0);
  git_repository_free(raw);
  handle_ = std::make_unique<RepoHandle>(git_dir_);
}

git_oid BareRepo::Blob(const std::string& data) {
  git_oid oid;
  REQUIRE(git_blob_create_from_buffer(&oid, get(), data.data(), data.size()) == 0);
  return oid;
}

git_oid BareRepo::Tree(const std::vector<TreeEntry>& entries) {
  git_treebuilder* builder = nullptr;
  REQUIRE(git_treebuilder_new(&builder, get(), nullptr) == 0);
  for (const auto& [name, mode, oid] : entries) {
    REQUIRE(git_treebuilder_insert(nullptr, builder, name.c_str(), &oid, mode) == 0);
  }
  git_oid id;
  REQUIRE(git_treebuilder_write(&id, builder) == 0);
  git_treebuilder_free(builder);
  return id;
}

void BareRepo::RemoveObject(const git_oid& oid) {
  REQUIRE(std::filesystem::remove(LooseObjectPath(git_dir_, Hex(oid))));
}

void BareRepo::Repack(const std::vector<git_oid>& keep) {
  for (size_t i = 0; i < keep.size(); ++i) {
    Git(git_dir_, {"update-ref", "refs/keep/" + std::to_string(i), Hex(keep[i])});
  }
  Git(git_dir_, {"repack", "-adq"});
}

std::string BareRepo::Hex(const git_oid& oid) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof(hex), &oid);
  return hex;
}

}  // namespace gentle::testing
