// WriteOutputFile: the one writer of a verb's `--output FILE` (export-context, attest, show --html,
// context import; docs/commands.md, "Output files").
//
// FILE is written only when it is a regular file or a path where nothing exists. Anything else
// there (a symbolic link, even one to a regular file; a directory; a FIFO; a character or block
// device; a socket) is `usage` naming what it is, and nothing is written: neither FILE nor a
// temporary file. FILE itself is never opened, so a FIFO never blocks the command and a device
// never sees a byte.
//
// The bytes go to a temporary file beside FILE (`.atomic-XXXXXX`, fsync'd), which then takes
// FILE's place atomically and the directory is fsync'd: a reader sees the old content or the new,
// never a part. The swap cannot replace what it did not check:
// - a new path: the rename does not replace (RENAME_NOREPLACE; a hard link and an unlink where
//   the file system lacks it), so something created there meanwhile is left alone (`usage`);
// - a regular file: the temporary file and FILE are exchanged (RENAME_EXCHANGE) and what came out
//   is checked to be the regular file inspected (device and inode); anything else is exchanged
//   back, left as it was (`usage`). Where the file system cannot exchange, FILE is inspected again
//   just before a plain rename.
// Modes: a new file is 0644; an existing regular file keeps its permission bits (a 0600 file stays
// private), and belongs to the user who wrote it.
#ifndef GENTLE_CLI_OUTPUT_FILE_H_
#define GENTLE_CLI_OUTPUT_FILE_H_

#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::cli {

Status WriteOutputFile(const std::string& path, std::string_view bytes);

}  // namespace gentle::cli

#endif  // GENTLE_CLI_OUTPUT_FILE_H_
