// Files named on the command line (`verdict --body-file`, `start --context`): the user's input,
// read as hostile input is read everywhere in the store (store/file_io.h for the store's own
// files).
//
// ReadNamedFile: a final symlink is followed (the user named it), the open is O_NONBLOCK so that a
// FIFO cannot block it, and anything but a regular file is refused, as is one larger than
// max_bytes, from its size before reading and again after reading at most max_bytes + 1 bytes (a
// file that grew meanwhile). On failure kUsage, the message the reason alone ("not a regular
// file", "larger than N bytes", "cannot read the file: <errno text>") for the caller to prefix
// with its flag and the path.
//
// ReadNamedInput: ReadNamedFile, except that "-" reads standard input (whatever it is: a pipe, a
// terminal, a file), at most max_bytes + 1 bytes of it, with the same refusals.
#ifndef GENTLE_STORE_NAMED_FILE_H_
#define GENTLE_STORE_NAMED_FILE_H_

#include <cstddef>
#include <string>

#include "store/status.h"

namespace gentle::store {

Result<std::string> ReadNamedFile(const std::string& path, size_t max_bytes);
Result<std::string> ReadNamedInput(const std::string& path, size_t max_bytes);

}  // namespace gentle::store

#endif  // GENTLE_STORE_NAMED_FILE_H_
