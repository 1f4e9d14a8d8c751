// One-shot zlib compression as git writes it for binary patches.
//
// Contract: DeflateZlib returns the complete zlib stream (2-byte header, raw deflate data, Adler-32
// trailer) of `data`, produced by deflateInit(level) with zlib's defaults (windowBits 15, memLevel
// 8, default strategy) and a single deflate(Z_FINISH) into a deflateBound-sized buffer. With the
// system zlib (1.2.13) and level 1 this is byte-identical to git's `core.loosecompression=1` output
// ("78 01 ...").
#ifndef GENTLE_EXPORT_ZLIB_DEFLATE_H_
#define GENTLE_EXPORT_ZLIB_DEFLATE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "store/status.h"

namespace gentle::exporter {

Result<std::string> DeflateZlib(std::string_view data, int level);

// The same zlib stream as DeflateZlib, from input given in pieces: zlib's output does not depend on
// how its input is split (every piece is deflated with Z_NO_FLUSH, the end with Z_FINISH). The
// output so far never shrinks, so its size is a lower bound on the finished stream's at every step.
class ZlibStreamDeflater {
 public:
  // keep_output false: the stream is only counted (size()), never held.
  explicit ZlibStreamDeflater(int level, bool keep_output = true);
  ~ZlibStreamDeflater();
  ZlibStreamDeflater(const ZlibStreamDeflater&) = delete;
  ZlibStreamDeflater& operator=(const ZlibStreamDeflater&) = delete;

  Status Append(std::string_view piece);
  Status Finish();
  const std::string& output() const { return out_; }
  // Bytes of the stream so far, held or not.
  uint64_t size() const { return size_; }

 private:
  Status Run(std::string_view piece, int flush);

  struct State;
  std::unique_ptr<State> state_;
  bool keep_output_;
  std::string out_;
  uint64_t size_ = 0;
};

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ZLIB_DEFLATE_H_
