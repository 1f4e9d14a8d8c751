#include "forge/ledger_recovery.h"

#include <tuple>

#include "forge/timestamp.h"

namespace gentle::forge {
namespace {

// What makes a last line a marker to read (or to report unreadable).
constexpr std::string_view kMarkerStart = "<!-- gentle-ai:review";

std::string WithLf(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    if (body[i] == '\r' && i + 1 < body.size() && body[i + 1] == '\n') continue;
    out += body[i];
  }
  return out;
}

std::string_view LastLine(std::string_view text) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  const size_t newline = text.rfind('\n');
  return newline == std::string_view::npos ? text : text.substr(newline + 1);
}

bool IsVerdictWord(const std::string& word) {
  return exporter::CommentKindFor("reviewer", word).ok() ||
         exporter::CommentKindFor("docs-reviewer", word).ok();
}

// The word of the last `### Verdict: <VERDICT>` line, when it is a verdict.
std::optional<std::string> LooseVerdict(std::string_view text) {
  constexpr std::string_view kLine = "### Verdict: ";
  std::optional<std::string> found;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    if (line.substr(0, kLine.size()) == kLine) {
      const std::string word(line.substr(kLine.size()));
      found = IsVerdictWord(word) ? std::optional<std::string>(word) : std::nullopt;
    }
    start = end + 1;
  }
  return found;
}

bool IsCritical(const LedgerMarker& m) {
  return !m.verdict || *m.verdict == "REQUEST_CHANGES" || *m.verdict == "NEEDS_DISCUSSION";
}

// Round first, then the later time (an empty one earliest), then the larger id.
bool SelectedBefore(const LedgerMarker& a, const LedgerMarker& b) {
  if (a.marker.round != b.marker.round) return a.marker.round < b.marker.round;
  const auto ta = a.at.empty() ? std::nullopt : ParseTimestamp(a.at);
  const auto tb = b.at.empty() ? std::nullopt : ParseTimestamp(b.at);
  if (ta != tb) return ta < tb;
  return IdLess(a.comment_id, b.comment_id);
}

nlohmann::ordered_json NullOr(const std::optional<std::string>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

nlohmann::ordered_json MarkerJson(const LedgerMarker& m) {
  nlohmann::ordered_json out;
  out["comment_id"] = m.comment_id;
  out["author"] = m.author;
  out["at"] = m.at;
  out["root"] = m.root;
  out["lineage"] = m.marker.lineage;
  out["round"] = m.marker.round;
  out["revision"] = m.marker.revision;
  out["model"] = NullOr(m.marker.model);
  out["session"] = NullOr(m.marker.session);
  out["verdict"] = NullOr(m.verdict);
  out["strict"] = m.strict;
  return out;
}

}  // namespace

Result<Ledger> RecoverLedger(const ReviewContext& context, const std::string& me) {
  Ledger ledger;
  ledger.forge = context.forge;
  ledger.me = me;
  for (const ContextVerdict& carrier : context.ledger_carriers) {
    const std::string body = WithLf(carrier.body);
    const std::string_view line = LastLine(body);
    if (line.substr(0, kMarkerStart.size()) != kMarkerStart) continue;
    const bool root = !carrier.parent_id.has_value();
    LedgerMarker m;
    if (Status st = exporter::ParseMarkerLine(line, &m.marker); !st.ok()) {
      ledger.unreadable.push_back(
          {carrier.id, carrier.author, carrier.submitted_at, root, st.message()});
      continue;
    }
    m.comment_id = carrier.id;
    m.author = carrier.author;
    m.at = carrier.submitted_at;
    m.root = root;
    if (auto whole = exporter::ParseComment(body); whole.ok()) {
      m.verdict = whole->verdict;
      m.strict = true;
    } else {
      m.verdict = LooseVerdict(body);
    }
    (!me.empty() && carrier.author == me ? ledger.own : ledger.foreign).push_back(std::move(m));
  }
  if (me.empty()) {
    for (const LedgerMarker& m : ledger.foreign) {
      if (m.root && IsCritical(m)) {
        return Status(Code::kAmbiguous,
                      "the login is unknown (--me \"\") and root comment " + m.comment_id +
                          " carries a " + (m.verdict ? *m.verdict : "verdict-less") +
                          " marker: own and foreign rounds cannot be told apart, so no ledger")
            .WithDetail("comment_id", m.comment_id)
            .WithDetail("verdict", m.verdict.value_or(""));
      }
    }
    for (const UnreadableMarker& u : ledger.unreadable) {
      if (u.root) {
        return Status(Code::kAmbiguous,
                      "the login is unknown (--me \"\") and root comment " + u.comment_id +
                          " carries an unreadable marker: own and foreign rounds cannot be told "
                          "apart, so no ledger")
            .WithDetail("comment_id", u.comment_id)
            .WithDetail("verdict", "");
      }
    }
  }
  for (const LedgerMarker& m : ledger.own) {
    if (!ledger.previous || SelectedBefore(*ledger.previous, m)) ledger.previous = m;
  }
  return ledger;
}

nlohmann::ordered_json LedgerJson(const Ledger& ledger) {
  nlohmann::ordered_json out;
  out["schema"] = kLedgerSchema;
  out["forge"] = ledger.forge;
  out["me"] = ledger.me.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(ledger.me);
  out["previous"] = ledger.previous ? MarkerJson(*ledger.previous) : nlohmann::ordered_json();
  out["own"] = nlohmann::ordered_json::array();
  for (const LedgerMarker& m : ledger.own) out["own"].push_back(MarkerJson(m));
  out["foreign"] = nlohmann::ordered_json::array();
  for (const LedgerMarker& m : ledger.foreign) out["foreign"].push_back(MarkerJson(m));
  out["unreadable"] = nlohmann::ordered_json::array();
  for (const UnreadableMarker& u : ledger.unreadable) {
    nlohmann::ordered_json entry;
    entry["comment_id"] = u.comment_id;
    entry["author"] = u.author;
    entry["at"] = u.at;
    entry["root"] = u.root;
    entry["reason"] = u.reason;
    out["unreadable"].push_back(std::move(entry));
  }
  return out;
}

}  // namespace gentle::forge
