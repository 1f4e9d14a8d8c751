// FileInflater: a zlib stream inflated in pieces straight from an open file, from a given offset,
// with read(2) 64 KiB at a time: the memory is zlib's state and one buffer, whatever the size of
// what it inflates. store/git/object_file_stream.h reads loose objects and whole pack entries
// through it.
//
// Contract: Start(fd, offset) takes the descriptor (closed with the inflater, whatever Start
// answers), positions it and starts zlib; false when it cannot. Inflate(out, n) inflates up to n
// bytes: the count produced, 0 when the zlib stream or the file has ended, -1 on a read or zlib
// error. ended() says whether zlib reached the end of its stream.
#ifndef GENTLE_STORE_GIT_FILE_INFLATER_H_
#define GENTLE_STORE_GIT_FILE_INFLATER_H_

#include <sys/types.h>
#include <zlib.h>

#include <cstddef>
#include <cstdint>

namespace gentle::store::git {

class FileInflater {
 public:
  FileInflater() = default;
  ~FileInflater();
  FileInflater(const FileInflater&) = delete;
  FileInflater& operator=(const FileInflater&) = delete;

  [[nodiscard]] bool Start(int fd, uint64_t offset);
  ssize_t Inflate(unsigned char* out, size_t n);
  bool ended() const { return ended_; }

 private:
  static constexpr size_t kInputBytes = 64 * 1024;
  int fd_ = -1;
  z_stream z_{};
  bool inflating_ = false;
  bool ended_ = false;  // zlib said Z_STREAM_END
  unsigned char input_[kInputBytes];
};

}  // namespace gentle::store::git

#endif  // GENTLE_STORE_GIT_FILE_INFLATER_H_
