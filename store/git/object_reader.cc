// OpenSSL's direct SHA-1 functions, as store/sha256.cc uses the direct SHA-256 ones: no EVP
// provider start-up (~3.5M instructions under OpenSSL 3), and the same SHA-NI code. Deprecated
// in 3.0 but supported there.
#define OPENSSL_API_COMPAT 0x10100000L
#include "store/git/object_reader.h"

#include <openssl/sha.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "store/git/git_util.h"
#include "store/git/loose_object_guard.h"

namespace gentle::store::git {
namespace {

Status Refused(const git_oid& id, const std::string& why) {
  return Status(Code::kObjectsMissing, "object " + OidHex(id) + " " + why)
      .WithDetail(DetailKey::kObject, OidHex(id));
}

Status Mismatch(const git_oid& id) {
  return Refused(id, "does not hash to its id (replaced or corrupted in the object database)")
      .WithDetail(DetailKey::kReason, "hash_mismatch");
}

Status ReadFailure(int rc, git_odb* odb, const git_oid& id) {
  if (rc == GIT_ENOTFOUND) {
    return Refused(id, "is not in the object database").WithDetail(DetailKey::kReason, "missing");
  }
  // The guard's refusal (a loose object that is not a file) names the path.
  if (Status guard = CheckLooseObject(odb, id); !guard.ok()) return guard;
  return Status(Code::kInternal, "cannot read object " + OidHex(id) + ": " + LastGitError())
      .WithDetail(DetailKey::kObject, OidHex(id));
}

}  // namespace

git_oid ObjectId(git_object_t type, std::string_view data) {
  // "<type> <size>" fits: the longest type name is 6 bytes, a size_t at most 20 digits.
  char header[32];
  const int n =
      std::snprintf(header, sizeof(header), "%s %zu", git_object_type2string(type), data.size());
  SHA_CTX ctx;
  git_oid id;
  static_assert(SHA_DIGEST_LENGTH == GIT_OID_RAWSZ);
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, header, static_cast<size_t>(n) + 1);  // with the NUL
  SHA1_Update(&ctx, data.data(), data.size());
  SHA1_Final(id.id, &ctx);
  return id;
}

bool ObjectHashMatches(const git_oid& id, git_object_t type, std::string_view data) {
  const git_oid actual = ObjectId(type, data);
  return std::memcmp(actual.id, id.id, GIT_OID_RAWSZ) == 0;
}

Result<OdbPtr> RepositoryOdb(git_repository* repo) {
  git_odb* odb = nullptr;
  if (git_repository_odb(&odb, repo) != 0) {
    return Status(Code::kInternal, "cannot open object database: " + LastGitError());
  }
  return OdbPtr(odb);
}

Result<OdbObjectPtr> ReadObject(git_odb* odb, const git_oid& id, git_object_t type,
                                uint64_t max_bytes) {
  if (max_bytes != kNoSizeLimit) {
    GENTLE_RETURN_IF_ERROR(ReadObjectHeaderWithin(odb, id, max_bytes).status());
  }
  git_odb_object* raw = nullptr;
  if (int rc = git_odb_read(&raw, odb, &id); rc != 0) return ReadFailure(rc, odb, id);
  OdbObjectPtr object(raw);
  const git_object_t actual = git_odb_object_type(raw);
  if (actual != type) {
    return Refused(id, std::string("is a ") + git_object_type2string(actual) + ", not a " +
                           git_object_type2string(type))
        .WithDetail(DetailKey::kReason, "wrong_type");
  }
  const std::string_view data(static_cast<const char*>(git_odb_object_data(raw)),
                              git_odb_object_size(raw));
  if (!ObjectHashMatches(id, actual, data)) return Mismatch(id);
  return object;
}

Result<BlobPtr> LookupBlob(git_repository* repo, const git_oid& id) {
  git_blob* raw = nullptr;
  if (int rc = git_blob_lookup(&raw, repo, &id); rc != 0) {
    GENTLE_ASSIGN_OR_RETURN(OdbPtr odb, RepositoryOdb(repo));
    return ReadFailure(rc, odb.get(), id);
  }
  BlobPtr blob(raw);
  const std::string_view data(static_cast<const char*>(git_blob_rawcontent(raw)),
                              static_cast<size_t>(git_blob_rawsize(raw)));
  if (!ObjectHashMatches(id, GIT_OBJECT_BLOB, data)) return Mismatch(id);
  return blob;
}

Result<ObjectHeader> ReadObjectHeader(git_odb* odb, const git_oid& id) {
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (int rc = git_odb_read_header(&size, &type, odb, &id); rc != 0) {
    return ReadFailure(rc, odb, id);
  }
  return ObjectHeader{type, static_cast<uint64_t>(size)};
}

Result<ObjectHeader> ReadObjectHeaderWithin(git_odb* odb, const git_oid& id, uint64_t max_bytes) {
  GENTLE_ASSIGN_OR_RETURN(ObjectHeader header, ReadObjectHeader(odb, id));
  if (header.size <= max_bytes) return header;
  return Status(Code::kCorrupted, "object " + OidHex(id) + " is " + std::to_string(header.size) +
                                      " bytes, over the " + std::to_string(max_bytes) +
                                      "-byte limit")
      .WithDetail(DetailKey::kObject, OidHex(id))
      .WithDetail(DetailKey::kSize, std::to_string(header.size))
      .WithDetail(DetailKey::kLimit, std::to_string(max_bytes));
}

BlobStream::BlobStream(OdbStreamPtr stream, std::optional<ObjectFileStream> pack, const git_oid& id,
                       uint64_t size)
    : stream_(std::move(stream)), pack_(std::move(pack)), id_(id), size_(size) {
  hash_.Start(GIT_OBJECT_BLOB, size);
}

std::optional<BlobStream> BlobStream::Open(git_odb* odb, const git_oid& id) {
  // libgit2 tries the next backend when one fails to open a stream, so the guard cannot stop it:
  // a loose object that is not a file is left to LookupBlob, which refuses it.
  if (!CheckLooseObject(odb, id).ok()) return std::nullopt;
  git_odb_stream* raw = nullptr;
  size_t size = 0;
  git_object_t type = GIT_OBJECT_INVALID;
  if (git_odb_open_rstream(&raw, &size, &type, odb, &id) == 0) {
    OdbStreamPtr stream(raw);
    if (type != GIT_OBJECT_BLOB) return std::nullopt;
    return BlobStream(std::move(stream), std::nullopt, id, static_cast<uint64_t>(size));
  }
  git_error_clear();
  std::optional<ObjectFileStream> pack = ObjectFileStream::OpenPacked(GuardedObjectDirs(odb), id);
  if (!pack || pack->type() != GIT_OBJECT_BLOB) return std::nullopt;
  const uint64_t pack_size = pack->size();
  return BlobStream(nullptr, std::move(pack), id, pack_size);
}

Result<size_t> BlobStream::Read(char* buffer, size_t n) {
  const uint64_t left = size_ - read_;
  if (n > left) n = static_cast<size_t>(left);
  if (n > (1u << 30)) n = 1u << 30;  // libgit2 returns the count as an int
  size_t got = 0;
  if (pack_) {
    auto read = pack_->Read(buffer, n);
    if (!read.ok()) {
      return Status(Code::kInternal,
                    "cannot read object " + OidHex(id_) + ": " + read.status().message())
          .WithDetail(DetailKey::kObject, OidHex(id_));
    }
    got = *read;  // all n: ObjectFileStream::Read fills the buffer or fails
  }
  while (!pack_ && got < n) {
    const int rc = git_odb_stream_read(stream_.get(), buffer + got, n - got);
    if (rc < 0) {
      return Status(Code::kInternal, "cannot read object " + OidHex(id_) + ": " + LastGitError())
          .WithDetail(DetailKey::kObject, OidHex(id_));
    }
    if (rc == 0) {
      return Status(Code::kInternal,
                    "cannot read object " + OidHex(id_) + ": its data ends before its size")
          .WithDetail(DetailKey::kObject, OidHex(id_));
    }
    got += static_cast<size_t>(rc);
  }
  hash_.Update(std::string_view(buffer, got));
  read_ += got;
  return got;
}

Status BlobStream::Finish() {
  bool ends = false;
  if (pack_) {
    ends = pack_->Finish().ok();
  } else {
    char extra;
    ends = git_odb_stream_read(stream_.get(), &extra, 1) == 0;
    git_error_clear();
  }
  if (!ends) {
    return Status(Code::kInternal, "cannot read object " + OidHex(id_) +
                                       ": its data does not end at its declared size")
        .WithDetail(DetailKey::kObject, OidHex(id_));
  }
  std::optional<git_oid> actual = hash_.Finish();
  if (!actual || !git_oid_equal(&*actual, &id_)) return Mismatch(id_);
  return Status::Ok();
}

void DisableLibgit2HashCheck() { git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0); }

}  // namespace gentle::store::git
