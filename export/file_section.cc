#include "export/file_section.h"

#include <cstdio>
#include <cstring>

#include "export/binary_patch.h"
#include "export/funcname.h"
#include "export/output_pages.h"
#include "export/path_quote.h"

namespace gentle::exporter {
namespace {

constexpr uint32_t kModeGitlink = 0160000;

void AppendMode(uint32_t mode, std::string* out) { out->append(ModeOctal(mode)); }

void AppendOid(const git_oid& oid, std::string* out) {
  char hex[GIT_OID_HEXSZ];
  git_oid_fmt(hex, &oid);
  out->append(hex, GIT_OID_HEXSZ);
}

void AppendNumber(long long value, std::string* out) {
  char buf[24];
  int n = std::snprintf(buf, sizeof(buf), "%lld", value);
  out->append(buf, static_cast<size_t>(n));
}

// State shared with libgit2's hunk and line callbacks for one text section.
struct TextWriter {
  std::string_view path;
  bool old_present;
  bool new_present;
  bool path_has_space;
  size_t max_bytes;
  std::string* out;
  FuncnameTracker funcname;
  PagesAhead pages;
  bool headers_written = false;
  bool over_budget = false;

  void WriteFileHeaders() {
    headers_written = true;
    out->append("--- ");
    if (old_present) {
      AppendQuotedPath("a/", path, out);
      if (path_has_space) out->push_back('\t');
    } else {
      out->append("/dev/null");
    }
    out->append("\n+++ ");
    if (new_present) {
      AppendQuotedPath("b/", path, out);
      if (path_has_space) out->push_back('\t');
    } else {
      out->append("/dev/null");
    }
    out->push_back('\n');
  }

  static void AppendRange(int start, int lines, std::string* out) {
    AppendNumber(start, out);
    if (lines != 1) {
      out->push_back(',');
      AppendNumber(lines, out);
    }
  }

  int OnHunk(const git_diff_hunk& hunk) {
    if (!headers_written) WriteFileHeaders();
    out->append("@@ -");
    AppendRange(hunk.old_start, hunk.old_lines, out);
    out->append(" +");
    AppendRange(hunk.new_start, hunk.new_lines, out);
    out->append(" @@");
    // libgit2 reports the printed start, which is one less than the first line when it is empty.
    int64_t first_old_line = hunk.old_lines > 0 ? hunk.old_start - 1 : hunk.old_start;
    std::string_view func = funcname.NextHunk(first_old_line);
    if (!func.empty()) {
      out->push_back(' ');
      out->append(func);
    }
    out->push_back('\n');
    return CheckBudget();
  }

  int OnLine(const git_diff_line& line) {
    if (line.origin != GIT_DIFF_LINE_CONTEXT && line.origin != GIT_DIFF_LINE_ADDITION &&
        line.origin != GIT_DIFF_LINE_DELETION) {
      return 0;  // end-of-file newline markers are derived from the content below
    }
    pages.BeforeAppend(1 + line.content_len);
    out->push_back(line.origin);
    out->append(line.content, line.content_len);
    if (line.content_len == 0 || line.content[line.content_len - 1] != '\n') {
      out->append("\n\\ No newline at end of file\n");
    }
    return CheckBudget();
  }

  int CheckBudget() {
    if (out->size() > max_bytes) {
      over_budget = true;
      return 1;
    }
    return 0;
  }
};

int HunkCallback(const git_diff_delta*, const git_diff_hunk* hunk, void* payload) {
  return static_cast<TextWriter*>(payload)->OnHunk(*hunk);
}

int LineCallback(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line,
                 void* payload) {
  return static_cast<TextWriter*>(payload)->OnLine(*line);
}

Status AppendTextHunks(std::string_view path, const FileSide& old_side, const FileSide& new_side,
                       size_t max_bytes, std::string* out) {
  git_diff_options options;
  git_diff_options_init(&options, GIT_DIFF_OPTIONS_VERSION);
  options.flags = GIT_DIFF_FORCE_TEXT;  // binary detection is git's, done by the caller
  options.context_lines = 3;
  options.interhunk_lines = 0;
  TextWriter writer{path,
                    old_side.mode != 0,
                    new_side.mode != 0,
                    path.find(' ') != std::string_view::npos,
                    max_bytes,
                    out,
                    FuncnameTracker(old_side.content),
                    PagesAhead(out)};
  int rc;
  if ((old_side.mode == 0 || old_side.blob != nullptr) &&
      (new_side.mode == 0 || new_side.blob != nullptr)) {
    // Blobs carry their ids, so libgit2 does not rehash the contents. An empty path (not none,
    // which libgit2 replaces with "file") gives the pair libgit2's automatic diff driver without
    // looking attributes up: the text around the hunks is ours, so a driver could change nothing
    // but the cost (2 attribute lookups, 37K instructions, per file).
    rc = git_diff_blobs(old_side.blob, "", new_side.blob, "", &options, nullptr, nullptr,
                        HunkCallback, LineCallback, &writer);
  } else {
    rc = git_diff_buffers(old_side.content.data(), old_side.content.size(), nullptr,
                          new_side.content.data(), new_side.content.size(), nullptr, &options,
                          nullptr, nullptr, HunkCallback, LineCallback, &writer);
  }
  if (writer.over_budget) return BudgetExceeded(max_bytes);
  if (rc != 0) {
    const git_error* e = git_error_last();
    return Status(Code::kInternal, std::string("libgit2 diff failed: ") +
                                       (e != nullptr ? e->message : "unknown error"));
  }
  return Status::Ok();
}

}  // namespace

Status BudgetExceeded(size_t max_bytes) {
  return Status(Code::kBudgetExceeded,
                "derived patch exceeds the budget of " + std::to_string(max_bytes) + " bytes");
}

std::string ModeOctal(uint32_t mode) {
  char buf[16];
  const int n = std::snprintf(buf, sizeof(buf), "%06o", mode);
  return std::string(buf, static_cast<size_t>(n));
}

bool LooksBinary(std::string_view content) {
  if (content.size() > kBigFileThreshold) return true;
  size_t n = content.size() < kFirstFewBytes ? content.size() : kFirstFewBytes;
  return n > 0 && std::memchr(content.data(), '\0', n) != nullptr;
}

void AppendSectionHeader(std::string_view path, const FileSide& old_side, const FileSide& new_side,
                         std::string* out) {
  out->append("diff --git ");
  AppendQuotedPath("a/", path, out);
  out->push_back(' ');
  AppendQuotedPath("b/", path, out);
  out->push_back('\n');
  if (old_side.mode == 0) {
    out->append("new file mode ");
    AppendMode(new_side.mode, out);
    out->push_back('\n');
  } else if (new_side.mode == 0) {
    out->append("deleted file mode ");
    AppendMode(old_side.mode, out);
    out->push_back('\n');
  } else if (old_side.mode != new_side.mode) {
    out->append("old mode ");
    AppendMode(old_side.mode, out);
    out->append("\nnew mode ");
    AppendMode(new_side.mode, out);
    out->push_back('\n');
  }
  if (git_oid_equal(&old_side.oid, &new_side.oid) == 0) {
    out->append("index ");
    AppendOid(old_side.oid, out);
    out->append("..");
    AppendOid(new_side.oid, out);
    if (old_side.mode != 0 && old_side.mode == new_side.mode) {
      out->push_back(' ');
      AppendMode(old_side.mode, out);
    }
    out->push_back('\n');
  }
}

Status AppendFileSection(std::string_view path, const FileSide& old_side, const FileSide& new_side,
                         size_t max_bytes, std::string* out) {
  AppendSectionHeader(path, old_side, new_side, out);
  if (out->size() > max_bytes) return BudgetExceeded(max_bytes);
  if (git_oid_equal(&old_side.oid, &new_side.oid) != 0) return Status::Ok();

  const bool gitlink = old_side.mode == kModeGitlink || new_side.mode == kModeGitlink;
  if (!gitlink && (LooksBinary(old_side.content) || LooksBinary(new_side.content))) {
    GENTLE_RETURN_IF_ERROR(AppendBinaryPatch(old_side.content, new_side.content, out, max_bytes));
    if (out->size() > max_bytes) return BudgetExceeded(max_bytes);
    return Status::Ok();
  }
  return AppendTextHunks(path, old_side, new_side, max_bytes, out);
}

}  // namespace gentle::exporter
