#include "export/patch_engine.h"

#include <git2/sys/config.h>
#include <git2/sys/repository.h>
#include <malloc.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include "export/file_section.h"
#include "export/git_section.h"
#include "export/output_pages.h"
#include "export/patch_bound.h"
#include "export/patch_spool.h"
#include "export/streamed_section.h"
#include "export/tree_delta.h"
#include "store/git/object_file_stream.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;

using store::git::BlobPtr;
using store::git::OidHex;
using store::git::RepositoryPtr;

// A side at least this large, whose section has no content on the other side, is read as a
// stream when it is loose (export/streamed_section.h).
constexpr uint64_t kStreamMinBytes = uint64_t{1} << 20;

// One side of a delta with its contents loaded, or (`stream` set) to be read as a stream. Not
// movable in practice: side.content may point into `synthetic`.
struct LoadedSide {
  FileSide side;
  BlobPtr blob;
  std::string synthetic;  // "Subproject commit <hex>\n" for gitlinks
  std::optional<store::git::BlobStream> stream;
  std::string owned;  // a large blob read whole through a stream
};

// A side at least this large that is read whole is read from its loose file in pieces when it has
// one (store/git/object_file_stream.h): libgit2 reads a loose object's compressed file whole before
// inflating it, and its stream maps the file whole while inflating it, either of which holds a
// large blob of incompressible bytes twice.
constexpr uint64_t kReadWholeByStreamMinBytes = uint64_t{64} << 20;

// A failure reading the blob `id` at `path`, saying where.
Status AtPath(const Status& cause, const git_oid& id, std::string_view path) {
  Status status(cause.code(),
                "blob " + OidHex(id) + " at " + std::string(path) + ": " + cause.message());
  status.WithDetailsOf(cause);
  return status.WithDetail(DetailKey::kPath, std::string(path));
}

// `may_stream`: the side is the only one of its section with content and is large enough to read
// as a stream; it is, if the object database can stream it.
Status LoadSide(git_repository* repo, const git_oid& id, uint32_t mode, std::string_view path,
                bool may_stream, uint64_t size_hint, LoadedSide* loaded) {
  loaded->side.mode = mode;
  if (mode == 0) return Status::Ok();
  loaded->side.oid = id;
  if (mode == kModeGitlink) {
    loaded->synthetic = "Subproject commit " + OidHex(id) + "\n";
    loaded->side.content = loaded->synthetic;
    return Status::Ok();
  }
  if (may_stream) {
    auto odb = store::git::RepositoryOdb(repo);
    if (odb.ok()) {
      loaded->stream = store::git::BlobStream::Open(odb->get(), id);
      if (loaded->stream) return Status::Ok();
    }
  } else if (size_hint >= kReadWholeByStreamMinBytes) {
    auto odb = store::git::RepositoryOdb(repo);
    Status read = odb.ok() ? store::git::ReadBlobInPieces(odb->get(), id, &loaded->owned)
                           : Status(Code::kNotFound, "");
    if (read.ok()) {
      loaded->side.content = loaded->owned;
      return Status::Ok();
    }
    if (read.code() != Code::kNotFound) return AtPath(read, id, path);
    loaded->owned.clear();
    loaded->owned.shrink_to_fit();
  }
  // Read and hash-checked by store/git/object_reader.h (libgit2's own check is off).
  auto blob = store::git::LookupBlob(repo, id);
  if (!blob.ok()) return AtPath(blob.status(), id, path);
  loaded->blob = std::move(blob).value();
  loaded->side.blob = loaded->blob.get();
  loaded->side.content =
      std::string_view(static_cast<const char*>(git_blob_rawcontent(loaded->blob.get())),
                       static_cast<size_t>(git_blob_rawsize(loaded->blob.get())));
  return Status::Ok();
}

// One file of the patch: what the tree diff said, with canonical modes.
using FileWork = TreeChange;

// One section from `o` to `n`: streamed when one side holds a stream.
Status AppendSection(std::string_view path, LoadedSide& o, LoadedSide& n, size_t cap,
                     std::string* out) {
  if (!o.stream && !n.stream) return AppendFileSection(path, o.side, n.side, cap, out);
  LoadedSide& streamed = o.stream ? o : n;
  Status status = AppendStreamedSection(path, o.side, n.side, &*streamed.stream,
                                        n.stream.has_value(), cap, out);
  if (status.ok() || status.code() == Code::kBudgetExceeded) return status;
  return AtPath(status, streamed.side.oid, path);
}

// Whether a side of `size` bytes may be streamed: a blob, large, and the other side of its section
// without content (absent, or an empty blob).
bool MayStream(uint32_t mode, const SideFacts& side, uint32_t other_mode, const SideFacts& other) {
  const bool blob = mode != 0 && mode != kModeGitlink;
  const bool other_empty = other_mode == 0 || (other_mode != kModeGitlink && other.size == 0);
  return blob && side.size >= kStreamMinBytes && other_empty;
}

// The section of a modified file that export/git_section.h hands to git, written by git: true
// when written, false when the file is written in process. `common_dir` empty: never handed over.
Result<bool> WriteFileByGit(const std::string& common_dir, const FileWork& work,
                            const ChangeFacts& facts, size_t cap, std::string* out) {
  if (common_dir.empty() || !WantsGitSection(work, facts)) return false;
  FileSide old_side;
  old_side.mode = work.old_mode;
  old_side.oid = work.old_oid;
  FileSide new_side;
  new_side.mode = work.new_mode;
  new_side.oid = work.new_oid;
  return AppendGitSection(common_dir, work.path, old_side, new_side, cap, out);
}

// Which of a file's sides are streamed rather than read whole (MayStream; none when the sizes
// are unknown). A type change's sides are two sections, each diffed against nothing.
struct SidesToStream {
  bool old_side = false;
  bool new_side = false;
};
SidesToStream StreamedSides(const FileWork& work, const ChangeFacts& facts) {
  if (!facts.known) return {};
  const bool type_change = work.status == 'T';
  const SideFacts none;
  return {MayStream(work.old_mode, facts.old_side, type_change ? 0 : work.new_mode,
                    type_change ? none : facts.new_side),
          MayStream(work.new_mode, facts.new_side, type_change ? 0 : work.old_mode,
                    type_change ? none : facts.old_side)};
}

// One file's sides, read and not yet written. Not movable: a side's content may point into it.
struct LoadedFile {
  LoadedSide old_side;
  LoadedSide new_side;
};

// The first half of a file's section (two for a type change): `facts` (from the object headers;
// possibly unknown) refuse a file that cannot fit in `cap` beside `out` before any of its blobs
// is read, choose the sides to stream, and the files git writes (`common_dir`: the repository's,
// whose objects git reads; empty for none). A file git writes is appended to `out` and `*written`
// set; any other file's sides are read into `loaded`.
Status ReadFile(git_repository* repo, const std::string& common_dir, const FileWork& work,
                const ChangeFacts& facts, size_t cap, std::string* out, bool* written,
                LoadedFile* loaded) {
  *written = false;
  if (facts.known) {
    const uint64_t bound = ChangeLowerBound(work, facts);
    if (out->size() > cap || bound > cap - out->size()) return BudgetExceeded(cap);
  }
  GENTLE_ASSIGN_OR_RETURN(*written, WriteFileByGit(common_dir, work, facts, cap, out));
  if (*written) return Status::Ok();
  const SidesToStream stream = StreamedSides(work, facts);
  GENTLE_RETURN_IF_ERROR(LoadSide(repo, work.old_oid, work.old_mode, work.path, stream.old_side,
                                  facts.known ? facts.old_side.size : 0, &loaded->old_side));
  return LoadSide(repo, work.new_oid, work.new_mode, work.path, stream.new_side,
                  facts.known ? facts.new_side.size : 0, &loaded->new_side);
}

// The second half: the section of a file whose sides ReadFile read, appended to `out`.
Status WriteLoaded(const FileWork& work, LoadedFile& loaded, size_t cap, std::string* out) {
  if (work.status == 'T') {
    // git prints a type change as the old path deleted, then the new one added.
    LoadedSide absent;
    GENTLE_RETURN_IF_ERROR(AppendSection(work.path, loaded.old_side, absent, cap, out));
    return AppendSection(work.path, absent, loaded.new_side, cap, out);
  }
  return AppendSection(work.path, loaded.old_side, loaded.new_side, cap, out);
}

// The section (two for a type change) of one file, appended to `out`, which stays within `cap`
// (ReadFile, then WriteLoaded).
Status WriteFile(git_repository* repo, const std::string& common_dir, const FileWork& work,
                 const ChangeFacts& facts, size_t cap, std::string* out) {
  bool written = false;
  LoadedFile loaded;
  GENTLE_RETURN_IF_ERROR(ReadFile(repo, common_dir, work, facts, cap, out, &written, &loaded));
  if (written) return Status::Ok();
  return WriteLoaded(work, loaded, cap, out);
}

// Below this many files the patch is written on the calling thread only.
constexpr size_t kParallelMinFiles = 16;
// How many files a worker may run ahead of the one being appended; bounds memory held in
// finished-but-unappended sections.
constexpr size_t kWindow = 8;
// The blob bytes the two threads may hold at once: the largest file's (what one thread holds at
// its largest file), and never less than this, so a patch of small files keeps both threads busy.
constexpr uint64_t kInFlightFloorBytes = uint64_t{1} << 20;
// The helper thread writes only files holding at most this many blob bytes; larger ones are
// written by the calling thread. glibc gives each thread a heap of its own and keeps what a thread
// frees for that thread, so large pairs written on both threads would leave both heaps at a large
// pair's size (blobs and xdiff's state).
constexpr uint64_t kHelperMaxHeldBytes = uint64_t{256} << 10;
// The helper may read the sides of a larger file of at most this many blob bytes ahead of the
// calling thread, which then writes its section, while the files in flight hold at most this
// many bytes beyond the limit: the next large pair is read while the current one is diffed, one
// xdiff state is held at a time, and the peak rises by at most this much over the sequential one.
constexpr uint64_t kReadAheadMaxBytes = uint64_t{2} << 20;

// The blob bytes a file's section holds while it is written: both sides' sizes (a streamed side
// holds less); nullopt when the sizes are not known.
std::optional<uint64_t> HeldBytes(const FileWork& work, const ChangeFacts& facts) {
  if (!facts.known) return std::nullopt;
  uint64_t held = 0;
  if (work.old_mode != 0 && work.old_mode != kModeGitlink) held += facts.old_side.size;
  if (work.new_mode != 0 && work.new_mode != kModeGitlink) held += facts.new_side.size;
  return held;
}

// Whether another thread may read a file's sides for the calling thread to write: sizes known,
// both sides read whole (none streamed, none written by git).
bool ReadableAhead(const std::string& common_dir, const FileWork& work, const ChangeFacts& facts) {
  if (!facts.known || (!common_dir.empty() && WantsGitSection(work, facts))) return false;
  const SidesToStream stream = StreamedSides(work, facts);
  return !stream.old_side && !stream.new_side;
}

// The patch's bytes moved to `spool` (none without one).
size_t Spooled(const PatchSpool* spool) { return spool != nullptr ? spool->size() : 0; }

// After a file's section is appended to `out`: budget_exceeded when the patch (the spool's bytes
// and `out`'s) passes max_bytes, else `out` offered to `spool` (when given).
Status Appended(size_t max_bytes, PatchSpool* spool, std::string* out) {
  if (Spooled(spool) + out->size() > max_bytes) {
    return Status(Code::kBudgetExceeded, "derived patch exceeds the budget");
  }
  if (spool != nullptr) spool->Offer(out);
  return Status::Ok();
}

// Writes every file's section on the calling thread, in order, offering `out` to `spool` (when
// given) after each file; the patch is the spool's bytes followed by `out`'s.
Status WriteFilesSequentially(git_repository* repo, const std::string& common_dir,
                              const std::vector<FileWork>& files,
                              const std::vector<ChangeFacts>& facts, size_t max_bytes,
                              PatchSpool* spool, std::string* out) {
  for (size_t i = 0; i < files.size(); ++i) {
    GENTLE_RETURN_IF_ERROR(
        WriteFile(repo, common_dir, files[i], facts[i], max_bytes - Spooled(spool), out));
    GENTLE_RETURN_IF_ERROR(Appended(max_bytes, spool, out));
  }
  return Status::Ok();
}

// A repository handle over `repo`'s object database only (no worktree, index or config); null
// if libgit2 refuses any step.
//
// Its configuration is set to an empty one, so nothing libgit2 looks up through the handle loads
// the user's and the system's git configuration (about 25 system calls and 60,000 instructions
// on a one-file export) to find settings the engine ignores: hunks are requested with
// GIT_DIFF_FORCE_TEXT, the text around them is ours (docs/engine.md), and no diff driver is
// looked up (export/file_section.cc).
RepositoryPtr ObjectsOnly(git_repository* repo) {
  auto odb = store::git::RepositoryOdb(repo);
  git_repository* wrapped = nullptr;
  if (!odb.ok() || git_repository_wrap_odb(&wrapped, odb->get()) != 0) return RepositoryPtr();
  RepositoryPtr handle(wrapped);
  git_config* empty = nullptr;
  if (git_config_new(&empty) != 0) return RepositoryPtr();
  // The handle takes its own reference. If it refuses the empty configuration, the handle would
  // load the user's: no handle at all, so the caller fails closed.
  const int set = git_repository_set_config(handle.get(), empty);
  git_config_free(empty);
  if (set != 0) return RepositoryPtr();
  return handle;
}

// The directory whose objects git reads for `repo` (export/git_section.h); empty for a handle
// without one (a wrapped object database), which hands nothing to git.
std::string CommonDir(git_repository* repo) {
  const char* dir = git_repository_commondir(repo);
  return dir != nullptr ? std::string(dir) : std::string();
}

// The patch's buffer, reserved up front (capped): regrowing a multi-megabyte string would copy it
// and touch new pages each time; untouched reserved pages cost nothing.
void ReserveOutput(size_t max_bytes, std::string* out) {
  out->reserve(std::min<size_t>(max_bytes, size_t{64} << 20));
}

// On the calling thread alone: the facts from the object headers, the refusal of a patch they
// prove over the budget (before any blob is inflated), then every section in order.
Status WriteAllSequentially(git_repository* repo, git_odb* odb, const std::string& common_dir,
                            const std::vector<FileWork>& files, size_t max_bytes, PatchSpool* spool,
                            std::string* out) {
  std::vector<ChangeFacts> facts = GatherFacts(odb, files);
  GENTLE_RETURN_IF_ERROR(RefuseIfProvablyOverBudget(odb, files, max_bytes, &facts));
  ReserveOutput(max_bytes, out);
  return WriteFilesSequentially(repo, common_dir, files, facts, max_bytes, spool, out);
}

// Section buffers kept for reuse once appended (at most this many, none larger than
// kSpareMaxBytes): a section written into one is written into pages already mapped, without
// regrowing it, where a new string would be regrown from empty into fresh memory.
constexpr size_t kSpareBuffers = 2;
constexpr size_t kSpareMaxBytes = size_t{1} << 20;

// Writes every file's section in order into `out`, on the calling thread and one helper thread it
// starts and joins. Both threads first describe the files from their object headers
// (DescribeChange, claimed one at a time); the calling thread then refuses a patch the facts prove
// over the budget before any blob is inflated, exactly as the sequential writer does, and only
// then is any file's section started.
//
// Two threads share the per-file work (blob inflation, myers, formatting); the calling thread
// appends finished sections strictly in order, so the bytes, the first error and the budget
// cut-off are exactly the sequential ones. A file the calling thread starts when every file
// before it is appended, and a file whose sides the helper read ahead, is written by the calling
// thread straight into `out`; any other is written into a buffer and copied in when its turn
// comes.
//
// The helper thread reads through its own repository handle, as libgit2 objects are not shared;
// it opens it itself, while the calling thread describes files. A file is started only while the
// blob bytes of the files being written stay within the largest file's (or kInFlightFloorBytes),
// and the helper only reads the sides of files over kHelperMaxHeldBytes, up to kReadAheadMaxBytes
// more, for the calling thread to diff: two large diffs are never run at once, nor in two heaps,
// so peak memory is the sequential writer's plus at most kReadAheadMaxBytes, while small files
// still run beside each other and beside a large one, and a large file's blobs are inflated while
// the one before it is diffed. A side read ahead is freed on the calling thread; glibc returns it
// to the helper's heap, where the next one is read.
//
// Both threads read through handles that hold nothing but an object database: git_diff_blobs
// loads the repository's index when there is an index file (libgit2 1.5; also for a git
// directory opened as bare), which in a working repository of 30,000 files is a 2.6 MB read and
// SHA-1 check per handle: 85% of a small export's instructions. The calling thread wraps the
// caller's object database (its caches are shared); the helper wraps the one it opens.
Status WriteFiles(git_repository* caller_repo, git_odb* odb, const std::vector<FileWork>& files,
                  size_t max_bytes, PatchSpool* spool, std::string* out) {
  RepositoryPtr objects_only = ObjectsOnly(caller_repo);
  git_repository* repo = objects_only ? objects_only.get() : caller_repo;
  const std::string common_dir = CommonDir(caller_repo);
  if (files.size() < kParallelMinFiles || std::thread::hardware_concurrency() <= 1) {
    return WriteAllSequentially(repo, odb, common_dir, files, max_bytes, spool, out);
  }
  const std::string git_dir = git_repository_path(caller_repo);

  struct Slot {
    bool ready = false;
    bool in_place = false;  // written straight into `out`
    Status status;
    std::string bytes;
    std::unique_ptr<LoadedFile> loaded;  // read ahead by the helper, for the calling thread
  };
  const size_t n = files.size();
  std::vector<Slot> slots(n);
  std::vector<ChangeFacts> facts(n);
  std::mutex mutex;
  std::condition_variable changed;
  size_t next_describe = 0;
  size_t described = 0;
  bool facts_ready = false;  // described, checked against the budget, scheduled
  size_t next_claim = 0;
  size_t appended = 0;
  bool stop = false;
  std::atomic<size_t> appended_bytes{0};
  std::vector<uint64_t> held(n);
  std::vector<bool> readable_ahead(n);
  uint64_t held_limit = kInFlightFloorBytes;
  uint64_t in_flight = 0;  // held bytes of the files being read or written
  std::vector<std::string> spare;

  // Describes unclaimed files until none is left; `lock` is held on entry and on return.
  auto describe = [&](git_odb* db, std::unique_lock<std::mutex>& lock) {
    while (!stop && next_describe < n) {
      const size_t i = next_describe++;
      lock.unlock();
      ChangeFacts described_facts = DescribeChange(db, files[i]);
      lock.lock();
      facts[i] = described_facts;
      if (++described == n) changed.notify_all();
    }
  };
  // The schedule, from the facts: what each file holds, and which the helper may read ahead.
  auto schedule = [&] {
    std::vector<std::optional<uint64_t>> known_held(n);
    for (size_t i = 0; i < n; ++i) {
      known_held[i] = HeldBytes(files[i], facts[i]);
      if (known_held[i]) held_limit = std::max(held_limit, *known_held[i]);
    }
    // A file of unknown sizes counts as the limit: it is written alone.
    for (size_t i = 0; i < n; ++i) held[i] = known_held[i].value_or(held_limit);
    for (size_t i = 0; i < n; ++i) {
      readable_ahead[i] = held[i] > kHelperMaxHeldBytes && held[i] <= kReadAheadMaxBytes &&
                          ReadableAhead(common_dir, files[i], facts[i]);
    }
  };
  auto can_claim = [&](bool helper) {
    if (stop || !facts_ready || next_claim >= n || next_claim >= appended + kWindow) return false;
    if (helper && held[next_claim] > kHelperMaxHeldBytes) {
      return readable_ahead[next_claim] &&
             in_flight <= held_limit + kReadAheadMaxBytes - held[next_claim];
    }
    return in_flight == 0 || in_flight <= held_limit - held[next_claim];
  };
  auto cap_left = [&] {
    const size_t used = appended_bytes.load();
    return max_bytes > used ? max_bytes - used : 0;
  };
  // A buffer for a section; `lock` is held.
  auto take_buffer = [&] {
    std::string buffer;
    if (!spare.empty()) {
      buffer = std::move(spare.back());
      spare.pop_back();
    }
    return buffer;
  };
  // Records slot i's outcome; `lock` is held.
  auto finish = [&](size_t i, Status status, std::string bytes, bool in_place) {
    in_flight -= held[i];
    slots[i].status = std::move(status);
    slots[i].bytes = std::move(bytes);
    slots[i].in_place = in_place;
    slots[i].ready = true;
    changed.notify_all();
  };
  // The helper reads a large file's sides for the calling thread; `lock` is held on entry and on
  // return.
  auto read_ahead = [&](git_repository* r, size_t i, std::unique_lock<std::mutex>& lock) {
    in_flight += held[i];
    lock.unlock();
    auto loaded = std::make_unique<LoadedFile>();
    std::string bytes;
    bool written = false;
    Status status =
        ReadFile(r, common_dir, files[i], facts[i], cap_left(), &bytes, &written, loaded.get());
    if (!status.ok()) loaded.reset();
    lock.lock();
    if (!status.ok() || written) return finish(i, std::move(status), std::move(bytes), false);
    slots[i].loaded = std::move(loaded);
    changed.notify_all();
  };
  // Computes slot i into a buffer outside the lock; `lock` is held on entry and on return.
  auto compute = [&](git_repository* r, size_t i, std::unique_lock<std::mutex>& lock) {
    in_flight += held[i];
    std::string bytes = take_buffer();
    lock.unlock();
    Status status = WriteFile(r, common_dir, files[i], facts[i], cap_left(), &bytes);
    lock.lock();
    finish(i, std::move(status), std::move(bytes), false);
  };
  // The calling thread writes slot i, the next to append, straight into `out` (every file before
  // it is in the spool or `out`, so what the spool leaves of max_bytes caps it as cap_left would
  // a buffer); its sides were read ahead when `loaded`. `lock` as above.
  auto write_in_place = [&](size_t i, std::unique_ptr<LoadedFile> loaded,
                            std::unique_lock<std::mutex>& lock) {
    if (!loaded) in_flight += held[i];
    const size_t cap = max_bytes - Spooled(spool);
    lock.unlock();
    Status status = loaded ? WriteLoaded(files[i], *loaded, cap, out)
                           : WriteFile(repo, common_dir, files[i], facts[i], cap, out);
    loaded.reset();
    lock.lock();
    finish(i, std::move(status), std::string(), true);
  };
  auto helper_run = [&] {
    RepositoryPtr helper_repo;
    store::git::OdbPtr helper_odb;
    {
      auto full = store::git::ReopenRepository(git_dir);
      if (full.ok()) helper_repo = ObjectsOnly(full->get());
      if (helper_repo) {
        auto db = store::git::RepositoryOdb(helper_repo.get());
        if (db.ok()) helper_odb = std::move(db).value();
      }
    }
    std::unique_lock<std::mutex> lock(mutex);
    // Without a handle of its own the helper takes nothing: the calling thread does it all.
    if (!helper_odb) return;
    describe(helper_odb.get(), lock);
    for (;;) {
      changed.wait(lock,
                   [&] { return stop || (facts_ready && (next_claim >= n || can_claim(true))); });
      if (!can_claim(true)) return;
      const size_t i = next_claim++;
      if (held[i] > kHelperMaxHeldBytes) {
        read_ahead(helper_repo.get(), i, lock);
      } else {
        compute(helper_repo.get(), i, lock);
      }
    }
  };
  // One malloc arena for the process from here on: the helper reads large blobs that the calling
  // thread frees, and glibc keeps a freed block in the arena it came from, so an arena of the
  // helper's own would hold a large pair's worth beside the first (docs/performance.md, "The
  // record without a DOM, the configuration read, the large export"). Arenas made before are kept;
  // the setting lasts for the rest of the process.
  mallopt(M_ARENA_MAX, 1);
  std::thread helper;
  try {
    helper = std::thread(helper_run);
  } catch (const std::system_error&) {
    // No thread to be had: nothing was described or claimed yet.
    return WriteAllSequentially(repo, odb, common_dir, files, max_bytes, spool, out);
  }
  auto stop_helper = [&] {
    {
      std::lock_guard<std::mutex> guard(mutex);
      stop = true;
    }
    changed.notify_all();
    helper.join();
  };

  {
    std::unique_lock<std::mutex> lock(mutex);
    describe(odb, lock);
    changed.wait(lock, [&] { return described == n; });
  }
  // The helper waits for facts_ready: the facts are the calling thread's until then.
  KeepKnownPrefix(&facts);
  Status refused = RefuseIfProvablyOverBudget(odb, files, max_bytes, &facts);
  if (!refused.ok()) {
    stop_helper();
    return refused;
  }
  schedule();
  ReserveOutput(max_bytes, out);

  Status result;
  {
    std::unique_lock<std::mutex> lock(mutex);
    facts_ready = true;
    changed.notify_all();
    for (size_t i = 0; i < n; ++i) {
      while (!slots[i].ready) {
        if (slots[i].loaded) {
          write_in_place(i, std::move(slots[i].loaded), lock);
        } else if (can_claim(false)) {
          const size_t j = next_claim++;
          if (j == i) {
            write_in_place(i, nullptr, lock);
          } else {
            compute(repo, j, lock);
          }
        } else {
          changed.wait(lock);
        }
      }
      Slot slot = std::move(slots[i]);
      if (slot.status.ok()) {
        lock.unlock();
        if (!slot.in_place) {
          AppendWillWrite(out, out->size() + slot.bytes.size());
          out->append(slot.bytes);
        }
        slot.status = Appended(max_bytes, spool, out);
        lock.lock();
      }
      if (!slot.status.ok()) {
        result = std::move(slot.status);
        break;
      }
      if (!slot.in_place && slot.bytes.capacity() <= kSpareMaxBytes &&
          spare.size() < kSpareBuffers) {
        slot.bytes.clear();
        spare.push_back(std::move(slot.bytes));
      }
      appended = i + 1;
      appended_bytes.store(Spooled(spool) + out->size());
      changed.notify_all();
    }
  }
  stop_helper();
  return result;
}

}  // namespace

Result<DerivedPatch> DerivePatch(git_repository* repo, const git_oid& base_tree,
                                 const git_oid& candidate_tree, const PatchOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<TreeChange> changes,
                          DiffTrees(repo, base_tree, candidate_tree));
  return WritePatch(repo, changes, options);
}

Status AppendChangeSection(git_repository* repo, const TreeChange& change, const ChangeFacts& facts,
                           size_t max_bytes, std::string* out) {
  return WriteFile(repo, CommonDir(repo), change, facts, max_bytes, out);
}

ManifestEntry ManifestEntryOf(const TreeChange& change) {
  const std::string zeros(GIT_OID_HEXSZ, '0');
  return {change.path,
          change.status,
          ModeOctal(change.old_mode),
          ModeOctal(change.new_mode),
          change.old_mode != 0 ? OidHex(change.old_oid) : zeros,
          change.new_mode != 0 ? OidHex(change.new_oid) : zeros};
}

Result<DerivedPatch> WritePatch(git_repository* repo, const std::vector<TreeChange>& files,
                                const PatchOptions& options) {
  DerivedPatch patch;
  patch.manifest.reserve(files.size());
  for (const TreeChange& work : files) patch.manifest.push_back(ManifestEntryOf(work));
  // Sizes from the object headers refuse a patch that cannot fit before any blob is inflated
  // (WriteFiles).
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  GENTLE_RETURN_IF_ERROR(
      WriteFiles(repo, odb.get(), files, options.max_bytes, options.spool, &patch.bytes));
  return patch;
}

}  // namespace gentle::exporter
