#include "store/index/index_reader.h"

#include <sys/stat.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>

#include "store/audit_record.h"
#include "store/file_io.h"
#include "store/index/database_files.h"
#include "store/tombstone.h"

namespace gentle::store::index {
namespace {

bool RecordPresent(const StoreLayout& layout, const std::string& lineage) {
  return KindOf(layout.record_path(lineage)) != PathKind::kMissing;
}

// A newer release's index is not damaged: it must not be rebuilt (downgraded) behind its back.
bool IsNewerRelease(const Status& status) { return status.has_detail(DetailKey::kSchemaVersion); }

// What lstat says of a file, to tell whether it changed between two looks.
struct FileStamp {
  dev_t device = 0;
  ino_t inode = 0;
  off_t size = 0;
  int64_t modified_ns = 0;
  bool operator==(const FileStamp&) const = default;
};

std::optional<FileStamp> StampOf(const std::string& path) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return std::nullopt;
  return FileStamp{st.st_dev, st.st_ino, st.st_size,
                   int64_t{st.st_mtim.tv_sec} * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace

void Notice(std::string_view text) { std::cerr << "gentle-ai: notice: " << text << "\n"; }

bool TombstoneEffective(const StoreLayout& layout, const TombstoneRow& row) {
  if (row.status == RowStatus::kCommitted) return true;
  return KindOf(TombstonePath(layout, row.key)) == PathKind::kFile &&
         !RecordPresent(layout, row.lineage_id);
}

bool QuarantineEffective(const StoreLayout& layout, const QuarantineRow& row) {
  if (row.status == RowStatus::kCommitted) return true;
  return KindOf(ResiduePath(layout, row.quarantine_dir)) == PathKind::kDirectory;
}

Result<IndexReadiness> InspectIndexForReader(const StoreLayout& layout) {
  const std::string index = layout.index_path();
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), index));
  GENTLE_RETURN_IF_ERROR(CheckDatabaseFileKinds(index));
  if (KindOf(index) == PathKind::kMissing) return IndexReadiness::kAbsent;
  // SQLite calls a rollback journal hot when it is not empty and its first byte is not zero.
  const std::string journal = FileHeader(index + "-journal", 1);
  if (!journal.empty() && journal[0] != '\0') return IndexReadiness::kHotJournal;
  GENTLE_ASSIGN_OR_RETURN(WalState wal, InspectWal(index));
  // Writers keep -wal and -shm (PERSIST_WAL). Without them SQLite would create an empty -wal to
  // read a WAL database. Only a WAL database needs them: anything else is opened (and found
  // unusable) as usual.
  if (wal == WalState::kAbsent || KindOf(index + "-shm") != PathKind::kFile) {
    const std::string header = FileHeader(index, 100);
    const std::string_view magic("SQLite format 3\0", 16);
    const bool wal_mode =
        header.size() == 100 && header.compare(0, 16, magic) == 0 && header[18] == 2;
    return wal_mode ? IndexReadiness::kSideFilesMissing : IndexReadiness::kReady;
  }
  const bool stalls = wal == WalState::kInterrupted || wal == WalState::kUnrecognised;
  if (!stalls) return IndexReadiness::kReady;
  // SQLite reads through any -wal beside a non-empty file, whatever the file is, and would stall
  // on this one. Which is unusable decides what fsck reports (rare path: a header is read only
  // here, never while a connection of this process may hold locks on the file).
  const std::string header = FileHeader(index, 16);
  if (header != std::string_view("SQLite format 3\0", 16)) return IndexReadiness::kNotADatabase;
  return wal == WalState::kInterrupted ? IndexReadiness::kWalInterrupted
                                       : IndexReadiness::kWalUnrecognised;
}

Result<std::unique_ptr<IndexDb>> OpenIndexImage(const StoreLayout& layout,
                                                const IndexOptions& options) {
  const std::string index = layout.index_path();
  const std::optional<FileStamp> before = StampOf(index);
  auto image = ReadFileLimited(index, kMaxIndexImageBytes);
  if (!image.ok()) {
    if (image.status().code() != Code::kCorrupted || KindOf(index) != PathKind::kFile) {
      return image.status();
    }
    return Status(Code::kBudgetExceeded, "index.sqlite has no -wal or -shm and is larger than " +
                                             std::to_string(kMaxIndexImageBytes >> 20) +
                                             " MiB to be read into memory");
  }
  GENTLE_ASSIGN_OR_RETURN(IndexReadiness after, InspectIndexForReader(layout));
  if (!before || StampOf(index) != before || after != IndexReadiness::kSideFilesMissing) {
    return Status(Code::kBusy, "index.sqlite changed while it was read (a writer opened it)");
  }
  // Header bytes 18 and 19 (write and read versions): 2 is WAL, 1 the rollback journal.
  (*image)[18] = (*image)[19] = 1;
  return IndexDb::OpenImage(*image, options);
}

Result<std::unique_ptr<IndexDb>> OpenIndexForReader(const StoreLayout& layout,
                                                    IndexOptions::ReadUse use) {
  GENTLE_ASSIGN_OR_RETURN(IndexReadiness readiness, InspectIndexForReader(layout));
  switch (readiness) {
    case IndexReadiness::kAbsent:
    case IndexReadiness::kSideFilesMissing:
    case IndexReadiness::kWalInterrupted:
      // Nothing a reader can open without writing or stalling; the files answer, silently (a
      // WAL header with no frame is also what a live writer has for an instant).
      return std::unique_ptr<IndexDb>();
    case IndexReadiness::kWalUnrecognised:
      Notice(
          "index.sqlite-wal does not start with a WAL header; reading the files instead (the "
          "next mutation or `review index rebuild` repairs it)");
      return std::unique_ptr<IndexDb>();
    case IndexReadiness::kNotADatabase:
      Notice(
          "index.sqlite is unusable (not a SQLite database); reading the files instead (the "
          "next mutation or `review index rebuild` rebuilds it)");
      return std::unique_ptr<IndexDb>();
    case IndexReadiness::kHotJournal:
      Notice(
          "index.sqlite-journal is a rollback journal this store never writes; reading the files "
          "instead (the next mutation or `review index rebuild` removes it)");
      return std::unique_ptr<IndexDb>();
    case IndexReadiness::kReady:
      break;
  }
  IndexOptions options;
  options.read_use = use;
  auto db = IndexDb::OpenReadOnly(layout.index_path(), options);
  if (db.ok()) return std::move(db).value();
  if (db.status().code() == Code::kNotFound) return std::unique_ptr<IndexDb>();
  // Anything but contention means the index cannot be trusted (garbage, damaged side files, an
  // I/O error): the files are the source of truth, so answer from them.
  if (db.status().code() == Code::kBusy) return db.status();
  if (IsNewerRelease(db.status())) {
    Notice("index.sqlite is from a newer release (" + db.status().message() +
           "); reading the files instead (`review index rebuild` replaces it)");
  } else {
    Notice("index.sqlite is unusable (" + db.status().message() +
           "); reading the files instead (the next mutation or `review index rebuild` rebuilds "
           "it)");
  }
  return std::unique_ptr<IndexDb>();
}

}  // namespace gentle::store::index
