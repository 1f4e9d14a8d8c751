#include "tests/support/files.h"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "store/sha256.h"

namespace gentle::testing {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void WriteFile(const std::string& path, std::string_view bytes) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

bool Exists(const std::string& path) {
  struct stat st;
  return lstat(path.c_str(), &st) == 0;
}

void CopyTree(const std::string& from, const std::string& to) {
  std::filesystem::copy(
      from, to,
      std::filesystem::copy_options::recursive | std::filesystem::copy_options::copy_symlinks);
}

std::map<std::string, std::string> HashTree(const std::string& root) {
  std::map<std::string, std::string> out;
  std::vector<std::string> stack = {""};
  while (!stack.empty()) {
    std::string rel = stack.back();
    stack.pop_back();
    const std::string full = rel.empty() ? root : root + "/" + rel;
    struct stat st;
    if (lstat(full.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      out[rel + "/"] = "dir " + std::to_string(st.st_mode & 07777);
      DIR* dir = opendir(full.c_str());
      while (dirent* e = dir ? readdir(dir) : nullptr) {
        std::string name = e->d_name;
        if (name != "." && name != "..") stack.push_back(rel.empty() ? name : rel + "/" + name);
      }
      if (dir) closedir(dir);
    } else if (S_ISLNK(st.st_mode)) {
      char target[4096];
      ssize_t n = readlink(full.c_str(), target, sizeof(target));
      out[rel] = "link " + std::string(target, n > 0 ? static_cast<size_t>(n) : 0);
    } else if (S_ISREG(st.st_mode)) {
      out[rel] = store::Sha256Hex(ReadFile(full)) + " " + std::to_string(st.st_mode & 07777);
    } else {  // a FIFO, socket or device: never opened (a FIFO would block)
      out[rel] = "special " + std::to_string(st.st_mode);
    }
  }
  return out;
}

std::string WithCrlf(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

}  // namespace gentle::testing
