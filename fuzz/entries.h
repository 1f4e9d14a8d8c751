// Fuzz entry functions: one per fuzz target, shared by the libFuzzer executables (fuzz/targets/,
// opt-in with GENTLE_FUZZ) and by the corpus replay test (tests/fuzz_replay_test.cc, always built).
//
// Contract of every entry: it must return for every input (no crash, no uncaught exception, no
// hang, no sanitizer report). It returns "" when the code under test kept its documented
// properties for this input, or a description of the property it broke; the libFuzzer driver
// aborts on a non-empty answer so the input is saved as a crash, the replay test fails with it.
//
// - FuzzRecordCodec: store::ParseRecordFile. Failures are `corrupted`; a parsed record's revision
//   binds its compact state; re-encoding the state parses back to the same revision and fields.
// - FuzzEnvelopeReader: exporter::ParseEnvelope. Failures are `integrity_mismatch`; a parsed
//   envelope's sha256 binds its decoded patch, which is within the 4 MiB budget.
// - FuzzLineageId: store::IsValidLineageId agrees with the syntax of docs/format.md and the
//   128-byte cap, restated independently; refusals are `usage`; a valid id builds a path that
//   stays inside its lineage directory.
// - FuzzCliArguments: gentle::cli::Run on argv built from the input (tokens split at '\n' or NUL)
//   inside a scratch repository (CliScratch); the exit code is a documented one (0..12).
// - FuzzHintLine: loop::ParseHint. Refusals are `usage`; an accepted line is exactly the line its
//   fields render to (one canonical spelling), with skill land or review-pr and only printable
//   ASCII.
// - FuzzPostedComment: exporter::ParseComment (what `review parse-comment` runs). Refusals are
//   `usage`; an accepted comment is what RenderComment writes for its fields (less at most the
//   final newline; CRLF line ends read as LF), and that rendering parses back to the same fields.
// - FuzzWorktreeIndex: store::git::ReadWorktreeIndex on the input with its trailing SHA-1
//   appended. A file it accepts, libgit2's git_index_open accepts too, with the same entries
//   (path, mode, id); its cache-tree directories are "" or "a/b/"-shaped.
#ifndef GENTLE_FUZZ_ENTRIES_H_
#define GENTLE_FUZZ_ENTRIES_H_

#include <string>
#include <string_view>
#include <vector>

#include "fuzz/cli_scratch.h"

namespace gentle::fuzz {

// The lineage every record-codec input is parsed against (the seeds carry it).
inline constexpr std::string_view kFuzzLineage = "review-0123456789abcdef";

std::string FuzzRecordCodec(std::string_view data);
std::string FuzzEnvelopeReader(std::string_view data);
std::string FuzzLineageId(std::string_view data);
std::string FuzzCliArguments(std::string_view data);
std::string FuzzHintLine(std::string_view data);
std::string FuzzPostedComment(std::string_view data);
std::string FuzzWorktreeIndex(std::string_view data);

// The argv FuzzCliArguments runs for `data` (without argv[0]), at most 24 tokens, after
// confinement: every `--cwd` is forced to the scratch repository, every `--output` to a file in the
// scratch directory, and an absolute path token is re-rooted under the scratch directory, so no
// input can make a command write outside the scratch directory. The tokens "@lineage" and
// "@envelope" become the scratch's lineage id and envelope path. Exposed for the replay test.
std::vector<std::string> CliArgv(std::string_view data, const CliScratch& scratch);

}  // namespace gentle::fuzz

#endif  // GENTLE_FUZZ_ENTRIES_H_
