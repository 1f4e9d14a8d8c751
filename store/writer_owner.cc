// WriterOwner's read side (store/writer_owner.h): its release, the owner record's parse and the
// probe fsck uses. The acquisition and the record's writes are in store/writer_owner_write.cc.
#include "store/writer_owner.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "store/posix_fd.h"

namespace gentle::store {
namespace {

WriterOwner* current_owner = nullptr;

bool RecordableRef(const std::string& ref) {
  if (ref == "packed-refs") return true;
  const std::string prefix = "refs/gentle-ai/";
  if (ref.size() <= prefix.size() || ref.compare(0, prefix.size(), prefix) != 0) return false;
  size_t start = 0;
  while (start <= ref.size()) {
    size_t end = ref.find('/', start);
    if (end == std::string::npos) end = ref.size();
    const std::string part = ref.substr(start, end - start);
    if (part.empty() || part[0] == '.' || part.find('\0') != std::string::npos) return false;
    start = end + 1;
  }
  return true;
}

}  // namespace

WriterOwner* CurrentWriterOwner() { return current_owner; }

void SetCurrentWriterOwner(WriterOwner* owner) { current_owner = owner; }

WriterOwner::~WriterOwner() {
  if (current_owner == this) current_owner = nullptr;
}

std::vector<std::string> OwnerRecordRefs(const std::string& record) {
  std::vector<std::string> out;
  nlohmann::json doc = nlohmann::json::parse(record, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("refs") || !doc["refs"].is_array()) {
    return out;
  }
  for (const auto& ref : doc["refs"]) {
    if (ref.is_string() && RecordableRef(ref.get<std::string>())) out.push_back(ref);
  }
  return out;
}

bool WriterProbe::SameFileState(const WriterProbe& other) const {
  return inode == other.inode && size == other.size && mtime == other.mtime &&
         mtime_ns == other.mtime_ns && ctime == other.ctime && ctime_ns == other.ctime_ns;
}

Result<WriterProbe> ProbeWriter(const StoreLayout& layout) {
  WriterProbe probe;
  const std::string path = layout.v2_lock();
  Fd fd(open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  if (fd.get() < 0) {
    if (errno == ENOENT || errno == ENOTDIR) return probe;
    return Status(Code::kCorrupted, "cannot open lock file " + path + ": " + strerror(errno));
  }
  struct stat st;
  if (fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode)) {
    return Status(Code::kCorrupted, "lock file is not a regular file: " + path);
  }
  if (flock(fd.get(), LOCK_SH | LOCK_NB) == 0) {
    // No writer: the record (if any) is a dead holder's, and it cannot change while held.
    if (fstat(fd.get(), &st) != 0) {
      return Status(Code::kInternal, "cannot stat " + path + ": " + strerror(errno));
    }
  } else if (errno == EWOULDBLOCK) {
    probe.live = true;
  } else {
    return Status(Code::kInternal, "flock " + path + ": " + strerror(errno));
  }
  probe.inode = st.st_ino;
  probe.size = st.st_size;
  probe.mtime = st.st_mtim.tv_sec;
  probe.mtime_ns = st.st_mtim.tv_nsec;
  probe.ctime = st.st_ctim.tv_sec;
  probe.ctime_ns = st.st_ctim.tv_nsec;
  const size_t want = std::min<size_t>(static_cast<size_t>(st.st_size), kMaxOwnerRecordBytes);
  std::string record(want, '\0');
  const ssize_t got = want == 0 ? 0 : pread(fd.get(), record.data(), want, 0);
  if (got > 0) {
    record.resize(static_cast<size_t>(got));
    probe.refs = OwnerRecordRefs(record);
  }
  if (!probe.live) flock(fd.get(), LOCK_UN);
  return probe;
}

}  // namespace gentle::store
