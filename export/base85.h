// git's base85 line encoding for `GIT binary patch` bodies.
//
// Contract: AppendBase85Lines splits `data` into lines of at most 52 bytes. Each line is one length
// character ('A'..'Z' for 1..26 bytes, 'a'..'z' for 27..52), then the line's bytes taken as
// big-endian 32-bit groups (the last group zero-padded) each written as 5 digits, most significant
// first, in git's alphabet "0-9A-Za-z!#$%&()*+-;<=>?@^_`{|}~", then '\n'. Empty data appends
// nothing.
#ifndef GENTLE_EXPORT_BASE85_H_
#define GENTLE_EXPORT_BASE85_H_

#include <cstdint>
#include <string>
#include <string_view>

namespace gentle::exporter {

// The 85 digits in value order.
std::string_view Base85Alphabet();

// Encodes `data` as 5 characters per 4-byte group (last group zero-padded); no length char, no
// newline.
void AppendBase85Groups(std::string_view data, std::string* out);

// Appends the base85 lines of `data` as described above.
void AppendBase85Lines(std::string_view data, std::string* out);

// The number of bytes AppendBase85Lines appends for data of `n` bytes; never decreases as n grows.
uint64_t Base85LinesSize(uint64_t n);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_BASE85_H_
