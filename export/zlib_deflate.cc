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

struct ZlibStreamDeflater::State {
  z_stream stream{};
  bool ready = false;
};

ZlibStreamDeflater::ZlibStreamDeflater(int level, bool keep_output)
    : state_(std::make_unique<State>()), keep_output_(keep_output) {
  state_->ready = deflateInit(&state_->stream, level) == Z_OK;
}

ZlibStreamDeflater::~ZlibStreamDeflater() {
  if (state_->ready) deflateEnd(&state_->stream);
}

Status ZlibStreamDeflater::Run(std::string_view piece, int flush) {
  if (!state_->ready) return Status(Code::kInternal, "deflateInit failed");
  z_stream& z = state_->stream;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(piece.data()));
  z.avail_in = static_cast<uInt>(piece.size());
  for (;;) {
    char buffer[16384];
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof(buffer);
    const int rc = deflate(&z, flush);
    if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR) {
      return Status(Code::kInternal, "deflate failed");
    }
    const size_t produced = sizeof(buffer) - z.avail_out;
    if (keep_output_) out_.append(buffer, produced);
    size_ += produced;
    if (rc == Z_STREAM_END) return Status::Ok();
    if (rc == Z_BUF_ERROR && produced == 0 && z.avail_in == 0 && flush == Z_FINISH) {
      return Status(Code::kInternal, "deflate made no progress");
    }
    // Without Z_FINISH, done once zlib has taken all the input and had room to spare.
    if (flush != Z_FINISH && z.avail_in == 0 && z.avail_out != 0) return Status::Ok();
  }
}

Status ZlibStreamDeflater::Append(std::string_view piece) {
  while (piece.size() > std::numeric_limits<uInt>::max()) {
    GENTLE_RETURN_IF_ERROR(Run(piece.substr(0, std::numeric_limits<uInt>::max()), Z_NO_FLUSH));
    piece.remove_prefix(std::numeric_limits<uInt>::max());
  }
  return Run(piece, Z_NO_FLUSH);
}

Status ZlibStreamDeflater::Finish() { return Run(std::string_view(), Z_FINISH); }

}  // namespace gentle::exporter
