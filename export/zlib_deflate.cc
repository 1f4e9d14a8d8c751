#include "export/zlib_deflate.h"

#include <zlib.h>

#include <limits>

namespace gentle::exporter {

Result<std::string> DeflateZlib(std::string_view data, int level) {
  if (data.size() > std::numeric_limits<uInt>::max()) {
    return Status(Code::kBudgetExceeded, "deflate input larger than zlib's single-call limit");
  }
  z_stream stream{};
  if (deflateInit(&stream, level) != Z_OK) {
    return Status(Code::kInternal, "deflateInit failed");
  }
  std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  stream.avail_in = static_cast<uInt>(data.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (rc != Z_STREAM_END) {
    return Status(Code::kInternal, "deflate did not finish in one call");
  }
  return out;
}

}  // namespace gentle::exporter
