#include "export/show_json.h"

#include <string>

namespace gentle::exporter {
namespace {

using Json = nlohmann::ordered_json;

Json OrNull(const std::string& value, bool present) {
  return present ? Json(value) : Json(nullptr);
}

Json EventJson(const ShowEvent& e) {
  const bool verdict = e.HasVerdict();
  Json j;
  j["verb"] = e.verb.text();
  j["round"] = e.round;
  j["at"] = e.at;
  j["state"] = e.state.name();
  j["revision"] = e.revision;
  j["commit"] = e.commit;
  j["verdict"] = OrNull(e.verdict.text(), verdict);
  j["actor"] = OrNull(e.actor, verdict);
  j["role"] = OrNull(e.role.text(), verdict);
  j["body"] = OrNull(e.body, verdict);
  j["signature"] = OrNull(e.signature, verdict);
  j["signer"] = OrNull(e.signer, !e.signer.empty());
  return j;
}

Json RoundJson(const ShowRound& r) {
  Json j;
  j["round"] = r.round;
  j["revision"] = r.revision;
  j["base_tree"] = r.snapshot.base_tree;
  j["candidate_tree"] = r.snapshot.candidate_tree;
  j["paths_digest"] = r.snapshot.paths_digest;
  if (r.diff.derived) {
    j["patch"] = {{"sha256", r.diff.patch_sha256},
                  {"byte_size", r.diff.byte_size},
                  {"paths", r.diff.paths},
                  {"summarised_paths", r.diff.summarised_paths}};
    j["refusal"] = nullptr;
  } else {
    j["patch"] = nullptr;
    j["refusal"] = {{"code", std::string(CodeName(r.diff.refusal.code()))},
                    {"message", r.diff.refusal.message()}};
  }
  return j;
}

}  // namespace

nlohmann::ordered_json RenderShowJson(const ShowView& view) {
  Json j;
  j["schema"] = std::string(kShowSchema);
  j["lineage"] = view.lineage;
  j["source"] = OrNull(view.source, !view.source.empty());
  j["state"] = view.state.name();
  j["revision"] = view.revision;
  j["round"] = view.selected_round;
  j["events"] = Json::array();
  for (const ShowEvent& e : view.events) j["events"].push_back(EventJson(e));
  j["rounds"] = Json::array();
  for (const ShowRound& r : view.rounds) j["rounds"].push_back(RoundJson(r));
  return j;
}

}  // namespace gentle::exporter
