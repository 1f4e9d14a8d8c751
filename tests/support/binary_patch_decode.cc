#include "tests/support/binary_patch_decode.h"

#include <zlib.h>

#include <cstdio>
#include <cstdlib>

#include "export/base85.h"

namespace gentle::testing {

Result<std::string> DecodeBase85Lines(std::string_view text) {
  std::string_view alphabet = exporter::Base85Alphabet();
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos)
      return Status(Code::kCorrupted, "base85 line without newline");
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    if (line.empty()) return Status(Code::kCorrupted, "empty base85 line");
    char c = line[0];
    size_t len;
    if (c >= 'A' && c <= 'Z') {
      len = static_cast<size_t>(c - 'A' + 1);
    } else if (c >= 'a' && c <= 'z') {
      len = static_cast<size_t>(c - 'a' + 27);
    } else {
      return Status(Code::kCorrupted, "bad base85 length char");
    }
    std::string_view digits = line.substr(1);
    if (digits.size() != (len + 3) / 4 * 5) return Status(Code::kCorrupted, "bad base85 width");
    std::string bytes;
    for (size_t g = 0; g < digits.size(); g += 5) {
      uint64_t v = 0;
      for (size_t k = 0; k < 5; ++k) {
        size_t d = alphabet.find(digits[g + k]);
        if (d == std::string_view::npos) return Status(Code::kCorrupted, "bad base85 digit");
        v = v * 85 + d;
      }
      if (v > 0xffffffffULL) return Status(Code::kCorrupted, "base85 group overflow");
      for (int s = 24; s >= 0; s -= 8) bytes.push_back(static_cast<char>((v >> s) & 0xff));
    }
    out.append(bytes.substr(0, len));
  }
  return out;
}

Result<std::string> InflateZlib(std::string_view data) {
  z_stream stream{};
  if (inflateInit(&stream) != Z_OK) return Status(Code::kInternal, "inflateInit");
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[1 << 16];
  int rc;
  do {
    stream.next_out = reinterpret_cast<Bytef*>(buf);
    stream.avail_out = sizeof buf;
    rc = inflate(&stream, Z_NO_FLUSH);
    out.append(buf, sizeof buf - stream.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&stream);
  if (rc != Z_STREAM_END) return Status(Code::kCorrupted, "inflate failed");
  return out;
}

namespace {

Result<BinaryHunk> ParseHunk(std::string_view text, size_t* pos) {
  size_t eol = text.find('\n', *pos);
  if (eol == std::string_view::npos) return Status(Code::kCorrupted, "hunk header missing");
  std::string_view header = text.substr(*pos, eol - *pos);
  BinaryHunk hunk;
  std::string_view number;
  if (header.substr(0, 8) == "literal ") {
    number = header.substr(8);
  } else if (header.substr(0, 6) == "delta ") {
    hunk.is_delta = true;
    number = header.substr(6);
  } else {
    return Status(Code::kCorrupted, "bad hunk header: " + std::string(header));
  }
  hunk.declared_size = std::stoull(std::string(number));
  size_t body_start = eol + 1;
  size_t blank = text.find("\n\n", eol);
  if (blank == std::string_view::npos) return Status(Code::kCorrupted, "hunk not terminated");
  GENTLE_ASSIGN_OR_RETURN(std::string zipped,
                          DecodeBase85Lines(text.substr(body_start, blank + 1 - body_start)));
  GENTLE_ASSIGN_OR_RETURN(hunk.payload, InflateZlib(zipped));
  *pos = blank + 2;
  return hunk;
}

}  // namespace

Result<std::pair<BinaryHunk, BinaryHunk>> ParseBinarySection(std::string_view section) {
  constexpr std::string_view kIntro = "GIT binary patch\n";
  if (section.substr(0, kIntro.size()) != kIntro) return Status(Code::kCorrupted, "no intro line");
  size_t pos = kIntro.size();
  GENTLE_ASSIGN_OR_RETURN(BinaryHunk forward, ParseHunk(section, &pos));
  GENTLE_ASSIGN_OR_RETURN(BinaryHunk reverse, ParseHunk(section, &pos));
  if (pos != section.size()) return Status(Code::kCorrupted, "trailing bytes after hunks");
  return std::make_pair(std::move(forward), std::move(reverse));
}

std::map<std::string, std::string> SplitBinarySections(std::string_view diff) {
  std::map<std::string, std::string> sections;
  size_t pos = 0;
  while ((pos = diff.find("diff --git a/", pos)) != std::string_view::npos) {
    size_t eol = diff.find('\n', pos);
    std::string_view header = diff.substr(pos + 13, eol - pos - 13);
    std::string path(header.substr(0, header.find(" b/")));
    size_t next = diff.find("\ndiff --git a/", eol);
    size_t end = next == std::string_view::npos ? diff.size() : next + 1;
    size_t intro = diff.find("GIT binary patch\n", eol);
    if (intro != std::string_view::npos && intro < end) {
      sections[path] = std::string(diff.substr(intro, end - intro));
    }
    pos = end;
  }
  return sections;
}

std::string DescribeDelta(std::string_view delta) {
  std::string out;
  size_t pos = 0;
  auto varint = [&]() {
    uint64_t v = 0;
    int shift = 0;
    while (pos < delta.size()) {
      uint8_t b = static_cast<uint8_t>(delta[pos++]);
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      shift += 7;
      if (!(b & 0x80)) break;
    }
    return v;
  };
  uint64_t src = varint();
  uint64_t trg = varint();
  out += "src=" + std::to_string(src) + " trg=" + std::to_string(trg) + "\n";
  uint64_t tpos = 0;
  while (pos < delta.size()) {
    uint8_t op = static_cast<uint8_t>(delta[pos++]);
    if (op & 0x80) {
      uint64_t off = 0, size = 0;
      for (int i = 0; i < 7; ++i) {
        if (!(op & (1u << i)) || pos >= delta.size()) continue;
        uint64_t b = static_cast<uint8_t>(delta[pos++]);
        if (i < 4) {
          off |= b << (8 * i);
        } else {
          size |= b << (8 * (i - 4));
        }
      }
      if (size == 0) size = 0x10000;
      out += "@" + std::to_string(tpos) + " copy off=" + std::to_string(off) +
             " len=" + std::to_string(size) + "\n";
      tpos += size;
    } else {
      out += "@" + std::to_string(tpos) + " insert n=" + std::to_string(op) + "\n";
      pos += op;
      tpos += op;
    }
  }
  return out;
}

}  // namespace gentle::testing
