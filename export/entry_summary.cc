#include "export/entry_summary.h"

#include "export/file_section.h"
#include "store/git/git_util.h"
#include "store/git/object_reader.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;

// One side's content: a blob read and hash-checked, or a gitlink's line.
struct Side {
  uint32_t mode = 0;
  git_oid oid{};
  store::git::BlobPtr blob;
  std::string synthetic;
  std::string_view content;
};

Status LoadSide(git_repository* repo, uint32_t mode, const git_oid& id, const std::string& path,
                Side* side) {
  side->mode = mode;
  side->oid = id;
  if (mode == 0) return Status::Ok();
  if (mode == kModeGitlink) {
    side->synthetic = "Subproject commit " + store::git::OidHex(id) + "\n";
    side->content = side->synthetic;
    return Status::Ok();
  }
  auto blob = store::git::LookupBlob(repo, id);
  if (!blob.ok()) {
    Status status(blob.status().code(), "blob " + store::git::OidHex(id) + " at " + path + ": " +
                                            blob.status().message());
    status.WithDetailsOf(blob.status());
    return status.WithDetail(DetailKey::kPath, path);
  }
  side->blob = std::move(blob).value();
  side->content = std::string_view(static_cast<const char*>(git_blob_rawcontent(side->blob.get())),
                                   static_cast<size_t>(git_blob_rawsize(side->blob.get())));
  return Status::Ok();
}

int CountLine(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line,
              void* payload) {
  auto* stat = static_cast<Numstat*>(payload);
  if (line->origin == GIT_DIFF_LINE_ADDITION) ++stat->added;
  if (line->origin == GIT_DIFF_LINE_DELETION) ++stat->deleted;
  return 0;
}

FileSide AsFileSide(uint32_t mode, const git_oid& id) {
  FileSide side;
  side.mode = mode;
  side.oid = id;
  return side;
}

}  // namespace

Result<Numstat> CountNumstat(git_repository* repo, const TreeChange& change) {
  Side old_side;
  Side new_side;
  GENTLE_RETURN_IF_ERROR(LoadSide(repo, change.old_mode, change.old_oid, change.path, &old_side));
  GENTLE_RETURN_IF_ERROR(LoadSide(repo, change.new_mode, change.new_oid, change.path, &new_side));
  Numstat stat;
  stat.old_size = old_side.content.size();
  stat.new_size = new_side.content.size();
  const bool gitlink = old_side.mode == kModeGitlink || new_side.mode == kModeGitlink;
  // git's test, as for the section (export/file_section.h); a gitlink's line is text.
  if ((old_side.mode != kModeGitlink && LooksBinary(old_side.content)) ||
      (new_side.mode != kModeGitlink && LooksBinary(new_side.content))) {
    stat.binary = true;
    return stat;
  }
  if (git_oid_equal(&old_side.oid, &new_side.oid) != 0) return stat;
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  options.flags = GIT_DIFF_FORCE_TEXT;
  options.context_lines = 0;
  options.interhunk_lines = 0;
  int rc;
  if (!gitlink) {
    rc = git_diff_blobs(old_side.blob.get(), nullptr, new_side.blob.get(), nullptr, &options,
                        nullptr, nullptr, nullptr, CountLine, &stat);
  } else {
    rc = git_diff_buffers(old_side.content.data(), old_side.content.size(), nullptr,
                          new_side.content.data(), new_side.content.size(), nullptr, &options,
                          nullptr, nullptr, nullptr, CountLine, &stat);
  }
  if (rc != 0) {
    const git_error* e = git_error_last();
    return Status(Code::kInternal, std::string("libgit2 diff failed: ") +
                                       (e != nullptr ? e->message : "unknown error"));
  }
  return stat;
}

std::string SummaryLine(const Numstat& stat) {
  const std::string added = stat.binary ? "-" : std::to_string(stat.added);
  const std::string deleted = stat.binary ? "-" : std::to_string(stat.deleted);
  return "summary: added=" + added + " deleted=" + deleted +
         " old_size=" + std::to_string(stat.old_size) +
         " new_size=" + std::to_string(stat.new_size) + "\n";
}

Status AppendEntrySummary(git_repository* repo, const TreeChange& change, std::string* out) {
  GENTLE_ASSIGN_OR_RETURN(Numstat stat, CountNumstat(repo, change));
  const FileSide old_side = AsFileSide(change.old_mode, change.old_oid);
  const FileSide new_side = AsFileSide(change.new_mode, change.new_oid);
  if (change.status == 'T') {
    const FileSide absent;
    AppendSectionHeader(change.path, old_side, absent, out);
    AppendSectionHeader(change.path, absent, new_side, out);
  } else {
    AppendSectionHeader(change.path, old_side, new_side, out);
  }
  out->append(SummaryLine(stat));
  return Status::Ok();
}

}  // namespace gentle::exporter
