// FuzzPostedComment: see fuzz/entries.h. A comment ParseComment accepts must be the comment
// RenderComment writes for the parsed fields (the final newline may be missing, as forges trim
// it; CRLF line ends read as LF, as forges return them), and the parsed marker values must pass
// the marker rule again.
#include "export/posted_comment.h"
#include "fuzz/entries.h"

namespace gentle::fuzz {

std::string FuzzPostedComment(std::string_view data) {
  auto parsed = exporter::ParseComment(data);
  if (!parsed.ok()) {
    return parsed.status().code() == Code::kUsage ? "" : "a refused comment is not usage";
  }
  if (parsed->model && !exporter::CheckMarkerValue("model", *parsed->model).ok()) {
    return "accepted a model the marker rule refuses";
  }
  if (parsed->session && !exporter::CheckMarkerValue("session", *parsed->session).ok()) {
    return "accepted a session the marker rule refuses";
  }
  auto rendered = exporter::RenderComment(*parsed);
  if (!rendered.ok()) return "an accepted comment does not render back";
  const std::string lf = exporter::WithLfLineEnds(data);
  if (*rendered != lf && *rendered != lf + "\n") {
    return "an accepted comment is not the comment its fields render to";
  }
  auto again = exporter::ParseComment(*rendered);
  if (!again.ok() || again->body != parsed->body || again->verdict != parsed->verdict ||
      again->revision != parsed->revision || again->round != parsed->round) {
    return "a rendered comment does not parse back to the same fields";
  }
  return "";
}

}  // namespace gentle::fuzz
