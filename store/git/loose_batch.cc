// WriteLooseBatch (store/git/loose_batch.h): in the store's write target.
#include "store/git/loose_batch.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "store/git/git_util.h"
#include "store/posix_fd.h"

namespace gentle::store::git {
namespace {

constexpr size_t kOutputBytes = 64 * 1024;
// libgit2's and git's level for loose objects (Z_BEST_SPEED).
constexpr int kLooseCompression = Z_BEST_SPEED;

// A temporary file of the batch: its descriptor while it is open, its name until it is renamed.
struct TempFile {
  int fd = -1;
  std::string path;
};

Status WriteAll(int fd, const unsigned char* data, size_t size, const std::string& path) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::write(fd, data + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus(Code::kInternal, "cannot write object file", path);
    done += static_cast<size_t>(n);
  }
  return Status::Ok();
}

// Deflates "<type> <size>\0<data>" into `fd`.
Status Deflate(int fd, const LooseObject& object, const std::string& path) {
  const std::string header = std::string(git_object_type2string(object.type)) + " " +
                             std::to_string(object.data.size()) + std::string(1, '\0');
  z_stream z{};
  if (deflateInit(&z, kLooseCompression) != Z_OK) {
    return Status(Code::kInternal, "cannot deflate object " + OidHex(object.id));
  }
  unsigned char out[kOutputBytes];
  Status status = Status::Ok();
  // The header, then the data in pieces zlib's 32-bit counts can take.
  const std::string_view parts[2] = {header, object.data};
  for (int part = 0; part < 2 && status.ok(); ++part) {
    std::string_view rest = parts[part];
    const bool last = part == 1;
    do {
      const size_t piece = std::min<size_t>(rest.size(), 1u << 30);
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(rest.data()));
      z.avail_in = static_cast<uInt>(piece);
      rest.remove_prefix(piece);
      const int flush = last && rest.empty() ? Z_FINISH : Z_NO_FLUSH;
      int rc;
      do {
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = deflate(&z, flush);
        if (rc == Z_STREAM_ERROR) {
          status = Status(Code::kInternal, "cannot deflate object " + OidHex(object.id));
          break;
        }
        status = WriteAll(fd, out, sizeof out - z.avail_out, path);
      } while (status.ok() && (z.avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END)));
    } while (status.ok() && !rest.empty());
  }
  deflateEnd(&z);
  return status;
}

// Waits for the writeback sync_file_range started; where it is unsupported, fsyncs instead.
Status WaitWritten(const TempFile& file) {
  const unsigned flags =
      SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER;
  if (sync_file_range(file.fd, 0, 0, flags) == 0) return Status::Ok();
  if ((errno == ENOSYS || errno == EINVAL || errno == ESPIPE) && fsync(file.fd) == 0) {
    return Status::Ok();
  }
  return ErrnoStatus(Code::kInternal, "cannot write out object file", file.path);
}

// The batch under way: its files, removed unless Publish renamed them.
class Batch {
 public:
  explicit Batch(std::string objects_dir) : dir_(std::move(objects_dir)) {}
  ~Batch() {
    for (TempFile& file : files_) {
      if (file.fd >= 0) close(file.fd);
      if (!file.path.empty()) unlink(file.path.c_str());
    }
  }
  Batch(const Batch&) = delete;
  Batch& operator=(const Batch&) = delete;

  Status Write(const LooseObject& object) {
    TempFile file;
    file.path = dir_ + "/tmp_batch_XXXXXX";
    file.fd = mkostemp(file.path.data(), O_CLOEXEC);
    if (file.fd < 0) {
      return ErrnoStatus(Code::kInternal, "cannot create a temporary object file in", dir_);
    }
    files_.push_back(file);
    if (fchmod(file.fd, 0444) != 0) {
      return ErrnoStatus(Code::kInternal, "cannot chmod", file.path);
    }
    GENTLE_RETURN_IF_ERROR(Deflate(file.fd, object, file.path));
    // Writeback starts now, so that the files of a window are written out together.
    sync_file_range(file.fd, 0, 0, SYNC_FILE_RANGE_WRITE);
    ++open_;
    return Status::Ok();
  }

  // Waits for the open files but `keep` (the last, still to be fsynced) and closes them.
  Status WaitOpen(size_t keep) {
    for (size_t i = 0; i + keep < files_.size(); ++i) {
      TempFile& file = files_[i];
      if (file.fd < 0) continue;
      GENTLE_RETURN_IF_ERROR(WaitWritten(file));
      close(file.fd);
      file.fd = -1;
      --open_;
    }
    return Status::Ok();
  }

  size_t open() const { return open_; }

  // The one full sync: the last file, which also commits the journal holding every other.
  Status SyncLast() {
    TempFile& file = files_.back();
    if (fsync(file.fd) != 0) return ErrnoStatus(Code::kInternal, "cannot fsync", file.path);
    close(file.fd);
    file.fd = -1;
    --open_;
    return Status::Ok();
  }

  // Renames every file to its object's name; syncs the object directory once if a fan-out
  // directory was made.
  Status Publish(const std::vector<LooseObject>& objects) {
    bool made_directory = false;
    std::set<std::string> present;
    for (size_t i = 0; i < objects.size(); ++i) {
      const std::string hex = OidHex(objects[i].id);
      const std::string fanout = dir_ + "/" + hex.substr(0, 2);
      if (present.insert(fanout).second) {
        if (mkdir(fanout.c_str(), 0777) == 0) {
          made_directory = true;
        } else if (errno != EEXIST) {
          return ErrnoStatus(Code::kInternal, "cannot create directory", fanout);
        }
      }
      const std::string name = fanout + "/" + hex.substr(2);
      if (rename(files_[i].path.c_str(), name.c_str()) != 0) {
        return ErrnoStatus(Code::kInternal, "cannot rename object file into place", name);
      }
      files_[i].path.clear();
    }
    if (!made_directory) return Status::Ok();
    Fd fd(::open(dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (fd.get() < 0 || fsync(fd.get()) != 0) {
      return ErrnoStatus(Code::kInternal, "cannot fsync directory", dir_);
    }
    return Status::Ok();
  }

 private:
  std::string dir_;
  std::vector<TempFile> files_;
  size_t open_ = 0;
};

}  // namespace

Status WriteLooseBatch(const std::string& objects_dir, const std::vector<LooseObject>& objects) {
  if (objects.empty()) return Status::Ok();
  Batch batch(objects_dir);
  for (const LooseObject& object : objects) {
    // A full window is waited for (all but the newest file) before the next file is opened.
    if (batch.open() >= kOpenFiles) GENTLE_RETURN_IF_ERROR(batch.WaitOpen(1));
    GENTLE_RETURN_IF_ERROR(batch.Write(object));
  }
  GENTLE_RETURN_IF_ERROR(batch.WaitOpen(1));
  GENTLE_RETURN_IF_ERROR(batch.SyncLast());
  return batch.Publish(objects);
}

}  // namespace gentle::store::git
