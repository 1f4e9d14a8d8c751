// The `--json` view of `review show`: gentle-ai.review-show/v1 (docs/show.md,
// docs/schema/review-show.v1.schema.json). The timeline as data: lineage, source (null for the
// local store), state and revision of the history's tip, the selected round, one member per event
// (verdict fields null unless a verdict), and one per round with its trees, paths digest and
// either its patch (sha256, byte size, paths) or the budget refusal (code, message).
#ifndef GENTLE_EXPORT_SHOW_JSON_H_
#define GENTLE_EXPORT_SHOW_JSON_H_

#include <nlohmann/json.hpp>
#include <string_view>

#include "export/review_show.h"

namespace gentle::exporter {

inline constexpr std::string_view kShowSchema = "gentle-ai.review-show/v1";

nlohmann::ordered_json RenderShowJson(const ShowView& view);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_SHOW_JSON_H_
