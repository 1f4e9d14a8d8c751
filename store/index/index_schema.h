// The index.sqlite schema and its forward migrations.
//
// The schema version lives in PRAGMA user_version; PRAGMA application_id marks the file as a
// gentle-ai index. Migration step N takes a database from version N to N+1 and runs, with the
// version bump, inside one BEGIN IMMEDIATE transaction, so a crash leaves the old or the new
// schema. A database whose version is newer than kIndexSchemaVersion is never touched.
#ifndef GENTLE_STORE_INDEX_INDEX_SCHEMA_H_
#define GENTLE_STORE_INDEX_INDEX_SCHEMA_H_

#include <cstdint>

#include "store/index/sqlite_handle.h"
#include "store/status.h"

namespace gentle::store::index {

// The version this release writes and reads.
inline constexpr int kIndexSchemaVersion = 1;
// PRAGMA application_id of a gentle-ai index ("GAIX").
inline constexpr int32_t kIndexApplicationId = 0x47414958;

// Reads PRAGMA user_version (kCorrupted if the file is not a database).
Result<int> ReadSchemaVersion(SqliteConnection& conn);

// Checks the file belongs to us: version 0 must be an empty database (no tables), any other version
// must carry kIndexApplicationId, and no version may be newer than kIndexSchemaVersion.
Status CheckSchemaOwnership(SqliteConnection& conn, int version);

// Brings a read-write connection (defined in the store's write target,
// store/index/index_schema_write.cc) to kIndexSchemaVersion (no-op if already there). Safe against
// a concurrent migrator: the version is re-read under the write lock.
Status MigrateSchema(SqliteConnection& conn);

}  // namespace gentle::store::index

#endif  // GENTLE_STORE_INDEX_INDEX_SCHEMA_H_
