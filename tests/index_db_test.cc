#include "store/index/index_db.h"

#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace gentle::store::index {
namespace {

namespace fs = std::filesystem;

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// The path of `name` directly in `dir` (the index and its side files live there).
std::string File(const TempDir& dir, const std::string& name) { return dir.path() + "/" + name; }

std::set<std::string> Entries(const TempDir& dir) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

// Runs SQL on the file directly, bypassing IndexDb (to forge versions).
void RawExec(const std::string& path, const char* sql, bool keep_wal = false) {
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
  // As IndexDb does, so that a later read-only open finds index.sqlite-wal and -shm.
  int persist = keep_wal ? 1 : 0;
  sqlite3_file_control(db, "main", SQLITE_FCNTL_PERSIST_WAL, &persist);
  REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
  sqlite3_close(db);
}

std::unique_ptr<IndexDb> OpenRw(const std::string& path, const IndexOptions& options = {}) {
  auto db = IndexDb::OpenReadWrite(path, options);
  INFO(db.status().message());
  REQUIRE(db.ok());
  return std::move(db).value();
}

std::string Hex64(int n) {
  char buf[65];
  std::snprintf(buf, sizeof(buf), "%064x", n);
  return buf;
}

LineageRow Lineage(const std::string& id, const std::string& created_at) {
  return LineageRow{id,
                    store::ReviewState::kReviewing,
                    "current-changes",
                    created_at,
                    3,
                    "sha256:r",
                    "sha256:t-" + id,
                    RowStatus::kPrepared};
}

TombstoneRow Tombstone(int n, const std::string& lineage) {
  return TombstoneRow{Hex64(n), lineage, "sha256:target", "sha256:repo", RowStatus::kPrepared};
}

QuarantineRow Quarantine(const std::string& dir, const std::string& lineage,
                         const std::string& at) {
  return QuarantineRow{dir,
                       lineage,
                       "/store/quarantine/" + dir + "/reclaim-record.json",
                       "operator_disposition",
                       "alice",
                       at,
                       RowStatus::kPrepared};
}

TEST_CASE("index: lineage round trip - prepared then committed - delete") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  LineageRow row = Lineage("review-0123456789abcdef", "2026-01-02T03:04:05.123456789Z");
  REQUIRE(db->UpsertLineage(row).ok());
  auto found = db->FindLineage(row.lineage_id);
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK(**found == row);

  REQUIRE(db->MarkLineageCommitted(row.lineage_id).ok());
  CHECK((*db->FindLineage(row.lineage_id))->status == RowStatus::kCommitted);

  row.state = store::ReviewState::kApproved;
  row.revision = "sha256:r2";
  row.status = RowStatus::kPrepared;  // a new mutation prepares again
  REQUIRE(db->UpsertLineage(row).ok());
  CHECK(**db->FindLineage(row.lineage_id) == row);

  REQUIRE(db->DeleteLineage(row.lineage_id).ok());
  CHECK(!db->FindLineage(row.lineage_id)->has_value());
  CHECK(db->DeleteLineage(row.lineage_id).ok());  // idempotent
  CHECK(db->MarkLineageCommitted(row.lineage_id).code() == Code::kNotFound);
}

TEST_CASE("index: a malformed key is refused by the schema - not stored") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  TombstoneRow bad = Tombstone(1, "review-a");
  bad.key = "NOT-HEX";
  CHECK(db->UpsertTombstone(bad).code() == Code::kInternal);
  CHECK(db->UpsertLineage(Lineage("Review/../x", "2026-01-01T00:00:00Z")).code() ==
        Code::kInternal);
  CHECK(!db->FindTombstoneByLineage("review-a")->has_value());
}

TEST_CASE("index: tombstone round trip - lookup by lineage prefers the committed row") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  CHECK(!db->FindTombstoneByLineage("review-a")->has_value());

  TombstoneRow first = Tombstone(2, "review-a");
  REQUIRE(db->UpsertTombstone(first).ok());
  CHECK(**db->FindTombstoneByLineage("review-a") == first);

  TombstoneRow second = Tombstone(9, "review-a");
  REQUIRE(db->UpsertTombstone(second).ok());
  REQUIRE(db->MarkTombstoneCommitted(second.key).ok());
  second.status = RowStatus::kCommitted;
  CHECK(**db->FindTombstoneByLineage("review-a") == second);
  CHECK(!db->FindTombstoneByLineage("review-b")->has_value());

  REQUIRE(db->DeleteTombstone(second.key).ok());
  CHECK(**db->FindTombstoneByLineage("review-a") == first);
  CHECK(db->MarkTombstoneCommitted(Hex64(77)).code() == Code::kNotFound);
}

TEST_CASE("index: quarantine lookup returns the newest committed entry") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  // RFC3339Nano drops trailing zeros: bytewise, ":05Z" > ":05.5Z" although it is earlier.
  QuarantineRow older = Quarantine("review-a-1111", "review-a", "2026-01-01T00:00:05Z");
  QuarantineRow newer = Quarantine("review-a-0000", "review-a", "2026-01-01T00:00:05.5Z");
  QuarantineRow newest_prepared =
      Quarantine("review-a-2222", "review-a", "2026-01-01T01:00:00+00:30");  // 00:30Z
  for (auto* row : {&older, &newer, &newest_prepared}) REQUIRE(db->UpsertQuarantine(*row).ok());

  // Only prepared rows: the newest prepared one (the caller resolves it from the files).
  CHECK(**db->FindQuarantineByLineage("review-a") == newest_prepared);

  REQUIRE(db->MarkQuarantineCommitted(older.quarantine_dir).ok());
  REQUIRE(db->MarkQuarantineCommitted(newer.quarantine_dir).ok());
  older.status = newer.status = RowStatus::kCommitted;
  CHECK(**db->FindQuarantineByLineage("review-a") == newer);

  REQUIRE(db->DeleteQuarantine(newer.quarantine_dir).ok());
  CHECK(**db->FindQuarantineByLineage("review-a") == older);
  CHECK(!db->FindQuarantineByLineage("review-b")->has_value());
  CHECK(db->MarkQuarantineCommitted("review-b-9").code() == Code::kNotFound);
}

TEST_CASE("index: ListLineages orders by creation instant - then id - and can stop early") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  REQUIRE(db->UpsertLineage(Lineage("review-c", "2026-01-01T00:00:01Z")).ok());
  REQUIRE(db->UpsertLineage(Lineage("review-b", "2026-01-01T00:00:00.5Z")).ok());
  REQUIRE(db->UpsertLineage(Lineage("review-a", "2026-01-01T00:00:01Z")).ok());
  REQUIRE(
      db->UpsertLineage(Lineage("review-d", "2026-01-01T01:00:00+02:00")).ok());  // 23:00 prev day

  std::vector<std::string> ids;
  REQUIRE(db->ListLineages([&](const LineageRow& row) {
              ids.push_back(row.lineage_id);
              return true;
            }).ok());
  CHECK(ids == std::vector<std::string>{"review-d", "review-b", "review-a", "review-c"});

  ids.clear();
  REQUIRE(db->ListLineages([&](const LineageRow& row) {
              ids.push_back(row.lineage_id);
              return ids.size() < 2;
            }).ok());
  CHECK(ids.size() == 2);
}

TEST_CASE("index: ListPrepared returns every prepared row of every table") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  LineageRow live = Lineage("review-live", "2026-01-01T00:00:00Z");
  LineageRow pending = Lineage("review-pending", "2026-01-01T00:00:00Z");
  TombstoneRow burned = Tombstone(1, "review-burned");
  TombstoneRow burning = Tombstone(2, "review-burning");
  QuarantineRow moved = Quarantine("review-q-1", "review-q", "2026-01-01T00:00:00Z");
  QuarantineRow moving = Quarantine("review-q-2", "review-q", "2026-01-01T00:00:01Z");
  REQUIRE(db->WriteTransaction([&]() -> Status {
              for (const auto& r : {live, pending}) GENTLE_RETURN_IF_ERROR(db->UpsertLineage(r));
              for (const auto& r : {burned, burning})
                GENTLE_RETURN_IF_ERROR(db->UpsertTombstone(r));
              for (const auto& r : {moved, moving}) GENTLE_RETURN_IF_ERROR(db->UpsertQuarantine(r));
              GENTLE_RETURN_IF_ERROR(db->MarkLineageCommitted(live.lineage_id));
              GENTLE_RETURN_IF_ERROR(db->MarkTombstoneCommitted(burned.key));
              return db->MarkQuarantineCommitted(moved.quarantine_dir);
            }).ok());

  auto prepared = db->ListPrepared();
  REQUIRE(prepared.ok());
  CHECK(prepared->lineages == std::vector<LineageRow>{pending});
  CHECK(prepared->tombstones == std::vector<TombstoneRow>{burning});
  CHECK(prepared->quarantine == std::vector<QuarantineRow>{moving});
}

TEST_CASE("index: WriteTransaction rolls back when its body fails") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  Status status = db->WriteTransaction([&]() -> Status {
    GENTLE_RETURN_IF_ERROR(db->UpsertLineage(Lineage("review-x", "2026-01-01T00:00:00Z")));
    return Status(Code::kConflict, "lost the race");
  });
  CHECK(status.code() == Code::kConflict);
  CHECK(!db->FindLineage("review-x")->has_value());
  CHECK(db->WriteTransaction([&] {
            return db->WriteTransaction([] { return Status::Ok(); });
          }).code() == Code::kInternal);
}

TEST_CASE("index: ReplaceAll regenerates every table atomically") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  REQUIRE(db->UpsertLineage(Lineage("review-old", "2026-01-01T00:00:00Z")).ok());
  REQUIRE(db->UpsertTombstone(Tombstone(1, "review-old-burn")).ok());
  REQUIRE(db->UpsertQuarantine(Quarantine("review-oldq-1", "review-oldq", "2026-01-01T00:00:00Z"))
              .ok());

  IndexSnapshot snapshot;
  snapshot.lineages = {Lineage("review-new", "2026-02-01T00:00:00Z")};
  snapshot.lineages[0].status = RowStatus::kCommitted;
  snapshot.tombstones = {Tombstone(5, "review-new-burn")};
  snapshot.tombstones[0].status = RowStatus::kCommitted;
  snapshot.quarantine = {Quarantine("review-newq-1", "review-newq", "2026-02-01T00:00:00Z")};
  snapshot.quarantine[0].status = RowStatus::kCommitted;
  REQUIRE(db->ReplaceAll(snapshot).ok());

  CHECK(!db->FindLineage("review-old")->has_value());
  CHECK(!db->FindTombstoneByLineage("review-old-burn")->has_value());
  CHECK(!db->FindQuarantineByLineage("review-oldq")->has_value());
  CHECK(**db->FindLineage("review-new") == snapshot.lineages[0]);
  CHECK(**db->FindTombstoneByLineage("review-new-burn") == snapshot.tombstones[0]);
  CHECK(**db->FindQuarantineByLineage("review-newq") == snapshot.quarantine[0]);
  CHECK(db->ListPrepared()->tombstones.empty());

  // A snapshot with one bad row changes nothing.
  IndexSnapshot bad;
  bad.lineages = {Lineage("review-other", "2026-03-01T00:00:00Z")};
  bad.tombstones = {Tombstone(6, "review-x")};
  bad.tombstones[0].key = "short";
  CHECK(!db->ReplaceAll(bad).ok());
  CHECK(db->FindLineage("review-new")->has_value());
  CHECK(!db->FindLineage("review-other")->has_value());
}

TEST_CASE("index: a new index file and its WAL side files are private (0600)") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  auto db = OpenRw(path);
  REQUIRE(db->UpsertLineage(Lineage("review-a", "2026-01-01T00:00:00Z")).ok());
  for (const std::string& name : Entries(dir)) {
    INFO(name);
    CHECK((fs::status(File(dir, name)).permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write));
  }
  CHECK(Entries(dir).count("index.sqlite-wal") == 1);
}

TEST_CASE("index: an empty file is migrated to the current schema_version") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  WriteFile(path, "");  // a zero-byte file is an empty SQLite database at user_version 0
  {
    auto db = OpenRw(path);
    CHECK(db->schema_version() == 1);
    CHECK(!db->read_only());
  }
  sqlite3* raw = nullptr;
  REQUIRE(sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* stmt = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw,
                             "SELECT user_version, journal_mode FROM pragma_user_version, "
                             "pragma_journal_mode",
                             -1, &stmt, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(stmt) == SQLITE_ROW);
  CHECK(sqlite3_column_int(stmt, 0) == 1);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1))) == "wal");
  sqlite3_finalize(stmt);
  sqlite3_close(raw);

  // Reopening a current index migrates nothing and keeps the rows.
  auto db = OpenRw(path);
  REQUIRE(db->UpsertLineage(Lineage("review-a", "2026-01-01T00:00:00Z")).ok());
  db.reset();
  CHECK(OpenRw(path)->FindLineage("review-a")->has_value());
}

TEST_CASE("index: a newer schema_version is refused in both modes") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  OpenRw(path).reset();
  RawExec(path, "PRAGMA user_version = 2");
  std::string before = ReadFile(path);
  for (bool read_only : {false, true}) {
    auto db = read_only ? IndexDb::OpenReadOnly(path) : IndexDb::OpenReadWrite(path);
    REQUIRE(!db.ok());
    CHECK(db.status().code() == Code::kCorrupted);
    CHECK(db.status().message().find("index from a newer release") != std::string::npos);
  }
  CHECK(ReadFile(path) == before);
}

TEST_CASE("index: a SQLite database that is not ours is kCorrupted") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  RawExec(path, "CREATE TABLE foreign_table (x)");
  CHECK(IndexDb::OpenReadWrite(path).status().code() == Code::kCorrupted);
  RawExec(path, "PRAGMA user_version = 1");  // right version, no application id, wrong tables
  CHECK(IndexDb::OpenReadWrite(path).status().code() == Code::kCorrupted);
  CHECK(IndexDb::OpenReadOnly(path).status().code() == Code::kCorrupted);
}

TEST_CASE("index: a reader opened for lineage lookups compiles only those") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  {
    auto db = OpenRw(path);
    REQUIRE(db->UpsertTombstone(Tombstone(1, "review-a")).ok());
  }
  IndexOptions lookups;
  lookups.read_use = IndexOptions::ReadUse::kLineageLookups;
  // A column only the catalog reads: the lookups still open and answer; a full reader refuses.
  RawExec(path, "ALTER TABLE lineages DROP COLUMN path_count", /*keep_wal=*/true);
  CHECK(IndexDb::OpenReadOnly(path).status().code() == Code::kCorrupted);
  auto db = IndexDb::OpenReadOnly(path, lookups);
  REQUIRE(db.ok());
  auto found = (*db)->FindTombstoneByLineage("review-a");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->lineage_id == "review-a");
  CHECK((*db)->FindQuarantineByLineage("review-a").ok());
  CHECK_FALSE((*db)->FindLineage("review-a").ok());  // compiled on use, and refused
  db->reset();
  // A column the tombstone lookup reads: the lookup reader refuses at open.
  RawExec(path, "ALTER TABLE tombstones DROP COLUMN repository", /*keep_wal=*/true);
  CHECK(IndexDb::OpenReadOnly(path, lookups).status().code() == Code::kCorrupted);
}

TEST_CASE("index: a reader opened for the tombstone lookup compiles only that") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  {
    auto db = OpenRw(path);
    REQUIRE(db->UpsertTombstone(Tombstone(1, "review-a")).ok());
  }
  IndexOptions tombstone_only;
  tombstone_only.read_use = IndexOptions::ReadUse::kTombstoneLookup;
  // A column only the quarantine lookup reads: the lineage-lookups reader refuses at open, the
  // tombstone reader opens and answers, and refuses the quarantine lookup when it is run.
  RawExec(path, "ALTER TABLE quarantine DROP COLUMN actor", /*keep_wal=*/true);
  IndexOptions lookups;
  lookups.read_use = IndexOptions::ReadUse::kLineageLookups;
  CHECK(IndexDb::OpenReadOnly(path, lookups).status().code() == Code::kCorrupted);
  auto db = IndexDb::OpenReadOnly(path, tombstone_only);
  REQUIRE(db.ok());
  auto found = (*db)->FindTombstoneByLineage("review-a");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->lineage_id == "review-a");
  auto missing = (*db)->FindTombstoneByLineage("review-b");
  REQUIRE(missing.ok());
  CHECK_FALSE(missing->has_value());
  CHECK_FALSE((*db)->FindQuarantineByLineage("review-a").ok());
  db->reset();
  // A column the tombstone lookup reads: refused at open.
  RawExec(path, "ALTER TABLE tombstones DROP COLUMN repository", /*keep_wal=*/true);
  CHECK(IndexDb::OpenReadOnly(path, tombstone_only).status().code() == Code::kCorrupted);
}

TEST_CASE("index: a read-only connection reads one snapshot from open to close") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  auto writer = OpenRw(path);
  REQUIRE(writer->UpsertTombstone(Tombstone(1, "review-a")).ok());
  auto reader = IndexDb::OpenReadOnly(path);
  REQUIRE(reader.ok());
  REQUIRE(writer->UpsertTombstone(Tombstone(2, "review-b")).ok());
  CHECK((*reader)->FindTombstoneByLineage("review-a")->has_value());
  CHECK_FALSE((*reader)->FindTombstoneByLineage("review-b")->has_value());  // written after open
  auto prepared = (*reader)->ListPrepared();
  CHECK(prepared.ok());
  reader->reset();
  auto later = IndexDb::OpenReadOnly(path);
  REQUIRE(later.ok());
  CHECK((*later)->FindTombstoneByLineage("review-b")->has_value());
}

TEST_CASE("index: a garbage file is kCorrupted and left untouched") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  std::string garbage(8192, '\x5a');
  garbage.replace(0, 20, "this is not sqlite!!");
  WriteFile(path, garbage);
  for (bool read_only : {false, true}) {
    auto db = read_only ? IndexDb::OpenReadOnly(path) : IndexDb::OpenReadWrite(path);
    REQUIRE(!db.ok());
    CHECK(db.status().code() == Code::kCorrupted);
  }
  CHECK(ReadFile(path) == garbage);
}

TEST_CASE("index: a file failing quick_check is kCorrupted when checked") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  {
    auto db = OpenRw(path);
    REQUIRE(db->WriteTransaction([&]() -> Status {
                for (int i = 0; i < 2000; ++i) {
                  GENTLE_RETURN_IF_ERROR(
                      db->UpsertTombstone(Tombstone(i, "review-" + std::to_string(i))));
                }
                return Status::Ok();
              }).ok());
  }
  // Scribble over the middle of the file: b-tree pages, not the 100-byte header.
  std::string bytes = ReadFile(path);
  REQUIRE(bytes.size() > 8 * 4096);
  for (size_t i = 4 * 4096; i < 6 * 4096; ++i) bytes[i] = static_cast<char>(i * 131);
  WriteFile(path, bytes);

  // Unchecked, the open succeeds: page 1 (header and schema) is intact.
  CHECK(IndexDb::OpenReadOnly(path).ok());

  IndexOptions check;
  check.quick_check = true;
  auto db = IndexDb::OpenReadWrite(path, check);
  REQUIRE(!db.ok());
  CHECK(db.status().code() == Code::kCorrupted);
  CHECK(db.status().message().find("quick_check") != std::string::npos);
  CHECK(IndexDb::OpenReadOnly(path, check).status().code() == Code::kCorrupted);
}

TEST_CASE("index: a read-only open of a missing or uninitialised file creates nothing") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  auto db = IndexDb::OpenReadOnly(path);
  REQUIRE(!db.ok());
  CHECK(db.status().code() == Code::kNotFound);
  CHECK(Entries(dir).empty());

  WriteFile(path, "");
  CHECK(IndexDb::OpenReadOnly(path).status().code() == Code::kNotFound);
  CHECK(ReadFile(path).empty());
}

TEST_CASE("index: the index file must not be a symlink") {
  TempDir dir;
  std::string real = File(dir, "real.sqlite");
  OpenRw(real).reset();
  fs::create_symlink(real, File(dir, "index.sqlite"));
  CHECK(IndexDb::OpenReadWrite(File(dir, "index.sqlite")).status().code() == Code::kCorrupted);
  CHECK(IndexDb::OpenReadOnly(File(dir, "index.sqlite")).status().code() == Code::kCorrupted);
}

TEST_CASE("index: read-only queries leave index.sqlite byte-identical") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  {
    auto db = OpenRw(path);
    REQUIRE(db->UpsertLineage(Lineage("review-a", "2026-01-01T00:00:00Z")).ok());
    REQUIRE(db->UpsertTombstone(Tombstone(3, "review-b")).ok());
    REQUIRE(
        db->UpsertQuarantine(Quarantine("review-c-1", "review-c", "2026-01-01T00:00:00Z")).ok());
  }
  // The last read-write close checkpoints, truncates the WAL and keeps the side files
  // (SQLITE_FCNTL_PERSIST_WAL), so a read-only open has nothing to create.
  REQUIRE(Entries(dir) ==
          std::set<std::string>{"index.sqlite", "index.sqlite-shm", "index.sqlite-wal"});
  CHECK(fs::file_size(File(dir, "index.sqlite-wal")) == 0);
  std::string shm_before = ReadFile(File(dir, "index.sqlite-shm"));
  std::string before = ReadFile(path);
  auto mtime_before = fs::last_write_time(path);
  {
    auto db = IndexDb::OpenReadOnly(path);
    REQUIRE(db.ok());
    CHECK((*db)->read_only());
    CHECK((*db)->FindLineage("review-a")->has_value());
    CHECK((*db)->FindTombstoneByLineage("review-b")->has_value());
    CHECK((*db)->FindQuarantineByLineage("review-c")->has_value());
    CHECK((*db)->ListPrepared().ok());
    CHECK((*db)->ListLineages([](const LineageRow&) { return true; }).ok());
    CHECK((*db)->UpsertLineage(Lineage("review-z", "2026-01-01T00:00:00Z")).code() ==
          Code::kInternal);
  }
  CHECK(ReadFile(path) == before);
  CHECK(fs::last_write_time(path) == mtime_before);
  CHECK(Entries(dir) ==
        std::set<std::string>{"index.sqlite", "index.sqlite-shm", "index.sqlite-wal"});
  CHECK(fs::file_size(File(dir, "index.sqlite-wal")) == 0);
  // The reader maps -shm read-only (readonly_shm=1): not even SQLite's read marks change.
  CHECK(ReadFile(File(dir, "index.sqlite-shm")) == shm_before);
  CHECK(ReadFile(File(dir, "index.sqlite-wal")).empty());
}

TEST_CASE("index: lookup by lineage among 100 - 000 tombstones is a keyed search") {
  TempDir dir;
  auto db = OpenRw(File(dir, "index.sqlite"));
  auto start = std::chrono::steady_clock::now();
  REQUIRE(db->WriteTransaction([&]() -> Status {
              for (int i = 0; i < 100000; ++i) {
                GENTLE_RETURN_IF_ERROR(
                    db->UpsertTombstone(Tombstone(i, "review-" + std::to_string(i))));
              }
              return Status::Ok();
            }).ok());
  auto elapsed = std::chrono::steady_clock::now() - start;
  CHECK(elapsed < std::chrono::seconds(20));  // generous bound for a loaded CI machine

  auto plan = db->ExplainQueryPlan(IndexQuery::kTombstoneByLineage);
  REQUIRE(plan.ok());
  INFO(*plan);
  CHECK(plan->find("SEARCH tombstones USING") != std::string::npos);
  CHECK((plan->find("USING INDEX tombstones_by_lineage") != std::string::npos ||
         plan->find("USING COVERING INDEX tombstones_by_lineage") != std::string::npos));
  CHECK(plan->find("SCAN") == std::string::npos);
  CHECK(plan->find("TEMP B-TREE") == std::string::npos);

  auto found = db->FindTombstoneByLineage("review-54321");
  REQUIRE(found.ok());
  REQUIRE(found->has_value());
  CHECK((*found)->key == Hex64(54321));

  for (IndexQuery query : {IndexQuery::kLineageById, IndexQuery::kQuarantineByLineage}) {
    auto other = db->ExplainQueryPlan(query);
    REQUIRE(other.ok());
    INFO(*other);
    CHECK(other->find("SEARCH") != std::string::npos);
    CHECK(other->find("SCAN") == std::string::npos);
    CHECK(other->find("TEMP B-TREE") == std::string::npos);
  }
  auto list = db->ExplainQueryPlan(IndexQuery::kListLineages);
  REQUIRE(list.ok());
  INFO(*list);
  CHECK(list->find("TEMP B-TREE") == std::string::npos);  // streamed in index order, no sort
}

TEST_CASE("index: a write blocked by another writer returns kBusy within its timeout") {
  TempDir dir;
  std::string path = File(dir, "index.sqlite");
  auto holder = OpenRw(path);
  IndexOptions impatient;
  impatient.busy_timeout_ms = 20;
  auto waiter = OpenRw(path, impatient);

  Status blocked;
  auto waited = std::chrono::steady_clock::duration::zero();
  REQUIRE(holder
              ->WriteTransaction([&]() -> Status {
                GENTLE_RETURN_IF_ERROR(
                    holder->UpsertLineage(Lineage("review-holder", "2026-01-01T00:00:00Z")));
                auto start = std::chrono::steady_clock::now();
                blocked = waiter->UpsertLineage(Lineage("review-waiter", "2026-01-01T00:00:00Z"));
                waited = std::chrono::steady_clock::now() - start;
                // Opening a current index needs no write lock.
                auto late = IndexDb::OpenReadWrite(path, impatient);
                if (!late.ok()) return late.status();
                // A reader is not blocked by the writer (WAL) and sees the last commit only.
                auto seen = waiter->FindLineage("review-holder");
                if (!seen.ok()) return seen.status();
                if (seen->has_value()) return Status(Code::kInternal, "dirty read");
                return Status::Ok();
              })
              .ok());
  CHECK(blocked.code() == Code::kBusy);
  CHECK(blocked.message().find("BEGIN IMMEDIATE") != std::string::npos);
  CHECK(waited < std::chrono::seconds(2));

  // Once the holder has committed, the same write goes through.
  REQUIRE(waiter->UpsertLineage(Lineage("review-waiter", "2026-01-01T00:00:00Z")).ok());
  CHECK(waiter->FindLineage("review-holder")->has_value());
}

}  // namespace
}  // namespace gentle::store::index
