#include "store/fetched_lineage.h"

#include "store/catalog.h"
#include "store/file_io.h"
#include "store/history_verb.h"
#include "store/provenance.h"

namespace gentle::store {

Result<std::optional<FetchedLineage>> ReadFetchedLineage(const git::Repository& repo,
                                                         const std::string& lineage) {
  GENTLE_ASSIGN_OR_RETURN(std::vector<FetchedHistory> histories,
                          ListFetchedHistories(repo, lineage));
  if (histories.empty()) return std::optional<FetchedLineage>();
  const FetchedHistory& first = histories.front();  // by remote name
  for (const FetchedHistory& other : histories) {
    if (other.tip == first.tip) continue;
    std::string tips;
    for (const FetchedHistory& h : histories) {
      tips += (tips.empty() ? "" : ", ") + h.remote + " " + h.tip;
    }
    Status ambiguous(
        Code::kAmbiguous,
        "lineage " + lineage + " was fetched from remotes whose histories differ (" + tips + ")");
    for (const FetchedHistory& h : histories) ambiguous.WithRemoteDetail(h.remote, h.tip);
    return ambiguous.WithLineage(lineage);
  }
  auto chain = VerifyHistoryChain(repo, lineage, first.tip);
  if (!chain.ok()) {
    Status st = chain.status();
    if (st.code() != Code::kCorrupted) return st;
    return st.WithLineage(lineage)
        .WithDetail(DetailKey::kSource, first.remote)
        .WithDetail(DetailKey::kTip, first.tip);
  }
  return std::optional<FetchedLineage>(FetchedLineage{first.remote, std::move(chain).value()});
}

Status TerminalAnswer(const FetchedLineage& fetched, const std::string& lineage) {
  const std::string& tip = fetched.chain.tip().id;
  if (fetched.chain.terminal.Is(store::HistoryVerb::kBurn)) {
    return WithSource(
        Status(Code::kConsumed,
               "lineage " + lineage + " was burned (history fetched from " + fetched.remote + ")")
            .WithLineage(lineage),
        fetched.remote, tip);
  }
  if (fetched.chain.terminal.Is(store::HistoryVerb::kAbandon)) {
    return WithSource(
        Status(Code::kRetired,
               "lineage " + lineage + " was retired (history fetched from " + fetched.remote + ")")
            .WithLineage(lineage),
        fetched.remote, tip);
  }
  return Status::Ok();
}

bool FromFetchedHistory(const Status& terminal) {
  return terminal.has_detail(DetailKey::kSource) && !terminal.has_detail(DetailKey::kTombstone) &&
         !terminal.has_detail(DetailKey::kAuditRecord);
}

Result<bool> KnownLocally(const StoreLayout& layout, const std::string& lineage) {
  if (KindOf(layout.lineage_dir(lineage)) != PathKind::kMissing) return true;
  Status absent = ClassifyAbsent(layout, lineage);
  if (absent.code() == Code::kNotFound) return false;
  if (absent.code() == Code::kConsumed || absent.code() == Code::kRetired) return true;
  return absent;
}

}  // namespace gentle::store
