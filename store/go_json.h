// JSON text helpers that reproduce the byte conventions of Go's encoding/json, which wrote the
// gentle-ai stores this project must stay compatible with:
//  - QuoteGoString: a JSON string literal as json.Marshal writes it (escapes <, >, &, U+2028/9,
//    control characters; invalid UTF-8 becomes U+FFFD).
//  - CompactJson: json.Compact, i.e. the text with insignificant whitespace removed and every byte
//    inside strings kept exactly as written. Used to verify revisions from raw bytes.
#ifndef GENTLE_STORE_GO_JSON_H_
#define GENTLE_STORE_GO_JSON_H_

#include <string>
#include <string_view>

namespace gentle::store {

std::string QuoteGoString(std::string_view value);

// True when `value` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
bool IsValidUtf8(std::string_view value);

// Removes whitespace outside strings. Does not validate beyond string boundaries; callers
// validate with a real parser first.
std::string CompactJson(std::string_view text);

}  // namespace gentle::store

#endif  // GENTLE_STORE_GO_JSON_H_
