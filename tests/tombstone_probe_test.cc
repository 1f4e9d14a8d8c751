// store::MayHoldTombstones: the cheap "has any burn ever been written?" probe that lets
// export-context and verify skip opening index.sqlite for a live record. It may only answer
// "no tombstone" when that is certain; every doubtful shape sends the caller to the index.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "store/catalog.h"
#include "store/layout.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

namespace fs = std::filesystem;

TEST_CASE("tombstone probe: only a missing or empty tombstone directory means none") {
  TempDir tmp;
  const store::StoreLayout layout(tmp.path());
  const std::string dir = layout.tombstone_dir();

  CHECK_FALSE(store::MayHoldTombstones(layout));  // no store at all
  fs::create_directories(dir);
  CHECK_FALSE(store::MayHoldTombstones(layout));  // created, never written
  WriteFile(dir + "/0123.json", "{}");
  CHECK(store::MayHoldTombstones(layout));
  fs::remove(dir + "/0123.json");
  WriteFile(dir + "/.atomic-abc123", "");  // even a temp file: let the index decide
  CHECK(store::MayHoldTombstones(layout));
  fs::remove_all(dir);

  const std::string elsewhere = tmp.path() + "/elsewhere";
  fs::create_directories(elsewhere);
  fs::create_directories(fs::path(dir).parent_path());
  REQUIRE(symlink(elsewhere.c_str(), dir.c_str()) == 0);
  CHECK(store::MayHoldTombstones(layout));  // a symlink, even to an empty directory
  fs::remove(dir);
  WriteFile(dir, "not a directory");
  CHECK(store::MayHoldTombstones(layout));
}

}  // namespace
}  // namespace gentle::testing
