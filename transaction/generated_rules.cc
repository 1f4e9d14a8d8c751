#include "transaction/generated_rules.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace gentle::transaction {
namespace {

constexpr std::string_view kAttribute = "linguist-generated";
constexpr std::string_view kBlank = " \t\r\n";
constexpr size_t kMaxLineBytes = 2048;  // git ignores a line this long or longer

bool ValidAttrName(std::string_view name) {
  if (name.empty() || name[0] == '-') return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return c == '-' || c == '.' || c == '_' || std::isalnum(static_cast<unsigned char>(c));
  });
}

// git's unquote_c_style of a pattern starting with '"': the unquoted text and the rest of the
// line after the closing quote, or false when it does not unquote.
bool UnquoteC(std::string_view in, std::string* out, std::string_view* rest) {
  size_t i = 1;
  out->clear();
  while (i < in.size()) {
    const char c = in[i++];
    if (c == '"') {
      *rest = in.substr(i);
      return true;
    }
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i >= in.size()) return false;
    const char e = in[i++];
    switch (e) {
      case 'a':
        out->push_back('\a');
        break;
      case 'b':
        out->push_back('\b');
        break;
      case 'f':
        out->push_back('\f');
        break;
      case 'n':
        out->push_back('\n');
        break;
      case 'r':
        out->push_back('\r');
        break;
      case 't':
        out->push_back('\t');
        break;
      case 'v':
        out->push_back('\v');
        break;
      case '\\':
        out->push_back('\\');
        break;
      case '"':
        out->push_back('"');
        break;
      default:
        if (e >= '0' && e <= '3' && i + 1 < in.size() && in[i] >= '0' && in[i] <= '7' &&
            in[i + 1] >= '0' && in[i + 1] <= '7') {
          out->push_back(
              static_cast<char>(((e - '0') << 6) | ((in[i] - '0') << 3) | (in[i + 1] - '0')));
          i += 2;
          break;
        }
        return false;
    }
  }
  return false;
}

// One line's rule for the attribute, when the line is a pattern line that names it.
bool ParseLine(std::string_view line, AttrRule* rule) {
  if (line.size() >= kMaxLineBytes) return false;
  const size_t start = line.find_first_not_of(kBlank);
  if (start == std::string_view::npos || line[start] == '#') return false;
  line.remove_prefix(start);
  std::string pattern;
  std::string_view states;
  if (line[0] != '"' || !UnquoteC(line, &pattern, &states)) {
    const size_t end = std::min(line.find_first_of(kBlank), line.size());
    pattern = std::string(line.substr(0, end));
    states = line.substr(end);
  }
  if (pattern.size() > 6 && pattern.compare(0, 6, "[attr]") == 0) return false;  // a macro
  if (!pattern.empty() && pattern[0] == '!') return false;  // negative: git ignores the line
  bool found = false;
  AttrState state = AttrState::kUnspecified;
  while (true) {
    const size_t at = states.find_first_not_of(kBlank);
    if (at == std::string_view::npos) break;
    states.remove_prefix(at);
    const size_t end = std::min(states.find_first_of(kBlank), states.size());
    std::string_view token = states.substr(0, end);
    states.remove_prefix(end);
    AttrState token_state = AttrState::kSet;
    if (token[0] == '-' || token[0] == '!') {
      token_state = token[0] == '-' ? AttrState::kUnset : AttrState::kUnspecified;
      token.remove_prefix(1);
    }
    std::string_view name = token;
    const size_t eq = token.find('=');
    if (eq != std::string_view::npos) {
      if (token_state != AttrState::kSet) return false;  // git refuses "-a=b" and "!a=b"
      name = token.substr(0, eq);
      token_state = token.substr(eq + 1) == "false" ? AttrState::kUnset : AttrState::kSet;
    }
    if (!ValidAttrName(name)) return false;  // git ignores the whole line
    if (name == kAttribute) {
      found = true;
      state = token_state;  // the line's last mention wins
    }
  }
  if (!found) return false;
  bool must_be_dir = false;
  if (!pattern.empty() && pattern.back() == '/') {
    pattern.pop_back();
    must_be_dir = true;
  }
  if (must_be_dir || pattern.empty()) return false;  // names a directory: matches no entry
  rule->anchored = pattern.find('/') != std::string::npos;
  if (pattern[0] == '/') pattern.erase(0, 1);
  rule->pattern = std::move(pattern);
  rule->state = state;
  return true;
}

bool KnownClass(std::string_view cls) {
  for (std::string_view known : {"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower",
                                 "print", "punct", "space", "upper", "xdigit"}) {
    if (cls == known) return true;
  }
  return false;
}

bool InClass(std::string_view cls, unsigned char c) {
  auto is = [&](std::string_view name) { return cls == name; };
  if (is("alnum")) return std::isalnum(c);
  if (is("alpha")) return std::isalpha(c);
  if (is("blank")) return c == ' ' || c == '\t';
  if (is("cntrl")) return std::iscntrl(c);
  if (is("digit")) return std::isdigit(c);
  if (is("graph")) return std::isgraph(c);
  if (is("lower")) return std::islower(c);
  if (is("print")) return std::isprint(c);
  if (is("punct")) return std::ispunct(c);
  if (is("space")) return std::isspace(c);
  if (is("upper")) return std::isupper(c);
  if (is("xdigit")) return std::isxdigit(c);
  return false;
}

enum class Wild { kMatch, kNoMatch, kAbortAll, kAbortToStarStar };

// git's dowild (wildmatch.c) over NUL-terminated text, case-sensitive; `begin` is the pattern's
// first character.
Wild DoWild(const unsigned char* begin, const unsigned char* p, const unsigned char* text,
            bool pathname) {
  unsigned char p_ch;
  for (; (p_ch = *p) != '\0'; text++, p++) {
    unsigned char t_ch = *text;
    if (t_ch == '\0' && p_ch != '*') return Wild::kAbortAll;
    switch (p_ch) {
      case '\\':
        p_ch = *++p;
        if (t_ch != p_ch) return Wild::kNoMatch;
        continue;
      case '?':
        if (pathname && t_ch == '/') return Wild::kNoMatch;
        continue;
      case '*': {
        bool match_slash;
        if (*++p == '*') {
          const unsigned char* prev_p = p - 2;
          while (*++p == '*') {
          }
          if ((prev_p < begin || *prev_p == '/') &&
              (*p == '\0' || *p == '/' || (p[0] == '\\' && p[1] == '/'))) {
            if (p[0] == '/' && DoWild(begin, p + 1, text, pathname) == Wild::kMatch) {
              return Wild::kMatch;
            }
            match_slash = true;
          } else {
            match_slash = !pathname;
          }
        } else {
          match_slash = !pathname;
        }
        if (*p == '\0') {
          if (!match_slash && std::strchr(reinterpret_cast<const char*>(text), '/') != nullptr) {
            return Wild::kAbortToStarStar;
          }
          return Wild::kMatch;
        } else if (!match_slash && *p == '/') {
          const char* slash = std::strchr(reinterpret_cast<const char*>(text), '/');
          if (slash == nullptr) return Wild::kAbortAll;
          text = reinterpret_cast<const unsigned char*>(slash);
          break;  // the slash is consumed by the loop
        }
        while (true) {
          if (t_ch == '\0') break;
          const Wild matched = DoWild(begin, p, text, pathname);
          if (matched != Wild::kNoMatch) {
            if (!match_slash || matched != Wild::kAbortToStarStar) return matched;
          } else if (!match_slash && t_ch == '/') {
            return Wild::kAbortToStarStar;
          }
          t_ch = *++text;
        }
        return Wild::kAbortAll;
      }
      case '[': {
        p_ch = *++p;
        if (p_ch == '^') p_ch = '!';
        const bool negated = p_ch == '!';
        if (negated) p_ch = *++p;
        unsigned char prev_ch = 0;
        bool matched = false;
        do {
          if (p_ch == '\0') return Wild::kAbortAll;
          if (p_ch == '\\') {
            p_ch = *++p;
            if (p_ch == '\0') return Wild::kAbortAll;
            if (t_ch == p_ch) matched = true;
          } else if (p_ch == '-' && prev_ch != 0 && p[1] != '\0' && p[1] != ']') {
            p_ch = *++p;
            if (p_ch == '\\') {
              p_ch = *++p;
              if (p_ch == '\0') return Wild::kAbortAll;
            }
            if (t_ch <= p_ch && t_ch >= prev_ch) matched = true;
            p_ch = 0;
          } else if (p_ch == '[' && p[1] == ':') {
            const unsigned char* s = p += 2;
            for (; (p_ch = *p) != '\0' && p_ch != ']'; p++) {
            }
            if (p_ch == '\0') return Wild::kAbortAll;
            const long i = p - s - 1;
            if (i < 0 || p[-1] != ':') {
              p = s - 2;  // not a class: '[' as a member
              p_ch = '[';
              if (t_ch == p_ch) matched = true;
              continue;
            }
            const std::string_view name(reinterpret_cast<const char*>(s), static_cast<size_t>(i));
            if (!KnownClass(name)) return Wild::kAbortAll;
            if (InClass(name, t_ch)) matched = true;
            p_ch = 0;
          } else if (t_ch == p_ch) {
            matched = true;
          }
        } while (prev_ch = p_ch, (p_ch = *++p) != ']');
        if (matched == negated || (pathname && t_ch == '/')) return Wild::kNoMatch;
        continue;
      }
      default:
        if (t_ch != p_ch) return Wild::kNoMatch;
        continue;
    }
  }
  return *text != '\0' ? Wild::kNoMatch : Wild::kMatch;
}

bool Matches(const AttrFile& file, const AttrRule& rule, std::string_view path) {
  if (path.size() <= file.dir.size() || path.compare(0, file.dir.size(), file.dir) != 0) {
    return false;
  }
  std::string_view name = path.substr(file.dir.size());
  if (!rule.anchored) {
    const size_t slash = name.rfind('/');
    if (slash != std::string_view::npos) name.remove_prefix(slash + 1);
  }
  return WildMatch(rule.pattern, name, rule.anchored);
}

}  // namespace

AttrFile ParseAttrFile(std::string dir, std::string_view text) {
  AttrFile file;
  file.dir = std::move(dir);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  while (!text.empty()) {
    const size_t end = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, end);
    text.remove_prefix(std::min(end + 1, text.size()));
    line = line.substr(0, std::min(line.find('\0'), line.size()));  // git reads up to a NUL
    AttrRule rule;
    if (ParseLine(line, &rule)) file.rules.push_back(std::move(rule));
  }
  return file;
}

bool WildMatch(std::string_view pattern, std::string_view text, bool pathname) {
  const std::string p(pattern);
  const std::string t(text);
  const auto* begin = reinterpret_cast<const unsigned char*>(p.c_str());
  return DoWild(begin, begin, reinterpret_cast<const unsigned char*>(t.c_str()), pathname) ==
         Wild::kMatch;
}

AttrState AttributeState(const std::vector<const AttrFile*>& files, std::string_view path) {
  for (auto file = files.rbegin(); file != files.rend(); ++file) {
    for (auto rule = (*file)->rules.rbegin(); rule != (*file)->rules.rend(); ++rule) {
      if (Matches(**file, *rule, path)) return rule->state;
    }
  }
  return AttrState::kUnspecified;
}

bool InDefaultList(std::string_view path) {
  const size_t slash = path.rfind('/');
  const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view n : kDefaultGeneratedNames) {
    if (name == n) return true;
  }
  for (std::string_view suffix : kDefaultGeneratedSuffixes) {
    if (name.size() >= suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return true;
    }
  }
  return false;
}

bool IsGenerated(const std::vector<const AttrFile*>& files, std::string_view path) {
  switch (AttributeState(files, path)) {
    case AttrState::kSet:
      return true;
    case AttrState::kUnset:
      return false;
    case AttrState::kUnspecified:
      break;
  }
  return InDefaultList(path);
}

}  // namespace gentle::transaction
