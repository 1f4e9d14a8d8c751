// Objects read and hashed in pieces: store::git::BlobStream gives a loose blob's bytes exactly and
// checks its id once they are all read (a packed blob is not streamed);
// store::git::ReadBlobInPieces reads a loose blob whole from its file in pieces, so a large blob is
// not held beside its compressed file, and refuses a file that ends early, runs past its size or
// does not hash to its id; store::git::HashFileAsBlob and store::git::ObjectHashStream give the id
// `git hash-object` gives, whatever the size.
#include <git2.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "store/git/memory_writes.h"
#include "store/git/object_file_stream.h"
#include "store/git/object_hash_stream.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

std::string NoiseOf(size_t bytes, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string data(bytes, '\0');
  for (char& c : data) c = static_cast<char>(gen() & 0xff);
  return data;
}

// Writes `data` as a loose blob of `repo` with the git CLI; returns its id.
std::string WriteBlob(const std::string& repo, const std::string& data, const std::string& name) {
  WriteFile(repo + "/" + name, data);
  return Trim(Git(repo, {"hash-object", "-w", "--no-filters", name}));
}

// The peak resident set of this process (VmHWM), in KiB; -1 when it cannot be read.
long PeakKib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  }
  return -1;
}

// Resets VmHWM to the current resident set (Linux's clear_refs "5").
void ResetPeak() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.close();
  REQUIRE(clear.good());
}

// Whether a peak resident set measures this code (not a sanitizer runtime's shadow memory).
bool PeakIsOurs() {
  const char* sanitized = std::getenv("GENTLE_SANITIZER_BUILD");
  return sanitized == nullptr || std::string(sanitized) != "1";
}

// `object` (header and data) deflated as git writes a loose object.
std::string Deflated(const std::string& object) {
  uLongf size = compressBound(object.size());
  std::string out(size, '\0');
  REQUIRE(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                    reinterpret_cast<const Bytef*>(object.data()), object.size(), 1) == Z_OK);
  out.resize(size);
  return out;
}

std::string LooseFile(const std::string& repo, const std::string& hex) {
  return repo + "/.git/objects/" + hex.substr(0, 2) + "/" + hex.substr(2);
}

// Replaces the loose file of `hex` with `bytes` (git leaves it read-only).
void Overwrite(const std::string& repo, const std::string& hex, const std::string& bytes) {
  const std::string path = LooseFile(repo, hex);
  REQUIRE(::chmod(path.c_str(), 0644) == 0);
  WriteFile(path, bytes);
}

}  // namespace

TEST_CASE("ReadBlobInPieces reads a large loose blob without holding its compressed file") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string data = NoiseOf(size_t{32} << 20, 9);  // incompressible: the file is as large
  const std::string hex = WriteBlob(repo, data, "noise");
  auto opened = store::git::Repository::Discover(repo);  // guarded, as every command's
  REQUIRE(opened.ok());
  auto odb = store::git::RepositoryOdb(opened->raw());
  REQUIRE(odb.ok());
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  std::string read(data.size(), '\0');  // resident before measuring; not reallocated
  ResetPeak();
  const long before = PeakKib();
  Status status = store::git::ReadBlobInPieces(odb->get(), oid, &read);
  const long grew = PeakKib() - before;
  REQUIRE(status.ok());
  CHECK(read == data);
  INFO("peak grew by " << grew << " KiB while 32 MiB were read");
  // Reading the 32 MiB file whole first (git_odb_read) or mapping it whole (libgit2's stream)
  // would add the file's size.
  if (PeakIsOurs()) CHECK(grew < 8 * 1024);

  SECTION("a loose file that ends early, runs past its size or is another blob is refused") {
    const std::string content = NoiseOf(100000, 10);
    const std::string header = "blob " + std::to_string(content.size()) + std::string(1, '\0');
    const std::string small = WriteBlob(repo, content, "small");
    git_oid small_oid;
    REQUIRE(git_oid_fromstr(&small_oid, small.c_str()) == 0);
    const std::string whole = Deflated(header + content);
    std::string out;
    Overwrite(repo, small, whole.substr(0, whole.size() - 1000));  // the stream cut short
    Status cut = store::git::ReadBlobInPieces(odb->get(), small_oid, &out);
    CHECK(cut.code() == Code::kInternal);
    CHECK(cut.details().at("object") == small);
    Overwrite(repo, small, Deflated(header + content + "d"));  // a byte past its size
    Status longer = store::git::ReadBlobInPieces(odb->get(), small_oid, &out);
    CHECK(longer.code() == Code::kInternal);
    CHECK_THAT(longer.message(), Catch::Contains("does not end at its declared size"));
    std::string changed = content;
    changed[500] = static_cast<char>(changed[500] ^ 1);
    Overwrite(repo, small, Deflated(header + changed));
    Status mismatch = store::git::ReadBlobInPieces(odb->get(), small_oid, &out);
    CHECK(mismatch.code() == Code::kObjectsMissing);
    CHECK(mismatch.details().at("reason") == "hash_mismatch");
    const std::string packed = WriteBlob(repo, "packed\n", "packed");
    Git(repo, {"update-ref", "refs/keep/packed", packed});
    Git(repo, {"repack", "-adq"});  // packed now, its loose file gone: read from its pack entry
    git_oid packed_oid;
    REQUIRE(git_oid_fromstr(&packed_oid, packed.c_str()) == 0);
    REQUIRE(store::git::ReadBlobInPieces(odb->get(), packed_oid, &out).ok());
    CHECK(out == "packed\n");
    git_oid absent;
    REQUIRE(git_oid_fromstr(&absent, "0123456789abcdef0123456789abcdef01234567") == 0);
    CHECK(store::git::ReadBlobInPieces(odb->get(), absent, &out).code() == Code::kNotFound);
  }
}

TEST_CASE(
    "a blob a pack holds whole is read in pieces from the pack - a delta is left to libgit2") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string data = NoiseOf(size_t{32} << 20, 12);
  // Written straight into a pack of its own, as `git add` writes a file over 512 MiB.
  WriteFile(repo + "/noise", data);
  const std::string hex =
      Trim(Git(repo, {"-c", "core.bigFileThreshold=1m", "hash-object", "-w", "noise"}));
  REQUIRE(::access(LooseFile(repo, hex).c_str(), F_OK) != 0);
  auto opened = store::git::Repository::Discover(repo);
  REQUIRE(opened.ok());
  auto odb = store::git::RepositoryOdb(opened->raw());
  REQUIRE(odb.ok());
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  std::string read(data.size(), '\0');
  ResetPeak();
  const long before = PeakKib();
  Status status = store::git::ReadBlobInPieces(odb->get(), oid, &read);
  const long grew = PeakKib() - before;
  INFO(status.message());
  REQUIRE(status.ok());
  CHECK(read == data);
  INFO("peak grew by " << grew << " KiB while 32 MiB were read from a pack");
  // libgit2's whole read maps the pack (32 MiB) and inflates beside it.
  if (PeakIsOurs()) CHECK(grew < 8 * 1024);

  auto stream = store::git::BlobStream::Open(odb->get(), oid);
  REQUIRE(stream);
  CHECK(stream->size() == data.size());
  std::string streamed;
  std::string buffer(1u << 20, '\0');
  for (;;) {
    auto got = stream->Read(buffer.data(), buffer.size());
    REQUIRE(got.ok());
    if (*got == 0) break;
    streamed.append(buffer.data(), *got);
  }
  CHECK(streamed == data);
  CHECK(stream->Finish().ok());

  SECTION("a delta entry is not streamed: libgit2 reads it whole") {
    const std::string text = NoiseOf(200000, 13);
    std::string edited = text;
    edited[100000] = static_cast<char>(edited[100000] ^ 1);
    const std::string first = WriteBlob(repo, text, "first");
    const std::string second = WriteBlob(repo, edited, "second");
    Git(repo, {"update-ref", "refs/keep/first", first});
    Git(repo, {"update-ref", "refs/keep/second", second});
    Git(repo, {"repack", "-adfq", "--window=10"});
    // verify-pack -v: a delta entry's line has 7 fields (id, type, size, packed size, offset,
    // depth, base).
    RunResult listed = Run({"sh", "-c", "git verify-pack -v .git/objects/pack/*.idx"}, repo);
    REQUIRE(listed.exit_code == 0);
    std::string delta;
    for (const std::string& id : {first, second}) {
      const size_t at = listed.out.find(id + " blob");
      REQUIRE(at != std::string::npos);
      const std::string line = listed.out.substr(at, listed.out.find('\n', at) - at);
      int fields = 0;
      std::istringstream words(line);
      for (std::string word; words >> word;) ++fields;
      if (fields == 7) delta = id;
    }
    REQUIRE_FALSE(delta.empty());
    git_oid delta_oid;
    REQUIRE(git_oid_fromstr(&delta_oid, delta.c_str()) == 0);
    CHECK_FALSE(store::git::BlobStream::Open(odb->get(), delta_oid).has_value());
    std::string out;
    CHECK(store::git::ReadBlobInPieces(odb->get(), delta_oid, &out).code() == Code::kNotFound);
    auto blob = store::git::LookupBlob(opened->raw(), delta_oid);
    REQUIRE(blob.ok());
    CHECK(git_blob_rawsize(blob->get()) == 200000);
  }
  SECTION("a damaged pack entry or a truncated index fails the read or is not streamed") {
    RunResult packs = Run({"sh", "-c", "ls .git/objects/pack/*.pack"}, repo);
    REQUIRE(packs.exit_code == 0);
    const std::string pack = repo + "/" + Trim(packs.out);
    std::string bytes = ReadFile(pack);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x40);
    REQUIRE(::chmod(pack.c_str(), 0644) == 0);
    WriteFile(pack, bytes);
    std::string out;
    Status damaged = store::git::ReadBlobInPieces(odb->get(), oid, &out);
    CHECK((damaged.code() == Code::kInternal || damaged.code() == Code::kObjectsMissing));
    CHECK(damaged.details().at("object") == hex);
    const std::string idx = pack.substr(0, pack.size() - 5) + ".idx";
    const std::string index = ReadFile(idx);
    REQUIRE(::chmod(idx.c_str(), 0644) == 0);
    WriteFile(idx, index.substr(0, 1040));  // the counts, but not the ids they count
    CHECK_FALSE(store::git::BlobStream::Open(odb->get(), oid).has_value());
    CHECK(store::git::ReadBlobInPieces(odb->get(), oid, &out).code() == Code::kNotFound);
  }
}

TEST_CASE("ReadBlobInPieces reads the loose file through start's in-memory overlay database too") {
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string content = NoiseOf(100000, 11);
  const std::string hex = WriteBlob(repo, content, "noise");
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  auto opened = store::git::Repository::Discover(repo);
  REQUIRE(opened.ok());
  // start and revise capture through the overlay (store/git/memory_writes.h), and measure the
  // candidate's patch through it: a large side must be read from its file there as well.
  auto diverted = store::git::MemoryWrites::Divert(opened->raw());
  REQUIRE(diverted.ok());
  auto overlay = store::git::RepositoryOdb(opened->raw());
  REQUIRE(overlay.ok());
  std::string out;
  Status read = store::git::ReadBlobInPieces(overlay->get(), oid, &out);
  INFO(read.message());
  REQUIRE(read.ok());
  CHECK(out == content);
  // The overlay's guard refuses a FIFO at the loose path as the real database's does.
  const std::string path = LooseFile(repo, hex);
  REQUIRE(::unlink(path.c_str()) == 0);
  REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
  CHECK(store::git::ReadBlobInPieces(overlay->get(), oid, &out).code() == Code::kNotFound);
  auto blob = store::git::LookupBlob(opened->raw(), oid);
  CHECK(blob.status().code() == Code::kCorrupted);
  CHECK(blob.status().details().at("path") == path);
}

TEST_CASE("BlobStream reads a loose blob in pieces and checks its id at the end") {
  store::git::EnsureLibgit2();
  TempDir tmp;
  const std::string repo = InitRepo(tmp.path());
  const std::string data = NoiseOf(300001, 5);
  const std::string hex = WriteBlob(repo, data, "noise");
  git_oid oid;
  REQUIRE(git_oid_fromstr(&oid, hex.c_str()) == 0);
  RepoHandle handle(repo + "/.git");
  auto odb = store::git::RepositoryOdb(handle.get());
  REQUIRE(odb.ok());

  auto header = store::git::ReadObjectHeader(odb->get(), oid);
  REQUIRE(header.ok());
  CHECK(header->type == GIT_OBJECT_BLOB);
  CHECK(header->size == data.size());

  auto stream = store::git::BlobStream::Open(odb->get(), oid);
  REQUIRE(stream);
  CHECK(stream->size() == data.size());
  std::string read;
  char buffer[4099];
  for (;;) {
    auto got = stream->Read(buffer, sizeof(buffer));
    REQUIRE(got.ok());
    if (*got == 0) break;
    read.append(buffer, *got);
  }
  CHECK(read == data);
  CHECK(stream->consumed() == data.size());
  CHECK(stream->Finish().ok());

  SECTION("bytes that do not hash to the id are objects_missing") {
    const std::string other = WriteBlob(repo, NoiseOf(300001, 6), "other");
    ReplaceLooseObject(repo + "/.git", hex, other);
    auto swapped = store::git::BlobStream::Open(odb->get(), oid);
    REQUIRE(swapped);
    std::string all(static_cast<size_t>(swapped->size()), '\0');
    REQUIRE(swapped->Read(all.data(), all.size()).ok());
    Status finish = swapped->Finish();
    CHECK(finish.code() == Code::kObjectsMissing);
    CHECK(finish.details().at("reason") == "hash_mismatch");
  }
  SECTION("a packed blob is not streamed - a missing one has no header") {
    Git(repo, {"update-ref", "refs/keep/noise", hex});
    Git(repo, {"repack", "-adq"});
    CHECK_FALSE(store::git::BlobStream::Open(odb->get(), oid).has_value());
    CHECK(store::git::ReadObjectHeader(odb->get(), oid).ok());
    git_oid absent;
    REQUIRE(git_oid_fromstr(&absent, "0123456789abcdef0123456789abcdef01234567") == 0);
    CHECK(store::git::ReadObjectHeader(odb->get(), absent).status().code() ==
          Code::kObjectsMissing);
    CHECK_FALSE(store::git::BlobStream::Open(odb->get(), absent).has_value());
  }
}

TEST_CASE("HashFileAsBlob is git hash-object for files of any size") {
  TempDir tmp;
  for (size_t n : {size_t{0}, size_t{1}, size_t{65535}, size_t{65536}, size_t{65537},
                   size_t{3 * 1024 * 1024 + 7}}) {
    const std::string path = tmp.path() + "/f" + std::to_string(n);
    WriteFile(path, NoiseOf(n, static_cast<uint32_t>(n)));
    auto id = store::git::HashFileAsBlob(path);
    REQUIRE(id.ok());
    RunResult git = Run({"git", "hash-object", "--no-filters", path}, "", OracleEnv());
    REQUIRE(git.exit_code == 0);
    CHECK(store::git::OidHex(*id) == Trim(git.out));
  }
  CHECK(store::git::HashFileAsBlob(tmp.path() + "/absent").status().code() == Code::kInternal);
  store::git::ObjectHashStream short_of_size;
  short_of_size.Start(GIT_OBJECT_BLOB, 3);
  short_of_size.Update("ab");
  CHECK_FALSE(short_of_size.Finish().has_value());
  store::git::ObjectHashStream exact;
  exact.Start(GIT_OBJECT_BLOB, 2);
  exact.Update("a");
  exact.Update("b");
  const std::optional<git_oid> id = exact.Finish();
  REQUIRE(id);
  CHECK(store::git::OidHex(*id) == store::git::OidHex(store::git::ObjectId(GIT_OBJECT_BLOB, "ab")));
}

}  // namespace gentle::testing
