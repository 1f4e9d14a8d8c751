#include "export/zlib_deflate.h"

#include <zlib.h>

#include <array>
#include <limits>
#include <memory>

namespace gentle::exporter {
namespace {

// One deflate stream per level and thread, reset between uses. deflateReset leaves a stream in
// exactly the state deflateInit gives it, so the bytes are the same; what it saves is allocating
// and faulting in zlib's ~270 KB of state for every call (two per binary file: a 500-file binary
// patch spent more time in the kernel than in deflate).
class DeflaterCache {
 public:
  ~DeflaterCache() {
    for (auto& stream : streams_) {
      if (stream) deflateEnd(stream.get());
    }
  }

  // A stream ready for new input at `level` (Z_DEFAULT_COMPRESSION or 0-9), or null.
  z_stream* Get(int level) {
    if (level < Z_DEFAULT_COMPRESSION || level > Z_BEST_COMPRESSION) return nullptr;
    std::unique_ptr<z_stream>& stream = streams_[static_cast<size_t>(level + 1)];
    if (stream) return deflateReset(stream.get()) == Z_OK ? stream.get() : nullptr;
    auto fresh = std::make_unique<z_stream>();  // zlib keeps a pointer to it: it must not move
    if (deflateInit(fresh.get(), level) != Z_OK) return nullptr;
    stream = std::move(fresh);
    return stream.get();
  }

 private:
  std::array<std::unique_ptr<z_stream>, Z_BEST_COMPRESSION + 2> streams_;
};

}  // namespace

Result<std::string> DeflateZlib(std::string_view data, int level) {
  if (data.size() > std::numeric_limits<uInt>::max()) {
    return Status(Code::kBudgetExceeded, "deflate input larger than zlib's single-call limit");
  }
  thread_local DeflaterCache cache;
  z_stream* stream = cache.Get(level);
  if (stream == nullptr) return Status(Code::kInternal, "deflateInit failed");
  std::string out(deflateBound(stream, static_cast<uLong>(data.size())), '\0');
  stream->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream->avail_in = static_cast<uInt>(data.size());
  stream->next_out = reinterpret_cast<Bytef*>(out.data());
  stream->avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(stream, Z_FINISH);
  out.resize(stream->total_out);
  if (rc != Z_STREAM_END) {
    return Status(Code::kInternal, "deflate did not finish in one call");
  }
  return out;
}

}  // namespace gentle::exporter
