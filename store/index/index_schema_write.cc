// MigrateSchema and the schema's DDL (store/index/index_schema.h), in the store's write target.
#include <string>

#include "store/index/index_schema.h"

namespace gentle::store::index {
namespace {

// Step from version 0 (empty file) to 1. Tables are STRICT (types enforced) and keyed by their
// natural key. Partial *_prepared indexes keep ListPrepared() proportional to the prepared rows.
// The *_order columns are TimeOrderKey() of the RFC 3339 text beside them.
constexpr const char* kMigrateTo1 = R"sql(
CREATE TABLE lineages (
  lineage_id      TEXT PRIMARY KEY NOT NULL
                  CHECK (length(lineage_id) BETWEEN 1 AND 128 AND lineage_id NOT GLOB '*[^a-z0-9-]*'),
  state           TEXT NOT NULL,
  kind            TEXT NOT NULL,
  created_at      TEXT NOT NULL,
  created_order   TEXT NOT NULL,
  path_count      INTEGER NOT NULL CHECK (path_count >= 0),
  revision        TEXT NOT NULL,
  target_identity TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('prepared', 'committed'))
) STRICT, WITHOUT ROWID;
CREATE INDEX lineages_by_created ON lineages (created_order, lineage_id);
CREATE INDEX lineages_prepared ON lineages (lineage_id) WHERE status = 'prepared';

CREATE TABLE tombstones (
  key             TEXT PRIMARY KEY NOT NULL
                  CHECK (length(key) = 64 AND key NOT GLOB '*[^0-9a-f]*'),
  lineage_id      TEXT NOT NULL
                  CHECK (length(lineage_id) BETWEEN 1 AND 128 AND lineage_id NOT GLOB '*[^a-z0-9-]*'),
  target_identity TEXT NOT NULL,
  repository      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('prepared', 'committed'))
) STRICT, WITHOUT ROWID;
CREATE INDEX tombstones_by_lineage ON tombstones (lineage_id, status);
CREATE INDEX tombstones_prepared ON tombstones (key) WHERE status = 'prepared';

CREATE TABLE quarantine (
  quarantine_dir  TEXT PRIMARY KEY NOT NULL
                  CHECK (length(quarantine_dir) > 0 AND quarantine_dir NOT GLOB '*/*'),
  lineage_id      TEXT NOT NULL
                  CHECK (length(lineage_id) BETWEEN 1 AND 128 AND lineage_id NOT GLOB '*[^a-z0-9-]*'),
  audit_path      TEXT NOT NULL,
  reason          TEXT NOT NULL,
  actor           TEXT NOT NULL,
  reclaimed_at    TEXT NOT NULL,
  reclaimed_order TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('prepared', 'committed'))
) STRICT, WITHOUT ROWID;
CREATE INDEX quarantine_by_lineage
  ON quarantine (lineage_id, status, reclaimed_order DESC, quarantine_dir DESC);
CREATE INDEX quarantine_prepared ON quarantine (quarantine_dir) WHERE status = 'prepared';

PRAGMA application_id = 1195460952;
)sql";

// kSteps[n] migrates version n to n + 1.
constexpr const char* kSteps[] = {kMigrateTo1};
static_assert(sizeof(kSteps) / sizeof(kSteps[0]) == kIndexSchemaVersion);
static_assert(kIndexApplicationId == 1195460952);

}  // namespace

Status MigrateSchema(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(int version, ReadSchemaVersion(conn));
  GENTLE_RETURN_IF_ERROR(CheckSchemaOwnership(conn, version));
  if (version == kIndexSchemaVersion) return Status::Ok();

  GENTLE_RETURN_IF_ERROR(conn.Exec("BEGIN IMMEDIATE"));
  Status status = [&]() -> Status {
    // Another process may have migrated between our read and the write lock.
    GENTLE_ASSIGN_OR_RETURN(int locked_version, ReadSchemaVersion(conn));
    GENTLE_RETURN_IF_ERROR(CheckSchemaOwnership(conn, locked_version));
    for (int v = locked_version; v < kIndexSchemaVersion; ++v) {
      GENTLE_RETURN_IF_ERROR(conn.Exec(kSteps[v]));
    }
    std::string bump = "PRAGMA user_version = " + std::to_string(kIndexSchemaVersion);
    return conn.Exec(bump.c_str());
  }();
  if (status.ok()) status = conn.Exec("COMMIT");
  if (!status.ok() && !conn.Autocommit()) {
    // The failure stays the answer; a failed ROLLBACK is named beside it.
    if (Status rollback = conn.Exec("ROLLBACK"); !rollback.ok()) {
      status.WithDetail(DetailKey::kRollback, rollback.message());
    }
  }
  return status;
}

}  // namespace gentle::store::index
