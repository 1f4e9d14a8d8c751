#include "export/delta_ops.h"

namespace gentle::exporter {
namespace {

bool ReadVarint(std::string_view data, size_t* pos, uint64_t* value) {
  *value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (*pos >= data.size()) return false;
    uint8_t byte = static_cast<uint8_t>(data[(*pos)++]);
    *value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return true;
  }
  return false;
}

}  // namespace

void AppendDeltaVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>(0x80 | (value & 0x7f)));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void AppendCopyOp(uint64_t offset, size_t size, std::string* out) {
  char buf[7];
  int n = 0;
  uint8_t op = 0x80;
  for (int i = 0; i < 4; ++i) {
    uint8_t byte = static_cast<uint8_t>(offset >> (8 * i));
    if (byte) {
      op |= static_cast<uint8_t>(1u << i);
      buf[n++] = static_cast<char>(byte);
    }
  }
  for (int i = 0; i < 2; ++i) {
    uint8_t byte = static_cast<uint8_t>(size >> (8 * i));
    if (byte) {
      op |= static_cast<uint8_t>(0x10u << i);
      buf[n++] = static_cast<char>(byte);
    }
  }
  out->push_back(static_cast<char>(op));
  out->append(buf, n);
}

void AppendInsertOp(std::string_view bytes, std::string* out) {
  out->push_back(static_cast<char>(bytes.size()));
  out->append(bytes);
}

Result<std::string> ApplyDelta(std::string_view source, std::string_view delta) {
  size_t pos = 0;
  uint64_t src_size = 0;
  uint64_t trg_size = 0;
  if (!ReadVarint(delta, &pos, &src_size) || !ReadVarint(delta, &pos, &trg_size)) {
    return Status(Code::kCorrupted, "delta header truncated");
  }
  if (src_size != source.size()) return Status(Code::kCorrupted, "delta source size mismatch");
  std::string target;
  while (pos < delta.size()) {
    uint8_t op = static_cast<uint8_t>(delta[pos++]);
    if (op & 0x80) {
      uint64_t offset = 0;
      uint64_t size = 0;
      for (int i = 0; i < 7; ++i) {
        if (!(op & (1u << i))) continue;
        if (pos >= delta.size()) return Status(Code::kCorrupted, "copy op truncated");
        uint64_t byte = static_cast<uint8_t>(delta[pos++]);
        if (i < 4) {
          offset |= byte << (8 * i);
        } else {
          size |= byte << (8 * (i - 4));
        }
      }
      if (size == 0) size = 0x10000;
      if (offset + size > source.size()) return Status(Code::kCorrupted, "copy out of range");
      target.append(source.substr(offset, size));
    } else if (op != 0) {
      if (pos + op > delta.size()) return Status(Code::kCorrupted, "insert op truncated");
      target.append(delta.substr(pos, op));
      pos += op;
    } else {
      return Status(Code::kCorrupted, "reserved delta opcode 0");
    }
  }
  if (target.size() != trg_size) return Status(Code::kCorrupted, "delta target size mismatch");
  return target;
}

}  // namespace gentle::exporter
