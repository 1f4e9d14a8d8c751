// VisibleText: text from a record, a fetched history, a forge or the command line, made safe to
// print where a person reads it (a terminal, a pager, a log): the one escaping of every human
// output (docs/reliability.md, "Human output: no control bytes from recorded text").
//
// Printable UTF-8 passes unchanged, newline and tab included. Everything else is written as
// visible ASCII, so no byte of the result starts a control sequence or reorders what a terminal
// shows:
// - C0 controls other than newline and tab, and DEL: caret notation (`^[` for ESC, `^?` for DEL);
// - the C1 controls U+0080..U+009F (UTF-8 C2 80..C2 9F) and the bidirectional controls U+061C,
//   U+200E, U+200F, U+202A..U+202E, U+2066..U+2069: `\u` and four lowercase hex digits;
// - a byte that does not start a well-formed UTF-8 sequence (a raw 0x9b, a stray continuation
//   byte, an overlong form, a surrogate, a code point past U+10FFFF, a truncated sequence): `\x`
//   and two lowercase hex digits, and the next byte is read afresh.
// JSON output is not made with it: JSON strings carry the text as it is, escaped as JSON.
#ifndef GENTLE_STORE_VISIBLE_TEXT_H_
#define GENTLE_STORE_VISIBLE_TEXT_H_

#include <string>
#include <string_view>

namespace gentle::store {

std::string VisibleText(std::string_view text);

// VisibleText on one line: a carriage return or newline becomes a space first (error messages).
std::string VisibleLine(std::string_view text);

}  // namespace gentle::store

#endif  // GENTLE_STORE_VISIBLE_TEXT_H_
