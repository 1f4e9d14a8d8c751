// store/lazy_libm.cc: SQLite's math functions reach libm through `ld --wrap` and a libm.so.6
// loaded on the first call. Each answer is checked against a value exact in binary64 (correctly
// rounded by libm), so a wrapper that resolved the wrong function, or swapped two arguments,
// fails. The release binary naming no libm at all is checked by tests/package_check.sh.
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <string>

namespace gentle::testing {
namespace {

double SelectReal(sqlite3* db, const std::string& expression) {
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(db, ("SELECT " + expression).c_str(), -1, &stmt, nullptr) ==
          SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  REQUIRE(sqlite3_column_type(stmt, 0) == SQLITE_FLOAT);
  const double value = sqlite3_column_double(stmt, 0);
  sqlite3_finalize(stmt);
  return value;
}

TEST_CASE("lazy libm: SQLite's math functions answer with libm's values") {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(":memory:", &db) == SQLITE_OK);
  CHECK(SelectReal(db, "sqrt(2.0)") == 1.4142135623730951);
  CHECK(SelectReal(db, "pow(2.0, 10.0)") == 1024.0);
  CHECK(SelectReal(db, "pow(10.0, 2.0)") == 100.0);
  CHECK(SelectReal(db, "mod(7.5, 2.0)") == 1.5);
  CHECK(SelectReal(db, "mod(2.0, 7.5)") == 2.0);
  CHECK(SelectReal(db, "trunc(-2.75)") == -2.0);
  CHECK(SelectReal(db, "exp(0.0)") == 1.0);
  CHECK(SelectReal(db, "ln(1.0)") == 0.0);
  CHECK(SelectReal(db, "acos(-1.0)") == 3.141592653589793);
  CHECK(SelectReal(db, "atan2(1.0, 0.0)") == 1.5707963267948966);
  CHECK(SelectReal(db, "atan2(0.0, 1.0)") == 0.0);
  CHECK(SelectReal(db, "cos(0.0)") == 1.0);
  CHECK(SelectReal(db, "sin(0.0)") == 0.0);
  sqlite3_close(db);
}

}  // namespace
}  // namespace gentle::testing
