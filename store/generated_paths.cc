#include "store/generated_paths.h"

namespace gentle::store {

std::string EncodeGeneratedPaths(const std::vector<std::string>& marked) {
  std::string out;
  for (const std::string& path : marked) {
    out += path;
    out.push_back('\0');
  }
  return out;
}

bool DecodeGeneratedPaths(std::string_view bytes, std::vector<std::string>* out) {
  out->clear();
  while (!bytes.empty()) {
    const size_t end = bytes.find('\0');
    if (end == std::string_view::npos || end == 0) return false;
    std::string path(bytes.substr(0, end));
    if (!out->empty() && !(out->back() < path)) return false;
    out->push_back(std::move(path));
    bytes.remove_prefix(end + 1);
  }
  return true;
}

}  // namespace gentle::store
