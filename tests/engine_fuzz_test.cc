// Randomized differential test: seeded random trees and edits (text, binary, modes, symlinks,
// gitlinks, type changes, odd paths), many file pairs per tree pair, engine against the oracle.
// GENTLE_FUZZ_SEED fixes the seed (printed on failure); GENTLE_FUZZ_PAIRS sets how many file
// pairs to compare (default 10,000, counted over both directions). Each tree pair is also taken
// as the two candidate trees of two review rounds: the interdiff export-context --since-round
// derives (exporter::DeriveInterdiff, the export path) must be the same oracle bytes.
#include <git2.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <map>
#include <random>

#include "export/derivation.h"
#include "store/git/repository.h"
#include "tests/support/git_oracle.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

struct Entry {
  git_filemode_t mode;
  git_oid oid;
};
using Tree = std::map<std::string, Entry>;

class Generator {
 public:
  Generator(git_repository* repo, uint64_t seed) : repo_(repo), rng_(seed) {}

  size_t Below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  bool Chance(int percent) { return Below(100) < static_cast<size_t>(percent); }

  git_oid Blob(const std::string& data) {
    git_oid oid;
    REQUIRE(git_blob_create_from_buffer(&oid, repo_, data.data(), data.size()) == 0);
    return oid;
  }

  git_oid RandomOid() {
    unsigned char raw[GIT_OID_RAWSZ];
    for (auto& b : raw) b = static_cast<unsigned char>(Below(256));
    git_oid oid;
    git_oid_fromraw(&oid, raw);
    return oid;
  }

  // A line biased towards funcname edge cases: lengths around 80, odd trailing bytes, bad UTF-8.
  std::string Line() {
    static const char* kWords[] = {"int", "x", "return", "{", "}", "if", "(a)", "b;", "=", "+"};
    static const char* kOdd[] = {" ",
                                 "\t",
                                 "\r",
                                 "\f",
                                 "\v",
                                 "\xc3\xa9",
                                 "\xed\xa0\x80",
                                 "\xc0\x80",
                                 "\xf4\x90\x80\x80",
                                 "\xef\xbf\xbe",
                                 "\xe9",
                                 "\xf0\x9f\x98\x80"};
    std::string line;
    switch (Below(6)) {
      case 0:
        line = "func_" + std::to_string(Below(50)) + "(void)";
        break;
      case 1:
        line = std::string(1, "\t $_#1"[Below(6)]);
        break;
      default:
        line = "\t";
        break;
    }
    size_t words = Below(8);
    for (size_t i = 0; i < words; ++i) {
      line += kWords[Below(10)];
      line += ' ';
    }
    if (Chance(15)) {
      size_t target = 74 + Below(10);
      while (line.size() < target) line += static_cast<char>('a' + Below(26));
    }
    size_t odd = Chance(25) ? 1 + Below(3) : 0;
    for (size_t i = 0; i < odd; ++i) line += kOdd[Below(12)];
    if (Chance(3)) line += std::string(80 + Below(200), 'y');
    return line + (Chance(3) ? "\r\n" : "\n");
  }

  std::string Text(size_t max_lines) {
    std::string s;
    size_t n = Below(max_lines + 1);
    for (size_t i = 0; i < n; ++i) s += Line();
    if (!s.empty() && Chance(15)) s.pop_back();  // no final newline
    return s;
  }

  std::string EditText(const std::string& in) {
    std::vector<std::string> lines;
    size_t start = 0;
    while (start < in.size()) {
      size_t nl = in.find('\n', start);
      size_t end = nl == std::string::npos ? in.size() : nl + 1;
      lines.push_back(in.substr(start, end - start));
      start = end;
    }
    size_t edits = 1 + Below(6);
    for (size_t e = 0; e < edits; ++e) {
      size_t at = lines.empty() ? 0 : Below(lines.size() + 1);
      switch (Below(3)) {
        case 0:
          lines.insert(lines.begin() + static_cast<long>(at), Line());
          break;
        case 1:
          if (at < lines.size()) lines.erase(lines.begin() + static_cast<long>(at));
          break;
        default:
          if (at < lines.size()) lines[at] = Line();
      }
    }
    std::string out;
    for (auto& l : lines) {
      if (!out.empty() && out.back() != '\n') out += '\n';
      out += l;
    }
    if (Chance(10) && !out.empty()) {
      if (out.back() == '\n')
        out.pop_back();
      else
        out += '\n';
    }
    return out;
  }

  std::string Binary() {
    std::string s(Below(Chance(10) ? 40000 : 3000) + 1, '\0');
    bool compressible = Chance(50);
    for (auto& c : s) {
      if (!compressible || Chance(5)) c = static_cast<char>(Below(256));
    }
    if (s.size() > 1) s[Below(std::min<size_t>(s.size(), 8000))] = '\0';
    return s;
  }

  std::string EditBinary(std::string s) {
    size_t edits = 1 + Below(4);
    for (size_t i = 0; i < edits && !s.empty(); ++i) {
      size_t at = Below(s.size());
      if (Chance(50)) {
        s[at] = static_cast<char>(Below(256));
      } else {
        s.insert(at, std::string(Below(50) + 1, static_cast<char>(Below(256))));
      }
    }
    return s;
  }

  std::string Name(size_t slot) {
    static const char* kOdd[] = {" sp",  "\ttab", "\"q", "\\bs", "\xc3\xa9",
                                 "\xff", "!",     "\n",  "-",    "."};
    std::string dir = "d" + std::to_string(Below(4)) + "/";
    if (Chance(30)) dir += "e" + std::to_string(Below(3)) + "/";
    std::string name = "f" + std::to_string(slot);
    if (Chance(15)) name += kOdd[Below(10)];
    return dir + name;
  }

  // Fills `a` and `b` with `slots` paths that (mostly) differ between the two trees.
  void Pair(size_t slots, Tree* a, Tree* b) {
    for (size_t slot = 0; slot < slots; ++slot) {
      const std::string path = Name(slot);
      const size_t kind = Below(100);
      if (kind < 50) {  // text edit, sometimes with a mode change
        std::string old_text = Text(60);
        (*a)[path] = {GIT_FILEMODE_BLOB, Blob(old_text)};
        (*b)[path] = {Chance(10) ? GIT_FILEMODE_BLOB_EXECUTABLE : GIT_FILEMODE_BLOB,
                      Blob(EditText(old_text))};
      } else if (kind < 62) {  // added or deleted text, possibly empty
        Tree* side = Chance(50) ? a : b;
        (*side)[path] = {GIT_FILEMODE_BLOB, Blob(Chance(20) ? "" : Text(30))};
      } else if (kind < 68) {  // binary edit, add, delete, or text <-> binary
        std::string old_data = Chance(20) ? Text(10) : Binary();
        std::string new_data = Chance(20) ? Text(10) : EditBinary(old_data);
        if (Chance(15)) old_data.clear();
        if (Chance(25)) {
          (*(Chance(50) ? a : b))[path] = {GIT_FILEMODE_BLOB, Blob(new_data)};
        } else {
          (*a)[path] = {GIT_FILEMODE_BLOB, Blob(old_data)};
          (*b)[path] = {GIT_FILEMODE_BLOB, Blob(new_data)};
        }
      } else if (kind < 76) {  // mode change only
        git_oid oid = Blob(Text(5));
        (*a)[path] = {GIT_FILEMODE_BLOB, oid};
        (*b)[path] = {GIT_FILEMODE_BLOB_EXECUTABLE, oid};
      } else if (kind < 86) {  // symlinks and type changes
        std::string target = "target/" + std::to_string(Below(5)) + (Chance(20) ? " \xc3\xa9" : "");
        (*a)[path] = {Chance(50) ? GIT_FILEMODE_LINK : GIT_FILEMODE_BLOB, Blob(target)};
        (*b)[path] = {Chance(50) ? GIT_FILEMODE_LINK : GIT_FILEMODE_BLOB_EXECUTABLE,
                      Blob(Chance(50) ? target : target + "2")};
      } else if (kind < 93) {  // gitlinks
        git_oid c = RandomOid();
        switch (Below(4)) {
          case 0:
            (*a)[path] = {GIT_FILEMODE_COMMIT, c};
            break;
          case 1:
            (*b)[path] = {GIT_FILEMODE_COMMIT, c};
            break;
          case 2:
            (*a)[path] = {GIT_FILEMODE_COMMIT, c};
            (*b)[path] = {GIT_FILEMODE_COMMIT, RandomOid()};
            break;
          default:
            (*a)[path] = {GIT_FILEMODE_COMMIT, c};
            (*b)[path] = {GIT_FILEMODE_BLOB, Blob(Text(3))};
        }
      } else {  // unchanged
        git_oid oid = Blob(Text(10));
        (*a)[path] = {GIT_FILEMODE_BLOB, oid};
        (*b)[path] = {GIT_FILEMODE_BLOB, oid};
      }
    }
  }

  git_oid WriteTree(const Tree& tree) { return WriteLevel(tree, "").first; }

 private:
  // Writes the subtree of entries under `prefix`; returns its id.
  std::pair<git_oid, bool> WriteLevel(const Tree& tree, const std::string& prefix) {
    git_treebuilder* builder = nullptr;
    REQUIRE(git_treebuilder_new(&builder, repo_, nullptr) == 0);
    auto it = tree.lower_bound(prefix);
    while (it != tree.end() && it->first.compare(0, prefix.size(), prefix) == 0) {
      std::string rest = it->first.substr(prefix.size());
      size_t slash = rest.find('/');
      if (slash == std::string::npos) {
        REQUIRE(git_treebuilder_insert(nullptr, builder, rest.c_str(), &it->second.oid,
                                       it->second.mode) == 0);
        ++it;
        continue;
      }
      std::string dir = rest.substr(0, slash);
      std::string sub = prefix + dir + "/";
      git_oid sub_id = WriteLevel(tree, sub).first;
      REQUIRE(git_treebuilder_insert(nullptr, builder, dir.c_str(), &sub_id, GIT_FILEMODE_TREE) ==
              0);
      while (it != tree.end() && it->first.compare(0, sub.size(), sub) == 0) ++it;
    }
    git_oid id;
    REQUIRE(git_treebuilder_write(&id, builder) == 0);
    git_treebuilder_free(builder);
    return {id, true};
  }

  git_repository* repo_;
  std::mt19937_64 rng_;
};

size_t CountSections(const std::string& patch) {
  size_t n = patch.compare(0, 11, "diff --git ") == 0 ? 1 : 0;
  for (size_t at = patch.find("\ndiff --git "); at != std::string::npos;
       at = patch.find("\ndiff --git ", at + 1)) {
    ++n;
  }
  return n;
}

uint64_t EnvNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::strtoull(v, nullptr, 10) : fallback;
}

}  // namespace

TEST_CASE("engine matches the git oracle on random trees", "[engine][fuzz]") {
  const uint64_t seed = EnvNumber("GENTLE_FUZZ_SEED", std::random_device{}());
  const uint64_t wanted = EnvNumber("GENTLE_FUZZ_PAIRS", 10000);
  INFO("GENTLE_FUZZ_SEED=" << seed);
  TempDir dir;
  const std::string git_dir = dir.path() + "/fuzz.git";
  git_libgit2_init();
  git_repository* raw = nullptr;
  REQUIRE(git_repository_init(&raw, git_dir.c_str(), 1) == 0);
  git_repository_free(raw);
  git_libgit2_shutdown();
  RepoHandle repo(git_dir);
  Generator gen(repo.get(), seed);
  auto store_repo = store::git::Repository::Discover(git_dir);
  REQUIRE(store_repo.ok());

  uint64_t file_pairs = 0;
  uint64_t tree_pairs = 0;
  uint64_t bytes = 0;
  uint64_t interdiffs = 0;
  while (file_pairs < wanted) {
    Tree a;
    Tree b;
    gen.Pair(120, &a, &b);
    char hex_a[GIT_OID_HEXSZ + 1];
    char hex_b[GIT_OID_HEXSZ + 1];
    git_oid id_a = gen.WriteTree(a);
    git_oid id_b = gen.WriteTree(b);
    git_oid_tostr(hex_a, sizeof(hex_a), &id_a);
    git_oid_tostr(hex_b, sizeof(hex_b), &id_b);
    for (int direction = 0; direction < 2; ++direction) {
      const std::string base = direction == 0 ? hex_a : hex_b;
      const std::string candidate = direction == 0 ? hex_b : hex_a;
      Result<std::string> oracle = OracleDiff(git_dir, base, candidate);
      REQUIRE(oracle.ok());
      auto engine = EngineDiff(repo.get(), base, candidate);
      INFO("tree pair " << tree_pairs << ": " << base << " -> " << candidate);
      INFO(engine.status().message());
      REQUIRE(engine.ok());
      INFO(FirstDifference(*oracle, engine->bytes));
      REQUIRE(engine->bytes == *oracle);
      // The same pair as round N's and the current round's candidate trees.
      auto interdiff =
          exporter::DeriveInterdiff(*store_repo, base, candidate, exporter::Engine::kNative);
      if (oracle->size() > exporter::kMaxContextBytes) {
        REQUIRE(interdiff.status().code() == Code::kBudgetExceeded);
      } else {
        INFO(interdiff.status().message());
        REQUIRE(interdiff.ok());
        INFO(FirstDifference(*oracle, interdiff->patch));
        REQUIRE(interdiff->patch == *oracle);
        ++interdiffs;
      }
      file_pairs += engine->manifest.size();
      bytes += oracle->size();
      REQUIRE(CountSections(engine->bytes) >= engine->manifest.size());
      ++tree_pairs;
    }
  }
  WARN("fuzz seed " << seed << ": " << tree_pairs << " tree pairs (" << interdiffs
                    << " also as interdiffs), " << file_pairs << " file pairs, " << bytes
                    << " patch bytes, all identical");
}

}  // namespace gentle::testing
