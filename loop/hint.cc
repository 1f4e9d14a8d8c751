#include "loop/hint.h"

#include <algorithm>

namespace gentle::loop {
namespace {

Status Refuse(const std::string& why) { return Status(Code::kUsage, "hint: " + why); }

bool IsReason(std::string_view r) { return kHintReasonNames.Parse(r).has_value(); }

bool IsSkill(std::string_view s) { return kHintSkillNames.Parse(s).has_value(); }

// The value of `name=value`, or false when `field` does not start with `name=`.
bool Value(std::string_view field, std::string_view name, std::string_view* value) {
  if (field.size() <= name.size() || field.substr(0, name.size()) != name ||
      field[name.size()] != '=') {
    return false;
  }
  *value = field.substr(name.size() + 1);
  return true;
}

int Digits(std::string_view s, size_t at, size_t n) {
  int v = 0;
  for (size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

}  // namespace

bool IsUtcSecondTimestamp(std::string_view t) {
  // 0123456789012345678
  // YYYY-MM-DDTHH:MM:SSZ
  if (t.size() != 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
      t[16] != ':' || t[19] != 'Z') {
    return false;
  }
  const int year = Digits(t, 0, 4), month = Digits(t, 5, 2), day = Digits(t, 8, 2);
  const int hour = Digits(t, 11, 2), minute = Digits(t, 14, 2), second = Digits(t, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 59) {
    return false;
  }
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  const int days = kDays[month - 1] + (month == 2 && leap ? 1 : 0);
  return day <= days;
}

Result<Hint> ParseHint(std::string_view line) {
  if (line.size() > kMaxHintBytes) {
    return Refuse("longer than " + std::to_string(kMaxHintBytes) + " bytes");
  }
  for (char c : line) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      return Refuse("a control character (newline, CR, tab...) is not allowed");
    }
    if (u >= 0x80) return Refuse("only ASCII is allowed");
  }
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t space = line.find(' ', start);
    fields.push_back(line.substr(
        start, space == std::string_view::npos ? std::string_view::npos : space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  if (std::any_of(fields.begin(), fields.end(), [](std::string_view f) { return f.empty(); })) {
    return Refuse("fields are separated by exactly one space, with none before or after");
  }
  if (fields.size() != 5) {
    return Refuse(
        "expected exactly: [pr-daemon] FORGE:OWNER/REPO#N reason=R[,R...] skill=land|review-pr "
        "updated=YYYY-MM-DDTHH:MM:SSZ");
  }
  if (fields[0] != kHintTag) return Refuse("the line must start with [pr-daemon]");
  Hint hint;
  auto key = ParsePrKey(fields[1]);
  if (!key.ok()) return Refuse(key.status().message());
  hint.pr = *key;

  std::string_view reasons;
  if (!Value(fields[2], "reason", &reasons))
    return Refuse("the third field must be reason=R[,R...]");
  size_t at = 0;
  while (true) {
    const size_t comma = reasons.find(',', at);
    const std::string_view r =
        reasons.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at);
    if (!IsReason(r)) return Refuse("each reason must be one of comments, ci, conflicts, state");
    if (std::find(hint.reasons.begin(), hint.reasons.end(), r) != hint.reasons.end()) {
      return Refuse("a reason appears twice");
    }
    hint.reasons.emplace_back(r);
    if (comma == std::string_view::npos) break;
    at = comma + 1;
  }

  std::string_view skill;
  if (!Value(fields[3], "skill", &skill)) return Refuse("the fourth field must be skill=S");
  if (!IsSkill(skill)) return Refuse("skill must be land or review-pr");
  hint.skill = std::string(skill);

  std::string_view updated;
  if (!Value(fields[4], "updated", &updated)) {
    return Refuse("the fifth field must be updated=YYYY-MM-DDTHH:MM:SSZ");
  }
  if (!IsUtcSecondTimestamp(updated)) {
    return Refuse("updated must be a real UTC time written YYYY-MM-DDTHH:MM:SSZ");
  }
  hint.updated = std::string(updated);
  return hint;
}

Result<std::string> FormatHint(const Hint& hint) {
  std::string line = std::string(kHintTag) + " " + FormatPrKey(hint.pr) + " reason=";
  for (size_t i = 0; i < hint.reasons.size(); ++i) {
    if (i > 0) line += ',';
    line += hint.reasons[i];
  }
  line += " skill=" + hint.skill + " updated=" + hint.updated;
  GENTLE_RETURN_IF_ERROR(ParseHint(line).status());
  return line;
}

}  // namespace gentle::loop
