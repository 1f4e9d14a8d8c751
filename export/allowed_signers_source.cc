#include "export/allowed_signers_source.h"

#include <git2.h>

#include <optional>
#include <vector>

#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "store/named_file.h"

namespace gentle::exporter {
namespace {

Status Refused(std::string_view flag, const std::string& spec, const std::string& why) {
  return Status(Code::kUsage, "cannot read " + std::string(flag) + " " + spec + ": " + why);
}

// PATH's components; nullopt when one is empty, "." or "..".
std::optional<std::vector<std::string>> PathComponents(const std::string& path) {
  std::vector<std::string> out;
  size_t pos = 0;
  while (true) {
    const size_t end = path.find('/', pos);
    std::string part = path.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    if (part.empty() || part == "." || part == "..") return std::nullopt;
    out.push_back(std::move(part));
    if (end == std::string::npos) return out;
    pos = end + 1;
  }
}

Result<AllowedSigners> FromObject(const store::git::Repository& repo, const std::string& spec,
                                  std::string_view flag) {
  const size_t colon = spec.find(':');
  const std::string ref = spec.substr(0, colon);
  const std::string path = spec.substr(colon + 1);
  if (ref.empty()) {
    return Refused(
        flag, spec,
        "REF:PATH names no REF (the index is not read; write ./" + spec.substr(1) + " for a file)");
  }
  const std::optional<std::vector<std::string>> parts = PathComponents(path);
  if (!parts) {
    return Refused(flag, spec,
                   "PATH \"" + path + "\" is not a path from the root of " + ref +
                       "'s tree (empty, \".\" or \"..\" components)");
  }
  auto tree_id = store::git::PeelRev(repo.raw(), ref, GIT_OBJECT_TREE);
  if (!tree_id.ok()) {
    return Refused(flag, spec,
                   "REF " + ref + " does not resolve (" + tree_id.status().message() +
                       "); a file whose name holds ':' is written ./NAME");
  }
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo.raw()));
  git_oid id = *tree_id;
  std::string walked;
  for (size_t i = 0; i < parts->size(); ++i) {
    GENTLE_ASSIGN_OR_RETURN(store::git::RawTree tree, store::git::ReadTree(odb.get(), id));
    const std::string& name = (*parts)[i];
    const store::git::RawTreeEntry* found = nullptr;
    walked += (walked.empty() ? "" : "/") + name;
    for (const store::git::RawTreeEntry& entry : tree.entries()) {
      if (entry.name != name) continue;
      if (found != nullptr) return Refused(flag, spec, walked + " is in " + ref + " twice");
      found = &entry;
    }
    if (found == nullptr) return Refused(flag, spec, walked + " is not in " + ref);
    const bool last = i + 1 == parts->size();
    if (!last) {
      if (!found->is_tree()) return Refused(flag, spec, walked + " is not a directory in " + ref);
      id = found->id;
      continue;
    }
    const uint32_t type = found->mode & 0170000;
    if (type != 0100000) {
      const char* what = type == 0120000   ? "a symlink"
                         : type == 0040000 ? "a directory"
                         : type == 0160000 ? "a submodule"
                                           : "not a file";
      return Refused(flag, spec, walked + " is " + what + " in " + ref + ", not a regular file");
    }
    id = found->id;
  }
  auto header = store::git::ReadObjectHeader(odb.get(), id);
  if (!header.ok()) return header.status();
  if (header->size > kMaxAllowedSignersBytes) {
    return Refused(flag, spec, "larger than " + std::to_string(kMaxAllowedSignersBytes) + " bytes")
        .WithDetail(DetailKey::kLimit, std::to_string(kMaxAllowedSignersBytes));
  }
  GENTLE_ASSIGN_OR_RETURN(
      store::git::OdbObjectPtr blob,
      store::git::ReadObject(odb.get(), id, GIT_OBJECT_BLOB, kMaxAllowedSignersBytes));
  AllowedSigners out;
  out.name = spec;
  out.text.assign(static_cast<const char*>(git_odb_object_data(blob.get())),
                  git_odb_object_size(blob.get()));
  return out;
}

}  // namespace

bool IsRefPathSpec(std::string_view spec) {
  if (spec.find(':') == std::string_view::npos) return false;
  for (std::string_view prefix : {"/", "./", "../"}) {
    if (spec.substr(0, prefix.size()) == prefix) return false;
  }
  return true;
}

Result<AllowedSigners> ReadAllowedSignersPath(const std::string& path, std::string_view what) {
  auto text = store::ReadNamedFile(path, kMaxAllowedSignersBytes);
  if (!text.ok()) {
    Status st = Refused(what, path, text.status().message());
    if (text.status().message().rfind("larger than", 0) == 0) {
      st.WithDetail(DetailKey::kLimit, std::to_string(kMaxAllowedSignersBytes));
    }
    return st;
  }
  return AllowedSigners{path, std::move(text).value()};
}

Result<AllowedSigners> LoadAllowedSigners(const store::git::Repository& repo,
                                          const std::string& spec, std::string_view flag) {
  if (spec.empty()) return Status(Code::kUsage, std::string(flag) + " names no file");
  if (IsRefPathSpec(spec)) return FromObject(repo, spec, flag);
  return ReadAllowedSignersPath(spec, flag);
}

}  // namespace gentle::exporter
