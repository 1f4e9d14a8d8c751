#include "export/patch_engine.h"

#include <memory>
#include <optional>

#include "export/file_section.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;

struct TreeDeleter {
  void operator()(git_tree* t) const { git_tree_free(t); }
};
struct DiffDeleter {
  void operator()(git_diff* d) const { git_diff_free(d); }
};
struct BlobDeleter {
  void operator()(git_blob* b) const { git_blob_free(b); }
};
using TreePtr = std::unique_ptr<git_tree, TreeDeleter>;
using DiffPtr = std::unique_ptr<git_diff, DiffDeleter>;
using BlobPtr = std::unique_ptr<git_blob, BlobDeleter>;

std::string OidHex(const git_oid& oid) {
  char hex[GIT_OID_HEXSZ + 1];
  git_oid_tostr(hex, sizeof(hex), &oid);
  return hex;
}

std::string ModeString(uint32_t mode) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%06o", mode);
  return buf;
}

std::string LastGitError() {
  const git_error* e = git_error_last();
  return e != nullptr && e->message != nullptr ? e->message : "unknown libgit2 error";
}

Status FromGitError(int rc, const std::string& what) {
  if (rc == GIT_ENOTFOUND) {
    return Status(Code::kObjectsMissing, what + ": " + LastGitError());
  }
  return Status(Code::kInternal, what + ": " + LastGitError());
}

Result<TreePtr> LookupTree(git_repository* repo, const git_oid& id) {
  git_tree* tree = nullptr;
  int rc = git_tree_lookup(&tree, repo, &id);
  if (rc != 0) {
    return FromGitError(rc, "tree " + OidHex(id)).WithDetail("object", OidHex(id));
  }
  return TreePtr(tree);
}

// One side of a delta with its contents loaded.
struct LoadedSide {
  FileSide side;
  BlobPtr blob;
  std::string synthetic;  // "Subproject commit <hex>\n" for gitlinks
};

Status LoadSide(git_repository* repo, const git_diff_file& file, uint32_t mode,
                std::string_view path, LoadedSide* loaded) {
  loaded->side.mode = mode;
  if (mode == 0) return Status::Ok();
  loaded->side.oid = file.id;
  if (mode == kModeGitlink) {
    loaded->synthetic = "Subproject commit " + OidHex(file.id) + "\n";
    loaded->side.content = loaded->synthetic;
    return Status::Ok();
  }
  git_blob* blob = nullptr;
  int rc = git_blob_lookup(&blob, repo, &file.id);
  if (rc != 0) {
    return FromGitError(rc, "blob " + OidHex(file.id) + " at " + std::string(path))
        .WithDetail("object", OidHex(file.id))
        .WithDetail("path", std::string(path));
  }
  loaded->blob.reset(blob);
  loaded->side.blob = blob;
  loaded->side.content = std::string_view(static_cast<const char*>(git_blob_rawcontent(blob)),
                                          static_cast<size_t>(git_blob_rawsize(blob)));
  return Status::Ok();
}

}  // namespace

Result<DerivedPatch> DerivePatch(git_repository* repo, const git_oid& base_tree,
                                 const git_oid& candidate_tree, const PatchOptions& options) {
  GENTLE_ASSIGN_OR_RETURN(TreePtr old_tree, LookupTree(repo, base_tree));
  GENTLE_ASSIGN_OR_RETURN(TreePtr new_tree, LookupTree(repo, candidate_tree));

  git_diff_options diff_options;
  git_diff_options_init(&diff_options, GIT_DIFF_OPTIONS_VERSION);
  // Type changes come back as one delta so the manifest can say 'T'; the patch splits them into a
  // deletion and an addition as git does. Content is never inspected by the tree diff.
  diff_options.flags = GIT_DIFF_NORMAL | GIT_DIFF_INCLUDE_TYPECHANGE | GIT_DIFF_SKIP_BINARY_CHECK;
  diff_options.ignore_submodules = GIT_SUBMODULE_IGNORE_NONE;
  diff_options.context_lines = 3;
  diff_options.interhunk_lines = 0;
  git_diff* raw_diff = nullptr;
  int rc = git_diff_tree_to_tree(&raw_diff, repo, old_tree.get(), new_tree.get(), &diff_options);
  if (rc != 0) return FromGitError(rc, "tree diff");
  DiffPtr diff(raw_diff);

  DerivedPatch patch;
  patch.engine = "native";
  const size_t count = git_diff_num_deltas(diff.get());
  for (size_t i = 0; i < count; ++i) {
    const git_diff_delta* delta = git_diff_get_delta(diff.get(), i);
    const std::string_view path =
        delta->new_file.path != nullptr ? delta->new_file.path : delta->old_file.path;
    uint32_t old_mode = 0;
    uint32_t new_mode = 0;
    char status;
    switch (delta->status) {
      case GIT_DELTA_ADDED:
        new_mode = CanonicalMode(delta->new_file.mode);
        status = 'A';
        break;
      case GIT_DELTA_DELETED:
        old_mode = CanonicalMode(delta->old_file.mode);
        status = 'D';
        break;
      case GIT_DELTA_MODIFIED:
        old_mode = CanonicalMode(delta->old_file.mode);
        new_mode = CanonicalMode(delta->new_file.mode);
        status = 'M';
        // Raw modes such as 100664 differ from 100644 only until canonicalised, as git reads them.
        if (old_mode == new_mode && git_oid_equal(&delta->old_file.id, &delta->new_file.id)) {
          continue;
        }
        break;
      case GIT_DELTA_TYPECHANGE:
        old_mode = CanonicalMode(delta->old_file.mode);
        new_mode = CanonicalMode(delta->new_file.mode);
        status = 'T';
        break;
      default:
        return Status(Code::kInternal, "unexpected tree diff status for " + std::string(path));
    }

    LoadedSide old_side;
    LoadedSide new_side;
    GENTLE_RETURN_IF_ERROR(LoadSide(repo, delta->old_file, old_mode, path, &old_side));
    GENTLE_RETURN_IF_ERROR(LoadSide(repo, delta->new_file, new_mode, path, &new_side));

    patch.manifest.push_back(ManifestEntry{
        std::string(path), status, ModeString(old_mode), ModeString(new_mode),
        old_mode != 0 ? OidHex(delta->old_file.id) : std::string(GIT_OID_HEXSZ, '0'),
        new_mode != 0 ? OidHex(delta->new_file.id) : std::string(GIT_OID_HEXSZ, '0')});
    if (status == 'T') {
      // git prints a type change as the old path deleted, then the new one added.
      const FileSide absent;
      GENTLE_RETURN_IF_ERROR(
          AppendFileSection(path, old_side.side, absent, options.max_bytes, &patch.bytes));
      GENTLE_RETURN_IF_ERROR(
          AppendFileSection(path, absent, new_side.side, options.max_bytes, &patch.bytes));
    } else {
      GENTLE_RETURN_IF_ERROR(
          AppendFileSection(path, old_side.side, new_side.side, options.max_bytes, &patch.bytes));
    }
  }
  return patch;
}

}  // namespace gentle::exporter
