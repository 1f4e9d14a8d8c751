#include "store/index/index_schema.h"

#include <string>

namespace gentle::store::index {
namespace {

Status RefuseNewer(int version) {
  return Status(Code::kCorrupted, "index from a newer release: schema_version " +
                                      std::to_string(version) + ", this release knows up to " +
                                      std::to_string(kIndexSchemaVersion))
      .WithDetail(DetailKey::kSchemaVersion, std::to_string(version));
}

}  // namespace

Result<int> ReadSchemaVersion(SqliteConnection& conn) {
  GENTLE_ASSIGN_OR_RETURN(int64_t version, conn.QueryInt("PRAGMA user_version", "index"));
  return static_cast<int>(version);
}

Status CheckSchemaOwnership(SqliteConnection& conn, int version) {
  if (version > kIndexSchemaVersion) return RefuseNewer(version);
  if (version < 0) return Status(Code::kCorrupted, "index: negative schema_version");
  if (version == 0) {
    GENTLE_ASSIGN_OR_RETURN(int64_t objects,
                            conn.QueryInt("SELECT count(*) FROM sqlite_schema", "index"));
    if (objects != 0) {
      return Status(Code::kCorrupted, "index: a SQLite database that is not a gentle-ai index");
    }
    return Status::Ok();
  }
  GENTLE_ASSIGN_OR_RETURN(int64_t app_id, conn.QueryInt("PRAGMA application_id", "index"));
  if (app_id != kIndexApplicationId) {
    return Status(Code::kCorrupted, "index: a SQLite database that is not a gentle-ai index");
  }
  return Status::Ok();
}

}  // namespace gentle::store::index
