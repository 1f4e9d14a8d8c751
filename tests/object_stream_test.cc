// Objects read and hashed in pieces: store::git::BlobStream gives a loose blob's bytes exactly and
// checks its id once they are all read (a packed blob is not streamed); store::git::HashFileAsBlob
// and store::git::ObjectHashStream give the id `git hash-object` gives, whatever the size.
#include <git2.h>

#include <catch2/catch.hpp>
#include <random>

#include "store/git/object_hash_stream.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string NoiseOf(size_t bytes, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string data(bytes, '\0');
  for (char& c : data) c = static_cast<char>(gen() & 0xff);
  return data;
}

// Writes `data` as a loose blob of `repo` with the git CLI; returns its id.
std::string WriteBlob(const std::string& repo, const std::string& data, const std::string& name) {
  WriteFile(repo + "/" + name, data);
  return Trim(Git(repo, {"hash-object", "-w", "--no-filters", name}));
}

}  // namespace

TEST_CASE("BlobStream reads a loose blob in pieces and checks its id at the end") {
  store::git::EnsureLibgit2();
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string data = NoiseOf(300001, 5);
  const std::string hex = WriteBlob(repo, data, "noise");
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  RepoHandle handle(repo + "/.git");
  auto odb = store::git::RepositoryOdb(handle.get());
  REQUIRE(odb.ok());

  auto header = store::git::ReadObjectHeader(odb->get(), oid);
  REQUIRE(header.ok());
  CHECK(header->type == GIT_OBJECT_BLOB);
  CHECK(header->size == data.size());

  auto stream = store::git::BlobStream::OpenLoose(odb->get(), oid);
  REQUIRE(stream);
  CHECK(stream->size() == data.size());
  std::string read;
  char buffer[4099];
  for (;;) {
    auto got = stream->Read(buffer, sizeof(buffer));
    REQUIRE(got.ok());
    if (*got == 0) break;
    read.append(buffer, *got);
  }
  CHECK(read == data);
  CHECK(stream->consumed() == data.size());
  CHECK(stream->Finish().ok());

  SECTION("bytes that do not hash to the id are objects_missing") {
    const std::string other = WriteBlob(repo, NoiseOf(300001, 6), "other");
    ReplaceLooseObject(repo + "/.git", hex, other);
    auto swapped = store::git::BlobStream::OpenLoose(odb->get(), oid);
    REQUIRE(swapped);
    std::string all(static_cast<size_t>(swapped->size()), '\0');
    REQUIRE(swapped->Read(all.data(), all.size()).ok());
    Status finish = swapped->Finish();
    CHECK(finish.code() == Code::kObjectsMissing);
    CHECK(finish.details().at("reason") == "hash_mismatch");
  }
  SECTION("a packed blob is not streamed - a missing one has no header") {
    Git(repo, {"update-ref", "refs/keep/noise", hex});
    Git(repo, {"repack", "-adq"});
    CHECK_FALSE(store::git::BlobStream::OpenLoose(odb->get(), oid).has_value());
    CHECK(store::git::ReadObjectHeader(odb->get(), oid).ok());
    git_oid absent;
    REQUIRE(git_oid_fromstr(&absent, "0123456789abcdef0123456789abcdef01234567") == 0);
    CHECK(store::git::ReadObjectHeader(odb->get(), absent).status().code() ==
          Code::kObjectsMissing);
    CHECK_FALSE(store::git::BlobStream::OpenLoose(odb->get(), absent).has_value());
  }
}

TEST_CASE("HashFileAsBlob is git hash-object for files of any size") {
  TempDir tmp;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}, size_t{65537},
                   size_t{3 * 1024 * 1024 + 7}}) {
    const std::string path = tmp.path() + "/f" + std::to_string(n);
    WriteFile(path, NoiseOf(n, static_cast<uint32_t>(n)));
    auto id = store::git::HashFileAsBlob(path);
    REQUIRE(id.ok());
    RunResult git = Run({"git", "hash-object", "--no-filters", path}, "", OracleEnv());
    REQUIRE(git.exit_code == 0);
    CHECK(store::git::OidHex(*id) == Trim(git.out));
  }
  CHECK(store::git::HashFileAsBlob(tmp.path() + "/absent").status().code() == Code::kInternal);
  store::git::ObjectHashStream short_of_size;
  short_of_size.Start(GIT_OBJECT_BLOB, 3);
  short_of_size.Update("ab");
  CHECK_FALSE(short_of_size.Finish().has_value());
  store::git::ObjectHashStream exact;
  exact.Start(GIT_OBJECT_BLOB, 2);
  exact.Update("a");
  exact.Update("b");
  const std::optional<git_oid> id = exact.Finish();
  REQUIRE(id);
  CHECK(store::git::OidHex(*id) == store::git::OidHex(store::git::ObjectId(GIT_OBJECT_BLOB, "ab")));
}

}  // namespace gentle::testing
