#include "export/posted_comment.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <limits>
#include <vector>

#include "store/go_json.h"
#include "store/lineage_id.h"
#include "store/name_table.h"

namespace gentle::exporter {
namespace {

constexpr std::string_view kCodeHeading = "## Code Review Summary\n\n";
constexpr std::string_view kDocsHeading = "## Docs Review Summary\n\n";
constexpr std::string_view kVerdictLine = "\n\n### Verdict: ";
constexpr std::string_view kMarkerOpen = "<!-- gentle-ai:review ";
// What makes a last line a marker to read (or to report unreadable).
constexpr std::string_view kMarkerStart = "<!-- gentle-ai:review";
constexpr std::string_view kMarkerClose = " -->";

// One code point of valid UTF-8 at `text[*i]`, advancing `*i`.
uint32_t NextCodePoint(std::string_view text, size_t* i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(*i);
  int extra = lead < 0x80 ? 0 : lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
  uint32_t cp = extra == 0 ? lead : lead & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (byte(*i + k) & 0x3F);
  *i += 1 + extra;
  return cp;
}

// Python's str.isspace(), what `\s` matches in a str pattern.
bool IsPythonSpace(uint32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || (cp >= 0x1C && cp <= 0x20) || cp == 0x85 || cp == 0xA0 ||
         cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 ||
         cp == 0x202F || cp == 0x205F || cp == 0x3000;
}

// `text` (valid UTF-8) as the pipeline's case-insensitive regexes see it: ASCII lowercased, the
// four non-ASCII letters Python's re.IGNORECASE matches to ASCII ones (U+0130, U+0131 -> i,
// U+017F -> s, U+212A -> k) folded, every Unicode space (\s) a ' ', anything else '\x01'.
std::string Lower(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const uint32_t cp = NextCodePoint(text, &i);
    if (cp < 0x80 && !IsPythonSpace(cp)) {
      out += static_cast<char>(std::tolower(static_cast<int>(cp)));
    } else if (IsPythonSpace(cp)) {
      out += ' ';
    } else if (cp == 0x130 || cp == 0x131) {
      out += 'i';
    } else if (cp == 0x17F) {
      out += 's';
    } else if (cp == 0x212A) {
      out += 'k';
    } else {
      out += '\x01';
    }
  }
  return out;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Whether `lower` (Lower's output) holds `###`, any whitespace, then `verdict:`:
// REVIEW_VERDICT_RE's `###\s*Verdict:`.
bool HoldsVerdictLine(const std::string& lower) {
  for (size_t at = lower.find("###"); at != std::string::npos; at = lower.find("###", at + 1)) {
    size_t i = at + 3;
    while (i < lower.size() && lower[i] == ' ') ++i;
    if (lower.compare(i, 8, "verdict:") == 0) return true;
  }
  return false;
}

Result<int64_t> ParseRound(std::string_view text) {
  if (text.empty() || text.size() > 18 || text[0] == '0' ||
      !std::all_of(text.begin(), text.end(), IsDigit)) {
    return Status(Code::kUsage,
                  "the marker's round must be a decimal number >= 1 without leading "
                  "zeros, got \"" +
                      std::string(text) + "\"");
  }
  int64_t round = 0;
  for (char c : text) round = round * 10 + (c - '0');
  return round;
}

bool IsRevision(std::string_view text) {
  constexpr std::string_view kPrefix = "sha256:";
  if (text.size() != kPrefix.size() + 64 || text.substr(0, kPrefix.size()) != kPrefix) return false;
  return std::all_of(text.begin() + kPrefix.size(), text.end(),
                     [](char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); });
}

// The marker's fields after `<!-- gentle-ai:review ` and before ` -->`.
Status ParseMarkerFields(std::string_view fields, PostedComment* out) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t space = fields.find(' ', start);
    parts.push_back(fields.substr(start, space == std::string_view::npos ? space : space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  auto value_of = [&](size_t i, std::string_view key) -> std::optional<std::string_view> {
    if (i >= parts.size()) return std::nullopt;
    const std::string prefix = std::string(key) + "=";
    if (parts[i].substr(0, prefix.size()) != prefix) return std::nullopt;
    return parts[i].substr(prefix.size());
  };
  auto lineage = value_of(0, "lineage");
  auto round = value_of(1, "round");
  auto revision = value_of(2, "revision");
  if (!lineage || !round || !revision) {
    return Status(Code::kUsage,
                  "the marker must start lineage=<id> round=<n> revision=<rev>, separated by one "
                  "space");
  }
  if (Status st = store::ValidateLineageId(*lineage); !st.ok()) {
    return Status(Code::kUsage, "the marker's lineage: " + st.message());
  }
  out->lineage = std::string(*lineage);
  GENTLE_ASSIGN_OR_RETURN(out->round, ParseRound(*round));
  if (!IsRevision(*revision)) {
    return Status(Code::kUsage, "the marker's revision must be sha256:<64 lowercase hex>, got \"" +
                                    std::string(*revision) + "\"");
  }
  out->revision = std::string(*revision);
  size_t i = 3;
  if (auto model = value_of(i, "model")) {
    GENTLE_RETURN_IF_ERROR(CheckMarkerValue("the marker's model", *model));
    out->model = std::string(*model);
    ++i;
  }
  if (auto session = value_of(i, "session")) {
    GENTLE_RETURN_IF_ERROR(CheckMarkerValue("the marker's session", *session));
    if (session->size() > kSessionMarkerBytes) {
      return Status(Code::kUsage, "the marker's session holds more than 8 bytes");
    }
    out->session = std::string(*session);
    ++i;
  }
  if (auto nonce = value_of(i, "nonce")) {
    GENTLE_RETURN_IF_ERROR(CheckNonce("the marker's nonce", *nonce));
    out->nonce = std::string(*nonce);
    ++i;
  }
  if (i != parts.size()) {
    return Status(Code::kUsage,
                  "the marker holds \"" + std::string(parts[i]) +
                      "\" where only model=<m>, then session=<s>, then nonce=<n> may follow");
  }
  return Status::Ok();
}

Status ParseMarkerLine(std::string_view marker, PostedComment* out) {
  if (marker.substr(0, kMarkerOpen.size()) != kMarkerOpen ||
      marker.size() < kMarkerOpen.size() + kMarkerClose.size() ||
      marker.substr(marker.size() - kMarkerClose.size()) != kMarkerClose) {
    return Status(Code::kUsage,
                  "the comment must end with the marker line \"<!-- gentle-ai:review ... -->\"");
  }
  return ParseMarkerFields(
      marker.substr(kMarkerOpen.size(), marker.size() - kMarkerOpen.size() - kMarkerClose.size()),
      out);
}

// The strict reading of `text` (LF line ends): the rendered shape exactly, or `usage`.
Result<PostedComment> ParseStrict(std::string_view text) {
  if (text.size() > kMaxCommentBytes) {
    return Status(Code::kUsage,
                  "the comment exceeds " + std::to_string(kMaxCommentBytes) + " bytes");
  }
  if (text.find('\0') != std::string_view::npos) {
    return Status(Code::kUsage, "the comment holds a NUL byte");
  }
  if (!store::IsValidUtf8(text)) return Status(Code::kUsage, "the comment is not valid UTF-8");
  PostedComment out;
  if (text.substr(0, kCodeHeading.size()) == kCodeHeading) {
    out.kind = CommentKind::kCode;
  } else if (text.substr(0, kDocsHeading.size()) == kDocsHeading) {
    out.kind = CommentKind::kDocs;
  } else {
    return Status(Code::kUsage,
                  "the comment must start with the line \"## Code Review Summary\" or \"## Docs "
                  "Review Summary\" and a blank line");
  }
  std::string_view rest = text.substr(kCodeHeading.size());  // both headings have one length
  if (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
  // The marker: the last line.
  const size_t marker_start = rest.rfind('\n');
  std::string_view marker =
      marker_start == std::string_view::npos ? rest : rest.substr(marker_start + 1);
  GENTLE_RETURN_IF_ERROR(ParseMarkerLine(marker, &out));
  // Before the marker: <body>\n\n### Verdict: <VERDICT>\n (the blank line's first newline).
  std::string_view framed =
      rest.substr(0, marker_start == std::string_view::npos ? 0 : marker_start);
  if (framed.empty() || framed.back() != '\n') {
    return Status(Code::kUsage, "a blank line must separate the verdict line from the marker");
  }
  framed.remove_suffix(1);
  const std::string body_and_line = "\n\n" + std::string(framed);  // an empty body: \n\n\n\n###
  const size_t line = body_and_line.rfind(kVerdictLine);
  if (line == std::string::npos || line < 2) {
    return Status(Code::kUsage,
                  "the comment must hold a blank line then \"### Verdict: <VERDICT>\" after the "
                  "body");
  }
  out.verdict = store::VerdictWord::FromText(body_and_line.substr(line + kVerdictLine.size()));
  const bool docs = out.kind == CommentKind::kDocs;
  if (docs ? !IsDocsVerdict(out.verdict.value()) : !IsCodeVerdict(out.verdict.value())) {
    return Status(Code::kUsage, "\"" + out.verdict.text() + "\" is not a verdict of a " +
                                    std::string(docs ? "docs review (APPROVE, FIXED or NO_CHANGES)"
                                                     : "code review (APPROVE, REQUEST_CHANGES or "
                                                       "NEEDS_DISCUSSION)"));
  }
  out.body = body_and_line.substr(2, line - 2);
  GENTLE_RETURN_IF_ERROR(CheckBody(out.kind, out.body));
  return out;
}

std::string_view LastLine(std::string_view text) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  const size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? text : text.substr(newline + 1);
}

// The word of the last `### Verdict: <VERDICT>` line, when it is a verdict.
std::optional<store::Verdict> LooseVerdict(std::string_view text) {
  std::optional<store::Verdict> found;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.substr(0, kVerdictLine.size() - 2) == kVerdictLine.substr(2)) {
      found = store::ParseVerdict(line.substr(kVerdictLine.size() - 2));
    }
    start = end + 1;
  }
  return found;
}

}  // namespace

namespace {
constexpr store::NameTable kCommentKindNames = store::MakeNameTable<CommentKind>({
    {CommentKind::kCode, "code"},
    {CommentKind::kDocs, "docs"},
});
}  // namespace

std::string_view CommentKindName(CommentKind kind) { return kCommentKindNames.Name(kind); }

Result<CommentKind> CommentKindFor(const store::RoleWord& role, const store::VerdictWord& verdict) {
  if (role.Is(store::ReviewerRole::kReviewer) && IsCodeVerdict(verdict.value())) {
    return CommentKind::kCode;
  }
  if (role.Is(store::ReviewerRole::kDocsReviewer) && IsDocsVerdict(verdict.value())) {
    return CommentKind::kDocs;
  }
  return Status(Code::kForbidden, "a " + verdict.text() + " verdict by role \"" + role.text() +
                                      "\" is not a review comment (reviewer: APPROVE, "
                                      "REQUEST_CHANGES or NEEDS_DISCUSSION; docs-reviewer: "
                                      "APPROVE, FIXED or NO_CHANGES)")
      .WithDetail(DetailKey::kRole, role.text());
}

Status CheckBody(CommentKind kind, std::string_view body) {
  if (body.size() > kMaxBodyBytes) {
    return Status(Code::kUsage,
                  "the verdict body exceeds " + std::to_string(kMaxBodyBytes) + " bytes (1 MiB)");
  }
  if (!store::IsValidUtf8(body)) {
    return Status(Code::kUsage, "the verdict body is not valid UTF-8, which no forge posts");
  }
  if (body.find('\0') != std::string_view::npos) {
    return Status(Code::kUsage, "the verdict body holds a NUL byte, which no forge posts");
  }
  if (body.find('\r') != std::string_view::npos) {
    return Status(Code::kUsage,
                  "the verdict body holds a carriage return: forges return line ends as CRLF, so "
                  "it could not be read back; use LF line ends");
  }
  const std::string lower = Lower(body);
  auto refuse = [](const std::string& why) {
    return Status(Code::kUsage, "the verdict body cannot be posted unambiguously: it holds " + why);
  };
  if (HoldsVerdictLine(lower)) return refuse("a \"### Verdict:\" line");
  if (lower.find("code review summary") != std::string::npos) {
    return refuse("\"Code Review Summary\"");
  }
  if (lower.find("gentle-ai:review") != std::string::npos) return refuse("\"gentle-ai:review\"");
  if (kind == CommentKind::kCode && lower.find("docs review") != std::string::npos) {
    return refuse("\"Docs Review\" (a docs review to the pipeline)");
  }
  return Status::Ok();
}

Status CheckPostable(const store::RoleWord& role, const store::VerdictWord& verdict,
                     std::string_view body) {
  GENTLE_ASSIGN_OR_RETURN(CommentKind kind, CommentKindFor(role, verdict));
  return CheckBody(kind, body);
}

std::string WithLfLineEnds(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n') continue;
    out += text[i];
  }
  return out;
}

Status CheckNonce(std::string_view flag, std::string_view value) {
  const bool hex = std::all_of(value.begin(), value.end(),
                               [](char c) { return IsDigit(c) || (c >= 'a' && c <= 'f'); });
  if (value.size() != kNonceHexBytes || !hex) {
    return Status(Code::kUsage, std::string(flag) + " must be " + std::to_string(kNonceHexBytes) +
                                    " lowercase hex digits");
  }
  return Status::Ok();
}

Status CheckMarkerValue(std::string_view flag, std::string_view value) {
  auto refuse = [&](const std::string& why) {
    return Status(Code::kUsage, std::string(flag) + " " + why);
  };
  if (value.empty()) return refuse("is empty");
  if (value.size() > kMaxMarkerValueBytes) return refuse("holds more than 64 bytes");
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '.') {
      if (i == 0 || i + 1 == value.size() || !IsDigit(value[i - 1]) || !IsDigit(value[i + 1])) {
        return refuse("may hold '.' only between two digits (no host names, file names or paths)");
      }
      continue;
    }
    const bool ok =
        std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':' || c == '+' || c == '-';
    if (!ok) {
      return refuse("may hold only A-Z a-z 0-9 _ : + - (and '.' between digits); byte " +
                    std::to_string(i) + " is not one");
    }
  }
  return Status::Ok();
}

Result<std::string> RenderComment(const PostedComment& c) {
  const bool docs = c.kind == CommentKind::kDocs;
  if (docs ? !IsDocsVerdict(c.verdict.value()) : !IsCodeVerdict(c.verdict.value())) {
    return Status(Code::kUsage, "\"" + c.verdict.text() + "\" is not a " +
                                    std::string(CommentKindName(c.kind)) + " review verdict");
  }
  GENTLE_RETURN_IF_ERROR(CheckBody(c.kind, c.body));
  std::string marker = std::string(kMarkerOpen) + "lineage=" + c.lineage +
                       " round=" + std::to_string(c.round) + " revision=" + c.revision;
  if (c.model) {
    GENTLE_RETURN_IF_ERROR(CheckMarkerValue("--model", *c.model));
    marker += " model=" + *c.model;
  }
  if (c.session) {
    GENTLE_RETURN_IF_ERROR(CheckMarkerValue("--session", *c.session));
    const std::string cut = c.session->substr(0, kSessionMarkerBytes);
    GENTLE_RETURN_IF_ERROR(CheckMarkerValue("--session's first 8 bytes", cut));
    marker += " session=" + cut;
  }
  if (c.nonce) {
    GENTLE_RETURN_IF_ERROR(CheckNonce("--nonce", *c.nonce));
    marker += " nonce=" + *c.nonce;
  }
  marker += kMarkerClose;
  std::string out(docs ? kDocsHeading : kCodeHeading);
  out += c.body;
  out += kVerdictLine;
  out += c.verdict.text();
  out += "\n\n";
  out += marker;
  out += "\n";
  return out;
}

CommentReading ReadComment(std::string_view raw) {
  CommentReading out;
  const std::string text = WithLfLineEnds(raw);
  auto strict = ParseStrict(text);
  if (strict.ok()) {
    out.comment = std::move(strict).value();
    out.has_marker = true;
    out.verdict = out.comment.verdict.value();
    return out;
  }
  out.strict = strict.status();
  const std::string_view line = LastLine(text);
  out.has_marker = line.substr(0, kMarkerStart.size()) == kMarkerStart;
  if (!out.has_marker) return out;
  out.marker = ParseMarkerLine(line, &out.comment);
  out.verdict = LooseVerdict(text);
  return out;
}

Result<PostedComment> ParseComment(std::string_view text) {
  CommentReading reading = ReadComment(text);
  if (!reading.strict.ok()) return reading.strict;
  return std::move(reading.comment);
}

}  // namespace gentle::exporter
