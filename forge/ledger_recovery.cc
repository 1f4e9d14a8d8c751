#include "forge/ledger_recovery.h"

#include <algorithm>
#include <tuple>

#include "forge/forge_name.h"
#include "forge/timestamp.h"
#include "store/verdict_name.h"

namespace gentle::forge {
namespace {

using store::ForgeIdKind;

// A carrier with the kind of its id: GitHub review bodies and issue comments are two id spaces.
struct Carrier {
  const ContextVerdict* verdict;
  ForgeIdKind kind;
};

// The carriers to read, in the context's order (time, then id, then reviews first): the ledger
// carriers (GitHub, Gitea: review bodies; Aone: thread comments) and, on GitHub and Gitea, the
// thread comments (issue comments, where a summary posted with `gh pr comment` lives), shaped as
// carriers. GitHub and Gitea number reviews and comments in two id spaces; Aone has comments only.
std::vector<Carrier> CarriersOf(const ReviewContext& context,
                                std::vector<ContextVerdict>* issue_comments) {
  const bool two_spaces = context.forge != Forge::kAone;
  if (two_spaces) {
    for (const ContextComment& c : context.comments) {
      if (c.channel == CommentChannel::kThread && !c.body.empty())
        issue_comments->push_back(CarrierOf(c));
    }
  }
  std::vector<Carrier> out;
  for (const ContextVerdict& v : context.ledger_carriers) {
    out.push_back({&v, two_spaces ? ForgeIdKind::kReview : ForgeIdKind::kComment});
  }
  for (const ContextVerdict& v : *issue_comments) out.push_back({&v, ForgeIdKind::kComment});
  std::stable_sort(out.begin(), out.end(), [](const Carrier& a, const Carrier& b) {
    return VerdictBefore(*a.verdict, *b.verdict) ||
           (!VerdictBefore(*b.verdict, *a.verdict) && a.kind == ForgeIdKind::kReview &&
            b.kind == ForgeIdKind::kComment);
  });
  return out;
}

bool IsCritical(const LedgerMarker& m) {
  return !m.verdict || *m.verdict == store::Verdict::kRequestChanges ||
         *m.verdict == store::Verdict::kNeedsDiscussion;
}

// Round first, then the later time (an empty one earliest), then the larger id, then the comment
// over the review of the same number.
bool SelectedBefore(const LedgerMarker& a, const LedgerMarker& b) {
  if (a.marker.round != b.marker.round) return a.marker.round < b.marker.round;
  const auto ta = a.at.empty() ? std::nullopt : ParseTimestamp(a.at);
  const auto tb = b.at.empty() ? std::nullopt : ParseTimestamp(b.at);
  if (ta != tb) return ta < tb;
  if (a.comment_id != b.comment_id) return IdLess(a.comment_id, b.comment_id);
  return a.id_kind == ForgeIdKind::kReview && b.id_kind == ForgeIdKind::kComment;
}

nlohmann::ordered_json NullOr(const std::optional<std::string>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json();
}

// The verdict's name, or none.
std::optional<std::string> VerdictText(const std::optional<store::Verdict>& verdict) {
  return verdict ? std::optional<std::string>(store::VerdictName(*verdict)) : std::nullopt;
}

nlohmann::ordered_json MarkerJson(const LedgerMarker& m) {
  nlohmann::ordered_json out;
  out["comment_id"] = m.comment_id;
  out["id_kind"] = store::ForgeIdKindName(m.id_kind);
  out["author"] = m.author;
  out["at"] = m.at;
  out["root"] = m.root;
  out["lineage"] = m.marker.lineage;
  out["round"] = m.marker.round;
  out["revision"] = m.marker.revision;
  out["model"] = NullOr(m.marker.model);
  out["session"] = NullOr(m.marker.session);
  out["verdict"] = NullOr(VerdictText(m.verdict));
  out["strict"] = m.strict;
  return out;
}

}  // namespace

Result<Ledger> RecoverLedger(const ReviewContext& context, const std::string& me) {
  Ledger ledger;
  ledger.forge = context.forge;
  ledger.me = me;
  std::vector<ContextVerdict> issue_comments;
  for (const auto& [verdict, kind] : CarriersOf(context, &issue_comments)) {
    const ContextVerdict& carrier = *verdict;
    exporter::CommentReading reading = exporter::ReadComment(carrier.body);
    if (!reading.has_marker) continue;
    const bool root = !carrier.parent_id.has_value();
    if (!reading.marker.ok()) {
      ledger.unreadable.push_back(
          {carrier.id, kind, carrier.author, carrier.submitted_at, root, reading.marker.message()});
      continue;
    }
    LedgerMarker m;
    m.id_kind = kind;
    m.marker = std::move(reading.comment);
    m.comment_id = carrier.id;
    m.author = carrier.author;
    m.at = carrier.submitted_at;
    m.root = root;
    m.verdict = std::move(reading.verdict);
    m.strict = reading.strict.ok();
    (!me.empty() && carrier.author == me ? ledger.own : ledger.foreign).push_back(std::move(m));
  }
  if (me.empty()) {
    for (const LedgerMarker& m : ledger.foreign) {
      if (m.root && IsCritical(m)) {
        return Status(Code::kAmbiguous,
                      "the login is unknown (--me \"\") and root comment " + m.comment_id +
                          " carries a " + VerdictText(m.verdict).value_or("verdict-less") +
                          " marker: own and foreign rounds cannot be told apart, so no ledger")
            .WithDetail(DetailKey::kCommentId, m.comment_id)
            .WithDetail(DetailKey::kVerdict, VerdictText(m.verdict).value_or(""));
      }
    }
    for (const UnreadableMarker& u : ledger.unreadable) {
      if (u.root) {
        return Status(Code::kAmbiguous,
                      "the login is unknown (--me \"\") and root comment " + u.comment_id +
                          " carries an unreadable marker: own and foreign rounds cannot be told "
                          "apart, so no ledger")
            .WithDetail(DetailKey::kCommentId, u.comment_id)
            .WithDetail(DetailKey::kVerdict, "");
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
  out["forge"] = std::string(ForgeName(ledger.forge));
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
    entry["id_kind"] = store::ForgeIdKindName(u.id_kind);
    entry["author"] = u.author;
    entry["at"] = u.at;
    entry["root"] = u.root;
    entry["reason"] = u.reason;
    out["unreadable"].push_back(std::move(entry));
  }
  return out;
}

}  // namespace gentle::forge
