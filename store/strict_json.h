// ParseStrictJson: nlohmann's DOM of a JSON text, refusing what two readers could resolve
// differently: an object with the same key twice (which copy wins is up to the reader) and nesting
// deeper than a limit (a reader with a smaller stack fails where another succeeds). Used for every
// untrusted JSON file we read: lineage records (store/record.h), export envelopes
// (export/envelope_reader.h), burn tombstones (store/tombstone.h) and quarantine audit records
// (store/audit_record.h).
//
// A SAX handler builds the tree, driven first by store/json_event_reader.h (the common case, fast)
// and, for anything that reader does not accept, by nlohmann's own lexer and grammar (UTF-8
// checked, the whole text consumed): values are exactly those Json::parse yields, and every
// refusal is nlohmann's.
#ifndef GENTLE_STORE_STRICT_JSON_H_
#define GENTLE_STORE_STRICT_JSON_H_

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::store {

struct StrictJsonRefusal {
  enum class Kind { kSyntax, kDuplicateKey, kTooDeep };
  Kind kind = Kind::kSyntax;
  // kSyntax: nlohmann's message; kDuplicateKey: the key; kTooDeep: empty.
  std::string detail;
};

// True and `*out` set when `text` is one JSON value with no object holding a key twice and no
// value inside more than `max_depth` enclosing arrays or objects. Otherwise false, `*why` says
// which rule failed, and `*out` is unspecified.
bool ParseStrictJson(std::string_view text, size_t max_depth, nlohmann::json* out,
                     StrictJsonRefusal* why);

// The same rules into an ordered DOM (members in document order), built in time linear in the
// number of members (nlohmann's own ordered parse searches each object for every key it adds).
bool ParseStrictOrderedJson(std::string_view text, size_t max_depth, nlohmann::ordered_json* out,
                            StrictJsonRefusal* why);

// The same parse for a file named `subject` ("tombstone <key>", ...): a refusal is `corrupted`
// with the message "<subject> is not valid JSON: ...", "<subject> holds the key \"k\" twice" or
// "<subject> is nested too deeply".
Result<nlohmann::json> ParseStrictJsonFile(std::string_view text, size_t max_depth,
                                           std::string_view subject);

}  // namespace gentle::store

#endif  // GENTLE_STORE_STRICT_JSON_H_
