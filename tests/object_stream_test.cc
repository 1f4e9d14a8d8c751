// Objects hashed in pieces: store::HashFileAsBlob and store::ObjectHashStream give the id
// `git hash-object` gives, whatever the size.
#include <git2.h>

#include <catch2/catch.hpp>
#include <random>

#include "store/object_hash_stream.h"
#include "store/tree_rows.h"
#include "tests/test_repo.h"

namespace gentle::testing {
namespace {

std::string NoiseOf(size_t bytes, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string data(bytes, '\0');
  for (char& c : data) c = static_cast<char>(gen() & 0xff);
  return data;
}

}  // namespace

TEST_CASE("HashFileAsBlob is git hash-object for files of any size") {
  TempDir tmp;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}, size_t{65537},
                   size_t{3 * 1024 * 1024 + 7}}) {
    const std::string path = tmp.path() + "/f" + std::to_string(n);
    WriteFile(path, NoiseOf(n, static_cast<uint32_t>(n)));
    auto id = store::HashFileAsBlob(path);
    REQUIRE(id.ok());
    RunResult git = RunCommand({"git", "hash-object", "--no-filters", path}, OracleEnv());
    REQUIRE(git.exit_code == 0);
    CHECK(store::OidHex(*id) == Trim(git.out));
  }
  CHECK(store::HashFileAsBlob(tmp.path() + "/absent").status().code() == Code::kInternal);
  store::ObjectHashStream short_of_size;
  short_of_size.Start(GIT_OBJECT_BLOB, 3);
  short_of_size.Update("ab");
  CHECK_FALSE(short_of_size.Finish().has_value());
  store::ObjectHashStream exact;
  exact.Start(GIT_OBJECT_BLOB, 2);
  exact.Update("a");
  exact.Update("b");
  const std::optional<git_oid> id = exact.Finish();
  REQUIRE(id);
  CHECK(store::OidHex(*id) == store::OidHex(store::ObjectId(GIT_OBJECT_BLOB, "ab")));
}

}  // namespace gentle::testing
