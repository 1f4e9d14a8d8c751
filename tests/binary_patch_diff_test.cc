// Differential test: AppendBinaryPatch against `git diff --binary` (core.loosecompression=1) on a
// seeded randomized corpus of binary pairs. Pairs are written into one temp repository per batch
// (many files per commit) so the number of git processes stays small. Environment overrides:
//   GENTLE_BINARY_SEED   corpus seed (printed on failure)
//   GENTLE_BINARY_PAIRS  number of pairs (default 3000)
//   GENTLE_BINARY_DUMP   directory that receives <n>.old/<n>.new of mismatching pairs
//   GENTLE_BINARY_STRICT =1 also fails on pairs flagged for the git CLI (to study them)
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "export/binary_patch.h"
#include "export/git_delta.h"
#include "export/zlib_deflate.h"
#include "tests/support/binary_patch_decode.h"
#include "tests/support/files.h"
#include "tests/support/git_repo.h"
#include "tests/support/temp_dir.h"

namespace gentle::exporter {
namespace {

struct Pair {
  std::string shape;
  std::string old_data;
  std::string new_data;
  bool old_exists = true;
  bool new_exists = true;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) {}

  Pair Next() {
    Pair p;
    switch (Below(15)) {
      case 0:
        p.shape = "random-independent";
        p.old_data = Random(Size());
        p.new_data = Random(Size());
        break;
      case 1:
        p.shape = "near-16";
        p.old_data = Random(1 + Below(40));
        p.new_data = Edit(p.old_data, 1 + Below(3));
        break;
      case 2:
        p.shape = "random-edits";
        p.old_data = Random(Size());
        p.new_data = Edit(p.old_data, 1 + Below(8));
        break;
      case 3:
        p.shape = "text-like-edits";
        p.old_data = TextLike(Size());
        p.new_data = Edit(p.old_data, 1 + Below(20));
        break;
      case 4:
        p.shape = "runs";
        p.old_data = Runs(Size());
        p.new_data = Edit(p.old_data, 1 + Below(6));
        break;
      case 5:
        p.shape = "repeated-blocks";
        p.old_data = Repeated(Size());
        p.new_data = Edit(p.old_data, 1 + Below(6));
        break;
      case 6:
        p.shape = "around-64k";
        p.old_data = Random(0x10000 - 64 + Below(128));
        p.new_data = Edit(p.old_data, 1 + Below(3));
        break;
      case 7:
        p.shape = "big-copies";
        p.old_data = Random(0x10000 * (1 + Below(4)) + Below(40000));
        p.new_data = Edit(p.old_data, 1 + Below(4));
        break;
      case 8:
        p.shape = "mixed-structure";
        p.old_data = Mixed(Size());
        p.new_data = Edit(p.old_data, 1 + Below(10));
        break;
      case 9:
        p.shape = "added-or-deleted";
        p.old_data = Random(Size());
        if (Below(2)) {
          p.new_exists = false;
        } else {
          p.new_data.swap(p.old_data);
          p.old_exists = false;
        }
        break;
      case 10:
        p.shape = "shuffled-chunks";
        p.old_data = Mixed(Size());
        p.new_data = Shuffle(p.old_data);
        break;
      case 12:
        // Zero padding with sparse small values: the windows git files in predictable buckets.
        p.shape = "sparse-zeros";
        p.old_data = Sparse(Size());
        p.new_data = Below(3) ? Edit(p.old_data, 1 + Below(6)) : Sparse(p.old_data.size());
        break;
      case 13:
        p.shape = "record-table";
        p.old_data = Records(Size());
        p.new_data = Edit(p.old_data, 1 + Below(10));
        break;
      default:
        p.shape = "empty-side";
        p.old_data = Below(2) ? "" : Random(1 + Below(300));
        p.new_data = p.old_data.empty() ? Random(1 + Below(300)) : "";
        break;
    }
    if (p.old_exists && p.new_exists && p.old_data == p.new_data) p.new_data.push_back('\x01');
    return p;
  }

  // Pairs whose raw delta lands near the cap (the literal's zlib size): an incompressible tail Y
  // copied from the source after a compressible inserted head X whose last k bytes precede Y in the
  // source, so the final copy's backward extension shrinks the delta after it peaked.
  Pair CapEdge() {
    Pair p;
    p.shape = "cap-edge";
    size_t ny = 1000 + Below(3000);
    std::string y = Random(ny);
    std::string z = Random(100 + Below(400));
    size_t k = 1 + Below(std::min<size_t>(120, z.size()));
    std::string x = Letters(ny + ny / 3 + Below(ny)) + z.substr(z.size() - k);
    p.old_data = z + y;
    p.new_data = x + y;
    return p;
  }

  // A pair from real file contents: an edited copy, or (sometimes) another real file.
  Pair RealFile(const std::vector<std::string>& files) {
    Pair p;
    p.shape = "real-file";
    p.old_data = files[Below(files.size())];
    if (Below(8) == 0) {
      p.new_data = files[Below(files.size())];
    } else {
      p.new_data = Edit(p.old_data, 1 + Below(8));
    }
    if (p.old_data == p.new_data) p.new_data.push_back('\x01');
    return p;
  }

  // A few-megabyte pair, generated separately so the default run stays quick.
  Pair Large() {
    Pair p;
    p.shape = "large";
    size_t n = (1 << 20) + Below(2 << 20);
    p.old_data = Below(2) ? Random(n) : Mixed(n);
    p.new_data = Edit(p.old_data, 1 + Below(30));
    return p;
  }

 private:
  size_t Below(size_t n) { return static_cast<size_t>(rng_() % n); }

  size_t Size() {
    switch (Below(5)) {
      case 0:
        return 1 + Below(64);
      case 1:
        return 1 + Below(1024);
      case 2:
        return 1 + Below(16384);
      case 3:
        return 1 + Below(100000);
      default:
        return 1 + Below(8192);
    }
  }

  std::string Random(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng_());
    return s;
  }

  std::string TextLike(size_t n) {
    static const std::string kAlpha = "etaoin shrdlu\n\0\x01{}()=;";
    std::string s(n, '\0');
    for (char& c : s) c = kAlpha[Below(kAlpha.size())];
    return s;
  }

  std::string Letters(size_t n) {
    std::string s(n, '\0');
    for (char& c : s) c = "acgt"[Below(4)];
    return s;
  }

  std::string Sparse(size_t n) {
    std::string s(n, '\0');
    size_t flips = 1 + Below(1 + n / 16);
    for (size_t i = 0; i < flips && n > 0; ++i)
      s[Below(n)] = static_cast<char>(1 + Below(Below(2) ? 4 : 255));
    return s;
  }

  // Fixed-size records of small little-endian integers, like tables in object files.
  std::string Records(size_t n) {
    size_t width = 4 * (1 + Below(12));
    std::string s;
    for (uint32_t i = 0; s.size() < n; ++i) {
      for (size_t f = 0; f < width; f += 4) {
        uint32_t v = Below(3) == 0 ? i : static_cast<uint32_t>(Below(Below(2) ? 16 : 70000));
        for (int b = 0; b < 4; ++b) s.push_back(static_cast<char>(v >> (8 * b)));
      }
    }
    s.resize(n);
    return s;
  }

  std::string Runs(size_t n) {
    std::string s;
    while (s.size() < n) s.append(1 + Below(Below(2) ? 40 : 3000), static_cast<char>(Below(3)));
    s.resize(n);
    return s;
  }

  std::string Repeated(size_t n) {
    size_t period = 1 + Below(Below(2) ? 70 : 600);
    std::string unit = Random(period);
    std::string s;
    while (s.size() < n) s += unit;
    s.resize(n);
    return s;
  }

  std::string Mixed(size_t n) {
    std::string s;
    while (s.size() < n) {
      switch (Below(4)) {
        case 0:
          s += Random(1 + Below(2000));
          break;
        case 1:
          s += TextLike(1 + Below(2000));
          break;
        case 2:
          s.append(1 + Below(500), '\0');
          break;
        default:
          s += Repeated(1 + Below(1000));
          break;
      }
    }
    s.resize(n);
    return s;
  }

  std::string Shuffle(const std::string& s) {
    std::vector<std::string> chunks;
    for (size_t i = 0; i < s.size();) {
      size_t n = 1 + Below(5000);
      chunks.push_back(s.substr(i, n));
      i += n;
    }
    std::shuffle(chunks.begin(), chunks.end(), rng_);
    std::string out;
    for (const auto& c : chunks) out += c;
    return out;
  }

  std::string Edit(std::string s, size_t edits) {
    for (size_t e = 0; e < edits; ++e) {
      size_t at = s.empty() ? 0 : Below(s.size() + 1);
      switch (Below(5)) {
        case 0:  // overwrite
          for (size_t k = 0, n = 1 + Below(20); k < n && at + k < s.size(); ++k)
            s[at + k] = static_cast<char>(rng_());
          break;
        case 1:  // insert
          s.insert(at, Random(1 + Below(Below(2) ? 20 : 3000)));
          break;
        case 2:  // delete
          s.erase(at, 1 + Below(Below(2) ? 20 : 3000));
          break;
        case 3: {  // duplicate an existing block elsewhere
          if (s.empty()) break;
          size_t from = Below(s.size());
          std::string block = s.substr(from, 1 + Below(5000));
          s.insert(at, block);
          break;
        }
        default:  // truncate or extend the tail
          if (Below(2)) {
            s.resize(at);
          } else {
            s += Random(1 + Below(100));
          }
          break;
      }
    }
    return s;
  }

  std::mt19937_64 rng_;
};

uint64_t EnvNumber(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

struct Tally {
  size_t pairs = 0;
  size_t identical = 0;
  size_t flagged = 0;
  size_t flagged_identical = 0;
  size_t deltas = 0;
  size_t cap_decided = 0;   // uncapped delta would have won, but its raw size exceeds the cap
  size_t peak_decided = 0;  // final raw size fits the cap, the running size did not
};

// Counts pairs where the max_size cap, or its running-size form, decided literal over delta.
void TallyCap(std::string_view src, std::string_view trg, Tally* tally) {
  if (src.empty() || trg.empty()) return;
  auto literal = DeflateZlib(trg, 1);
  auto free_delta = CreateGitDelta(src, trg, 0);
  if (!literal.ok() || !free_delta) return;
  auto packed = DeflateZlib(*free_delta, 1);
  if (!packed.ok() || packed->size() >= literal->size()) return;
  if (free_delta->size() > literal->size()) ++tally->cap_decided;
  if (free_delta->size() <= literal->size() && !CreateGitDelta(src, trg, literal->size())) {
    ++tally->peak_decided;
  }
}

// Runs one batch through git and compares every file's section; returns mismatch descriptions.
std::vector<std::string> RunBatch(const std::vector<Pair>& pairs, uint64_t seed, size_t first_index,
                                  Tally* tally) {
  testing::TempDir dir;
  const std::string& root = dir.path();
  // Loose objects compressed fast: the batches are large.
  auto git = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"-c", "core.loosecompression=1"});
    return testing::Git(root, args);
  };
  git({"init", "-q", "."});
  testing::WriteFile(root + "/.git/info/attributes", "* binary\n");
  auto name = [](size_t i) { return "f" + std::to_string(i) + ".bin"; };
  auto commit = [&](bool new_side) {
    for (size_t i = 0; i < pairs.size(); ++i) {
      const Pair& p = pairs[i];
      std::string path = root + "/" + name(i);
      bool exists = new_side ? p.new_exists : p.old_exists;
      if (exists) {
        testing::WriteFile(path, new_side ? p.new_data : p.old_data);
      } else {
        std::filesystem::remove(path);
      }
    }
    git({"add", "-A"});
    git({"commit", "-q", "--allow-empty", "-m", "x"});
  };
  commit(false);
  commit(true);
  std::string diff = git({"diff", "--binary", "--full-index", "--no-renames", "HEAD~1", "HEAD"});
  auto sections = testing::SplitBinarySections(diff);
  std::vector<std::string> failures;
  const char* dump = std::getenv("GENTLE_BINARY_DUMP");
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Pair& p = pairs[i];
    std::string mine;
    Status st = AppendBinaryPatch(p.old_data, p.new_data, &mine);
    REQUIRE(st.ok());
    const std::string& theirs = sections[name(i)];
    bool same = mine == theirs;
    bool flagged = !BinaryPatchIsGitIdenticalFor(p.old_data, p.new_data);
    ++tally->pairs;
    TallyCap(p.old_data, p.new_data, tally);
    TallyCap(p.new_data, p.old_data, tally);
    if (same) ++tally->identical;
    if (flagged) ++tally->flagged;
    if (flagged && same) ++tally->flagged_identical;
    if (theirs.find("\ndelta ") != std::string::npos) ++tally->deltas;
    if (same || (flagged && !std::getenv("GENTLE_BINARY_STRICT"))) continue;
    std::string why = "seed=" + std::to_string(seed) + " pair=" + std::to_string(first_index + i) +
                      " shape=" + p.shape + " old=" + std::to_string(p.old_data.size()) +
                      " new=" + std::to_string(p.new_data.size()) + (flagged ? " flagged" : "");
    auto a = testing::ParseBinarySection(mine);
    auto b = testing::ParseBinarySection(theirs);
    if (a.ok() && b.ok()) {
      auto show = [](const testing::BinaryHunk& h) {
        return std::string(h.is_delta ? "delta " : "literal ") + std::to_string(h.declared_size) +
               (h.is_delta ? "\n" + testing::DescribeDelta(h.payload) : "\n");
      };
      for (auto [x, y, label] : {std::tuple(&a->first, &b->first, "forward"),
                                 std::tuple(&a->second, &b->second, "reverse")}) {
        if (x->is_delta == y->is_delta && x->payload == y->payload) continue;
        std::string sx = show(*x), sy = show(*y);
        why += std::string("\n") + label + " mine:\n" + sx.substr(0, 3000) + "git:\n" +
               sy.substr(0, 3000);
      }
    } else {
      why += "\n(could not parse a section)";
    }
    if (dump) {
      std::filesystem::create_directories(dump);
      std::string base = std::string(dump) + "/" + std::to_string(first_index + i);
      testing::WriteFile(base + ".old", p.old_data);
      testing::WriteFile(base + ".new", p.new_data);
    }
    failures.push_back(why);
  }
  return failures;
}

enum class Corpus { kMixed, kLarge, kCapEdge, kReal };

void RunCorpus(uint64_t seed, size_t pairs, size_t batch_size, Corpus corpus,
               const std::vector<std::string>& real_files = {}) {
  Generator gen(seed);
  Tally tally;
  std::vector<std::string> failures;
  for (size_t done = 0; done < pairs && failures.size() < 5;) {
    std::vector<Pair> batch;
    for (size_t k = 0; k < batch_size && done + k < pairs; ++k) {
      batch.push_back(corpus == Corpus::kLarge     ? gen.Large()
                      : corpus == Corpus::kCapEdge ? gen.CapEdge()
                      : corpus == Corpus::kReal    ? gen.RealFile(real_files)
                                                   : gen.Next());
    }
    auto f = RunBatch(batch, seed, done, &tally);
    failures.insert(failures.end(), f.begin(), f.end());
    done += batch.size();
  }
  std::cout << "binary patch differential (seed " << seed << "): " << tally.pairs << " pairs, "
            << tally.identical << " identical, " << tally.deltas << " git deltas, " << tally.flagged
            << " flagged for the git CLI (" << tally.flagged_identical
            << " of them identical anyway); the cap decided " << tally.cap_decided
            << " hunks, the running-size cap " << tally.peak_decided << "\n";
  INFO("seed " << seed << " (set GENTLE_BINARY_SEED to reproduce)");
  for (const auto& f : failures) {
    UNSCOPED_INFO(f);
  }
  CHECK(failures.empty());
}

}  // namespace

TEST_CASE("AppendBinaryPatch matches git diff --binary on a randomized corpus") {
  uint64_t seed = EnvNumber("GENTLE_BINARY_SEED", 20261130);
  size_t pairs = EnvNumber("GENTLE_BINARY_PAIRS", 3000);
  RunCorpus(seed, pairs, 250, Corpus::kMixed);
}

TEST_CASE("AppendBinaryPatch matches git diff --binary on multi-megabyte files") {
  uint64_t seed = EnvNumber("GENTLE_BINARY_SEED", 20261130) + 1;
  RunCorpus(seed, 6, 6, Corpus::kLarge);
}

TEST_CASE("AppendBinaryPatch matches git where the delta size meets the literal cap") {
  uint64_t seed = EnvNumber("GENTLE_BINARY_SEED", 20261130) + 2;
  RunCorpus(seed, 1000, 250, Corpus::kCapEdge);
}

}  // namespace gentle::exporter

namespace gentle::exporter {

// Hidden (run with "[real]"): edits of the real files under GENTLE_BINARY_REAL_DIR (up to 2 MiB
// each).
TEST_CASE("AppendBinaryPatch matches git diff --binary on edits of real files", "[.][real]") {
  const char* dir = std::getenv("GENTLE_BINARY_REAL_DIR");
  if (dir == nullptr) return;
  std::vector<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           dir, std::filesystem::directory_options::skip_permission_denied)) {
    std::error_code ec;
    if (!e.is_regular_file(ec) || e.is_symlink(ec)) continue;
    auto size = e.file_size(ec);
    if (ec || size == 0 || size > (2u << 20)) continue;
    files.push_back(testing::ReadFile(e.path().string()));
    if (files.size() >= 400) break;
  }
  REQUIRE(!files.empty());
  uint64_t seed = EnvNumber("GENTLE_BINARY_SEED", 20261130) + 3;
  RunCorpus(seed, EnvNumber("GENTLE_BINARY_PAIRS", 300), 100, Corpus::kReal, files);
}

}  // namespace gentle::exporter
