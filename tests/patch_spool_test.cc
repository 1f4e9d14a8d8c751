// export/patch_spool.h in process: what moves to the file and when, the bytes copied back (to a
// file and to a non-blocking pipe), and a temp directory that cannot hold a file.
#include "export/patch_spool.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using exporter::PatchSpool;

// `size` bytes that differ from one offset to the next.
std::string Bytes(size_t size, unsigned seed) {
  std::string bytes(size, '\0');
  unsigned state = seed;
  for (char& c : bytes) {
    state = state * 1103515245u + 12345u;
    c = static_cast<char>(state >> 24);
  }
  return bytes;
}

// TMPDIR set to `value` for the life of the object, then restored.
class TmpdirAs {
 public:
  explicit TmpdirAs(const std::string& value) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", value.c_str(), 1);
  }
  ~TmpdirAs() {
    if (old_) {
      setenv("TMPDIR", old_->c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
  }

 private:
  std::optional<std::string> old_;
};

// The process's open descriptors.
int OpenDescriptors() {
  int count = 0;
  DIR* dir = opendir("/proc/self/fd");
  REQUIRE(dir != nullptr);
  while (readdir(dir) != nullptr) ++count;
  closedir(dir);
  return count;
}

// Bytes `from`..`from + length` of `spool`, copied through a file.
std::string CopiedBack(const PatchSpool& spool, size_t from, size_t length) {
  TempDir tmp;
  const std::string path = tmp.path() + "/copy";
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  const Status st = spool.CopyTo(fd, from, length);
  close(fd);
  REQUIRE(st.ok());
  return ReadFile(path);
}

}  // namespace

TEST_CASE("patch spool: under 256 KiB nothing moves and no file is opened") {
  TempDir tmp;
  TmpdirAs tmpdir(tmp.path());
  const int before = OpenDescriptors();
  PatchSpool spool;
  std::string tail = Bytes(PatchSpool::kMinSpillBytes - 1, 1);
  const std::string expected = tail;
  spool.Offer(&tail);
  CHECK(spool.size() == 0);
  CHECK(tail == expected);
  CHECK(OpenDescriptors() == before);
}

TEST_CASE("patch spool: the front moves to a nameless file and copies back byte for byte") {
  TempDir tmp;
  TmpdirAs tmpdir(tmp.path());
  PatchSpool spool;
  const std::string first = Bytes(PatchSpool::kMinSpillBytes, 2);
  const std::string second = Bytes(PatchSpool::kMinSpillBytes + 4097, 3);
  std::string tail = first;
  spool.Offer(&tail);
  CHECK(spool.size() == first.size());
  CHECK(tail.empty());
  tail = second;
  spool.Offer(&tail);
  CHECK(tail.empty());
  REQUIRE(spool.size() == first.size() + second.size());
  CHECK(CopiedBack(spool, 0, spool.size()) == first + second);
  CHECK(CopiedBack(spool, first.size() - 10, 70000) ==
        (first + second).substr(first.size() - 10, 70000));
  // Nothing is named in the temp directory.
  DIR* dir = opendir(tmp.path().c_str());
  REQUIRE(dir != nullptr);
  int entries = 0;
  while (readdir(dir) != nullptr) ++entries;
  closedir(dir);
  CHECK(entries == 2);  // "." and ".."
  // More than it holds is refused, nothing written.
  CHECK(spool.CopyTo(STDOUT_FILENO, 1, spool.size()).code() == Code::kInternal);
}

TEST_CASE("patch spool: copies to a non-blocking pipe whole - waiting while it is full") {
  TempDir tmp;
  TmpdirAs tmpdir(tmp.path());
  PatchSpool spool;
  const std::string bytes = Bytes(4 * PatchSpool::kMinSpillBytes, 4);
  std::string tail = bytes;
  spool.Offer(&tail);
  REQUIRE(spool.size() == bytes.size());
  int fds[2];
  REQUIRE(pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0);
  // The reader blocks on its end; the writer's end is non-blocking, so writes meet EAGAIN.
  REQUIRE(fcntl(fds[0], F_SETFL, 0) == 0);
  std::string read_back;
  std::thread reader([&] {
    char block[8192];
    for (;;) {
      const ssize_t n = read(fds[0], block, sizeof block);
      if (n <= 0) return;
      read_back.append(block, static_cast<size_t>(n));
    }
  });
  const Status st = spool.CopyTo(fds[1], 0, spool.size());
  close(fds[1]);
  reader.join();
  close(fds[0]);
  CHECK(st.ok());
  CHECK(read_back == bytes);
}

TEST_CASE("patch spool: a TMPDIR that cannot hold a file leaves every tail in memory") {
  TempDir tmp;
  WriteFile(tmp.path() + "/file", "x");
  for (const std::string& dir : {tmp.path() + "/file", tmp.path() + "/missing"}) {
    INFO(dir);
    TmpdirAs tmpdir(dir);
    PatchSpool spool;
    std::string tail = Bytes(PatchSpool::kMinSpillBytes + 1, 5);
    const std::string expected = tail;
    spool.Offer(&tail);
    CHECK(spool.size() == 0);
    CHECK(tail == expected);
    tail += "more";
    spool.Offer(&tail);
    CHECK(spool.size() == 0);
    CHECK(tail == expected + "more");
    CHECK(spool.CopyTo(STDOUT_FILENO, 0, 0).ok());  // nothing spooled, nothing to copy
  }
}

}  // namespace gentle::testing
