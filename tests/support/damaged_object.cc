#include "tests/support/damaged_object.h"

#include <zlib.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/files.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {

void DamageLooseBlobTail(const std::string& git_dir, const std::string& hex,
                         const std::string& content, double from) {
  const size_t start = static_cast<size_t>(static_cast<double>(content.size()) * from);
  REQUIRE(start < content.size());
  std::string damaged = "blob " + std::to_string(content.size()) + std::string(1, '\0');
  const size_t header = damaged.size();
  damaged += content;
  for (size_t i = header + start; i < damaged.size(); ++i) {
    damaged[i] = static_cast<char>(~damaged[i]);
  }
  uLongf size = compressBound(static_cast<uLong>(damaged.size()));
  std::string zlib(size, '\0');
  REQUIRE(compress2(reinterpret_cast<Bytef*>(zlib.data()), &size,
                    reinterpret_cast<const Bytef*>(damaged.data()),
                    static_cast<uLong>(damaged.size()), 1) == Z_OK);
  zlib.resize(size);
  const std::string path = LooseObjectPath(git_dir, hex);
  REQUIRE(std::filesystem::exists(path));
  std::filesystem::permissions(path, std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  WriteFile(path, zlib);
}

}  // namespace gentle::testing
