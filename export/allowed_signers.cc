#include "export/allowed_signers.h"

#include <fnmatch.h>
#include <time.h>

#include <algorithm>
#include <optional>
#include <vector>

#include "export/base64.h"
#include "store/name_table.h"

namespace gentle::exporter {
namespace {

struct SignerLine {
  std::string principals;
  bool cert_authority = false;
  std::optional<std::string> namespaces;
  std::optional<int64_t> valid_after, valid_before;
  std::string public_key;  // wire-format blob
  std::string comment;     // the rest of the line after the key, trimmed
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The next whitespace-delimited token (double quotes keep whitespace inside), quotes kept.
std::string_view NextToken(std::string_view line, size_t* pos) {
  while (*pos < line.size() && IsSpace(line[*pos])) ++*pos;
  const size_t begin = *pos;
  bool quoted = false;
  while (*pos < line.size() && (quoted || !IsSpace(line[*pos]))) {
    if (line[*pos] == '"') quoted = !quoted;
    ++*pos;
  }
  return line.substr(begin, *pos - begin);
}

std::string Unquoted(std::string_view value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
    value = value.substr(1, value.size() - 2);
  }
  return std::string(value);
}

// YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z]; nullopt otherwise.
std::optional<int64_t> ParseSshTime(std::string value) {
  const bool utc = !value.empty() && (value.back() == 'Z' || value.back() == 'z');
  if (utc) value.pop_back();
  if (value.size() != 8 && value.size() != 12 && value.size() != 14) return std::nullopt;
  for (char c : value) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  auto field = [&](size_t at, size_t n) { return std::stoi(value.substr(at, n)); };
  struct tm tm = {};
  tm.tm_year = field(0, 4) - 1900;
  tm.tm_mon = field(4, 2) - 1;
  tm.tm_mday = field(6, 2);
  if (value.size() >= 12) {
    tm.tm_hour = field(8, 2);
    tm.tm_min = field(10, 2);
  }
  if (value.size() == 14) tm.tm_sec = field(12, 2);
  tm.tm_isdst = -1;
  const time_t t = utc ? timegm(&tm) : mktime(&tm);
  if (t == static_cast<time_t>(-1)) return std::nullopt;
  return static_cast<int64_t>(t);
}

// Splits the options token at commas outside quotes.
std::vector<std::string> SplitOptions(std::string_view options) {
  std::vector<std::string> out;
  std::string current;
  bool quoted = false;
  for (char c : options) {
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      out.push_back(std::move(current));
      current.clear();
    } else {
      current.push_back(c);
    }
  }
  out.push_back(std::move(current));
  return out;
}

// The wire blob of `type` + `base64`, or nullopt when the key text is not one.
std::optional<std::string> KeyBlob(std::string_view type, std::string_view base64) {
  std::optional<std::string> blob = DecodeCanonicalBase64(base64);
  if (!blob || blob->size() < 4 + type.size()) return std::nullopt;
  uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>((*blob)[i]);
  if (n != type.size() || blob->compare(4, n, type) != 0) return std::nullopt;
  return blob;
}

std::optional<SignerLine> ParseLine(std::string_view line) {
  size_t pos = 0;
  SignerLine out;
  const std::string_view principals = NextToken(line, &pos);
  if (principals.empty() || principals.front() == '#') return std::nullopt;
  out.principals = Unquoted(principals);
  std::string_view first = NextToken(line, &pos);
  std::string_view second = NextToken(line, &pos);
  std::optional<std::string> blob = KeyBlob(first, second);
  if (!blob) {
    for (const std::string& option : SplitOptions(first)) {
      const size_t eq = option.find('=');
      const std::string name = option.substr(0, eq);
      const std::string value = eq == std::string::npos ? "" : Unquoted(option.substr(eq + 1));
      if (name == "cert-authority") out.cert_authority = true;
      if (name == "namespaces") out.namespaces = value;
      if (name == "valid-after") out.valid_after = ParseSshTime(value);
      if (name == "valid-before") out.valid_before = ParseSshTime(value);
    }
    first = second;
    second = NextToken(line, &pos);
    blob = KeyBlob(first, second);
    if (!blob) return std::nullopt;
  }
  out.public_key = std::move(*blob);
  const size_t comment = line.find_first_not_of(" \t\r", pos);
  if (comment != std::string_view::npos) {
    const size_t last = line.find_last_not_of(" \t\r");
    out.comment = std::string(line.substr(comment, last - comment + 1));
  }
  return out;
}

// Calls `visit` with every line of the file that parses, and its 1-based number.
template <typename Visit>
void ForEachNumberedLine(std::string_view allowed_signers, Visit visit) {
  size_t pos = 0;
  size_t number = 0;
  while (pos <= allowed_signers.size()) {
    size_t end = allowed_signers.find('\n', pos);
    if (end == std::string_view::npos) end = allowed_signers.size();
    const std::optional<SignerLine> line = ParseLine(allowed_signers.substr(pos, end - pos));
    pos = end + 1;
    ++number;
    if (line) visit(*line, number);
  }
}

template <typename Visit>
void ForEachLine(std::string_view allowed_signers, Visit visit) {
  ForEachNumberedLine(allowed_signers, [&](const SignerLine& line, size_t) { visit(line); });
}

std::vector<std::string> SplitPrincipals(const std::string& principals) {
  std::vector<std::string> out;
  for (std::string& p : SplitOptions(principals)) {
    if (!p.empty()) out.push_back(std::move(p));
  }
  return out;
}

// "a@b" from "a@b" or "<a@b>"; "" when the token holds no '@' between other characters.
std::string EmailOf(std::string token) {
  if (token.size() >= 2 && token.front() == '<' && token.back() == '>') {
    token = token.substr(1, token.size() - 2);
  }
  const size_t at = token.find('@');
  if (at == std::string::npos || at == 0 || at + 1 == token.size() ||
      token.find_first_of("<>\" \t", 0) != std::string::npos) {
    return "";
  }
  return token;
}

// ssh's match_pattern_list: false when a negated pattern matches or none matches.
bool NamespaceAllowed(const std::string& patterns, std::string_view name_space) {
  const std::string name(name_space);
  bool allowed = false;
  for (const std::string& pattern : SplitOptions(patterns)) {
    const bool negated = !pattern.empty() && pattern.front() == '!';
    const std::string p = negated ? pattern.substr(1) : pattern;
    if (fnmatch(p.c_str(), name.c_str(), 0) == 0) {
      if (negated) return false;
      allowed = true;
    }
  }
  return allowed;
}

}  // namespace

namespace {
constexpr store::NameTable kSignerRefusalNames = store::MakeNameTable<SignerRefusal>({
    {SignerRefusal::kUnknownKey, "unknown_key"},
    {SignerRefusal::kWrongNamespace, "wrong_namespace"},
    {SignerRefusal::kExpired, "expired"},
    {SignerRefusal::kNotYetValid, "not_yet_valid"},
    {SignerRefusal::kNotAllowed, "not_allowed"},
});
}  // namespace

std::string_view SignerRefusalName(SignerRefusal refusal) {
  return kSignerRefusalNames.Name(refusal);
}

SignerDiagnosis DiagnoseSignerRefusal(std::string_view allowed_signers, std::string_view public_key,
                                      int64_t time, std::string_view name_space) {
  std::optional<SignerDiagnosis> wrong_namespace, expired, not_yet_valid, allowed;
  ForEachLine(allowed_signers, [&](const SignerLine& entry) {
    const SignerLine* line = &entry;
    if (line->cert_authority || line->public_key != public_key) return;
    const SignerDiagnosis found{SignerRefusal::kNotAllowed, line->principals};
    const bool too_late = line->valid_before && time > *line->valid_before;
    const bool too_early = line->valid_after && time < *line->valid_after;
    if (too_late && !expired) expired = SignerDiagnosis{SignerRefusal::kExpired, found.principal};
    if (too_early && !not_yet_valid) {
      not_yet_valid = SignerDiagnosis{SignerRefusal::kNotYetValid, found.principal};
    }
    if (too_late || too_early) return;
    if (line->namespaces && !NamespaceAllowed(*line->namespaces, name_space)) {
      if (!wrong_namespace) {
        wrong_namespace = SignerDiagnosis{SignerRefusal::kWrongNamespace, found.principal};
      }
      return;
    }
    if (!allowed) allowed = found;
  });
  for (const auto* diagnosis : {&allowed, &wrong_namespace, &expired, &not_yet_valid}) {
    if (*diagnosis) return **diagnosis;
  }
  return SignerDiagnosis{};
}

std::vector<std::string> PrincipalsOfKey(std::string_view allowed_signers,
                                         std::string_view public_key) {
  std::vector<std::string> out;
  ForEachLine(allowed_signers, [&](const SignerLine& line) {
    if (line.cert_authority || line.public_key != public_key) return;
    for (std::string& principal : SplitPrincipals(line.principals)) {
      if (std::find(out.begin(), out.end(), principal) == out.end()) {
        out.push_back(std::move(principal));
      }
    }
  });
  return out;
}

std::vector<std::string> PrincipalEmails(std::string_view allowed_signers,
                                         std::string_view public_key,
                                         const std::string& principal) {
  std::vector<std::string> out;
  auto add = [&](const std::string& email) {
    if (!email.empty() && std::find(out.begin(), out.end(), email) == out.end()) {
      out.push_back(email);
    }
  };
  add(EmailOf(principal));
  ForEachLine(allowed_signers, [&](const SignerLine& line) {
    if (line.cert_authority || line.public_key != public_key) return;
    const std::vector<std::string> principals = SplitPrincipals(line.principals);
    if (std::find(principals.begin(), principals.end(), principal) == principals.end()) return;
    size_t pos = 0;
    while (pos < line.comment.size()) {
      std::string_view token = NextToken(line.comment, &pos);
      if (token.empty()) break;
      add(EmailOf(std::string(token)));
    }
  });
  return out;
}

std::vector<SignerEntry> SignerEntries(std::string_view allowed_signers) {
  std::vector<SignerEntry> out;
  ForEachNumberedLine(allowed_signers, [&](const SignerLine& line, size_t number) {
    SignerEntry entry;
    entry.line = number;
    entry.principals = SplitPrincipals(line.principals);
    entry.public_key = line.public_key;
    entry.cert_authority = line.cert_authority;
    size_t pos = 0;
    while (pos < line.comment.size()) {
      std::string_view token = NextToken(line.comment, &pos);
      if (token.empty()) break;
      std::string email = EmailOf(std::string(token));
      if (!email.empty()) entry.comment_emails.push_back(std::move(email));
    }
    out.push_back(std::move(entry));
  });
  return out;
}

std::optional<std::string> PublicKeyBlob(std::string_view text) {
  size_t pos = 0;
  const std::string_view type = NextToken(text, &pos);
  const std::string_view base64 = NextToken(text, &pos);
  size_t end = base64.size();
  while (end > 0 && base64[end - 1] == '\n') --end;
  return KeyBlob(type, base64.substr(0, end));
}

std::string SshTimestamp(int64_t time) {
  const time_t t = static_cast<time_t>(time);
  struct tm utc;
  gmtime_r(&t, &utc);
  char buffer[32];
  const size_t n = strftime(buffer, sizeof(buffer), "%Y%m%d%H%M%SZ", &utc);
  return std::string(buffer, n);
}

}  // namespace gentle::exporter
