#include "transaction/generated_marks.h"

#include <map>
#include <memory>
#include <optional>

#include "store/git/git_util.h"
#include "store/git/object_reader.h"
#include "store/git/raw_tree.h"
#include "transaction/generated_rules.h"

namespace gentle::transaction {
namespace {

constexpr std::string_view kAttrFileName = ".gitattributes";

// The candidate tree's directories and their attributes files, read once each.
class AttrTree {
 public:
  AttrTree(git_odb* odb, const git_oid& root) : odb_(odb), root_(root) {}

  // The attributes files of the directories on the way to `path`, shallowest first.
  Result<std::vector<const AttrFile*>> FilesFor(const std::string& path) {
    std::vector<const AttrFile*> files;
    std::string dir;
    std::optional<git_oid> tree = root_;
    size_t from = 0;
    while (tree) {
      GENTLE_ASSIGN_OR_RETURN(const Dir* read, Read(dir, *tree));
      if (read->attrs) files.push_back(&*read->attrs);
      const size_t slash = path.find('/', from);
      if (slash == std::string::npos) break;
      const std::string_view name(path.data() + from, slash - from);
      tree.reset();
      for (const store::git::RawTreeEntry& e : read->tree.entries()) {
        if (e.is_tree() && e.name == name) tree = e.id;
      }
      dir = path.substr(0, slash + 1);
      from = slash + 1;
    }
    return files;
  }

 private:
  struct Dir {
    store::git::RawTree tree;
    std::optional<AttrFile> attrs;
  };

  Result<const Dir*> Read(const std::string& dir, const git_oid& id) {
    auto found = dirs_.find(dir);
    if (found != dirs_.end()) return found->second.get();
    GENTLE_ASSIGN_OR_RETURN(store::git::RawTree tree, store::git::ReadTree(odb_, id));
    auto entry = std::make_unique<Dir>(Dir{std::move(tree), std::nullopt});
    for (const store::git::RawTreeEntry& e : entry->tree.entries()) {
      if (e.name != kAttrFileName || (e.mode & 0170000) != 0100000) continue;
      GENTLE_ASSIGN_OR_RETURN(store::git::ObjectHeader header,
                              store::git::ReadObjectHeader(odb_, e.id));
      if (header.size > kMaxAttrFileBytes) break;  // git ignores it
      GENTLE_ASSIGN_OR_RETURN(
          store::git::OdbObjectPtr blob,
          store::git::ReadObject(odb_, e.id, GIT_OBJECT_BLOB, kMaxAttrFileBytes));
      const std::string_view text(static_cast<const char*>(git_odb_object_data(blob.get())),
                                  git_odb_object_size(blob.get()));
      entry->attrs = ParseAttrFile(dir, text);
    }
    return dirs_.emplace(dir, std::move(entry)).first->second.get();
  }

  git_odb* odb_;
  git_oid root_;
  std::map<std::string, std::unique_ptr<Dir>> dirs_;
};

}  // namespace

Result<std::vector<std::string>> MarkGenerated(git_odb* odb, const std::string& candidate_tree,
                                               const std::vector<std::string>& paths) {
  GENTLE_ASSIGN_OR_RETURN(git_oid root, store::git::ParseOidHex(candidate_tree));
  AttrTree tree(odb, root);
  std::vector<std::string> marked;
  for (const std::string& path : paths) {
    GENTLE_ASSIGN_OR_RETURN(std::vector<const AttrFile*> files, tree.FilesFor(path));
    if (IsGenerated(files, path)) marked.push_back(path);
  }
  return marked;
}

Result<std::vector<std::string>> MarkGenerated(git_repository* repo,
                                               const store::Snapshot& snapshot) {
  GENTLE_ASSIGN_OR_RETURN(store::git::OdbPtr odb, store::git::RepositoryOdb(repo));
  return MarkGenerated(odb.get(), snapshot.candidate_tree, snapshot.paths);
}

void AddGeneratedPaths(const std::string& file, store::HistoryCommitSpec* commit) {
  if (!file.empty()) commit->files.emplace_back(std::string(store::kHistoryGeneratedName), file);
}

}  // namespace gentle::transaction
