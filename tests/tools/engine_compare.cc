// engine-compare: runs the native patch engine and the pinned git oracle on every first-parent
// commit pair (C^1^{tree} -> C^{tree}) of a repository and reports how many are byte-identical.
//
//   engine-compare --repo DIR [--range A..B | --pair A B] [--max N] [--budget BYTES] [--show N]
//                  [--no-oracle] [--repeat N]
//
// Without --range the walk starts at HEAD. Differing pairs are split into per-file sections and
// each differing section is classified (binary, funcname, file-header, hunk-body).
#include <git2.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/git_env.h"
#include "tests/support/git_oracle.h"
#include "tests/support/process.h"

namespace {

using gentle::testing::Run;
using gentle::testing::RunResult;

std::vector<std::string> Sections(const std::string& patch) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < patch.size()) {
    size_t next = patch.find("\ndiff --git ", start);
    size_t end = next == std::string::npos ? patch.size() : next + 1;
    out.push_back(patch.substr(start, end - start));
    start = end;
  }
  return out;
}

std::string Classify(const std::string& expected, const std::string& actual) {
  if (expected.find("\nGIT binary patch\n") != std::string::npos) return "binary";
  size_t at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) ++at;
  size_t line = expected.rfind('\n', at == 0 ? 0 : at - 1);
  line = line == std::string::npos ? 0 : line + 1;
  if (expected.compare(line, 3, "@@ ") == 0) return "funcname";
  if (expected.find("\n@@ ") == std::string::npos || at < expected.find("\n@@ ")) {
    return "file-header";
  }
  return "hunk-body";
}

int Usage() {
  std::fprintf(stderr,
               "usage: engine-compare --repo DIR [--range A..B] [--max N] [--budget BYTES] "
               "[--show N] [--no-oracle] [--pair A B] [--repeat N]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string repo_dir, range;
  long max_pairs = -1;
  size_t budget = SIZE_MAX;
  int show = 3;
  std::string pair_from, pair_to;  // --pair A B: one pair, A's tree -> B's tree
  int repeat = 1;  // run the engine this many times per pair; the rest report the warm minimum
  bool no_oracle = false;  // time the engine alone (profiling); every pair counts as identical
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (arg == "--repo") {
      repo_dir = value();
    } else if (arg == "--range") {
      range = value();
    } else if (arg == "--max") {
      max_pairs = std::atol(value().c_str());
    } else if (arg == "--budget") {
      budget = std::strtoull(value().c_str(), nullptr, 10);
    } else if (arg == "--pair") {
      pair_from = value();
      pair_to = value();
    } else if (arg == "--repeat") {
      repeat = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--no-oracle") {
      no_oracle = true;
    } else if (arg == "--show") {
      show = std::atoi(value().c_str());
    } else {
      return Usage();
    }
  }
  if (repo_dir.empty()) return Usage();

  // Resolve the git dir and the commit list with git itself, under the oracle environment.
  const auto& env = gentle::testing::OracleEnv();
  RunResult gd = Run({"git", "-C", repo_dir, "rev-parse", "--absolute-git-dir"}, "", env);
  if (gd.exit_code != 0) {
    std::fprintf(stderr, "not a repository: %s\n", repo_dir.c_str());
    return 2;
  }
  std::string git_dir = gd.out.substr(0, gd.out.find('\n'));
  std::vector<std::string> rev_list = {"git", "--git-dir=" + git_dir, "rev-list", "--first-parent",
                                       "--parents"};
  if (max_pairs >= 0) rev_list.push_back("--max-count=" + std::to_string(max_pairs));
  rev_list.push_back(range.empty() ? "HEAD" : range);
  if (!pair_from.empty()) {
    // rev-parse prints B then A, the same "commit parent" shape rev-list --parents gives.
    rev_list = {"git", "--git-dir=" + git_dir, "rev-parse", pair_to + "^{commit}",
                pair_from + "^{commit}"};
  }
  RunResult rl = Run(rev_list, "", env);
  if (!pair_from.empty() && rl.exit_code == 0) {
    std::replace(rl.out.begin(), rl.out.end(), '\n', ' ');
    rl.out.back() = '\n';
  }
  if (rl.exit_code != 0) {
    std::fprintf(stderr, "rev-list failed: %s\n", rl.err.c_str());
    return 2;
  }

  gentle::testing::RepoHandle repo(git_dir);
  long pairs = 0, identical = 0, different = 0, failed = 0;
  std::map<std::string, long> class_sections, class_pairs;
  double engine_seconds = 0, oracle_seconds = 0;
  size_t bytes = 0;
  long text_pairs = 0;  // pairs without any binary section: no AppendBinaryPatch cost
  double text_engine_seconds = 0, text_oracle_seconds = 0;
  std::vector<std::tuple<double, double, std::string>> slowest;  // engine s, oracle s, commit
  size_t start = 0;
  while (start < rl.out.size()) {
    size_t nl = rl.out.find('\n', start);
    std::string line = rl.out.substr(start, nl - start);
    start = nl + 1;
    if (line.size() < 81) continue;  // a root commit: no first parent
    const std::string commit = line.substr(0, 40);
    const std::string parent = line.substr(41, 40);
    auto tree_of = [&](const std::string& c) {
      git_oid id;
      git_commit* obj = nullptr;
      git_oid_fromstr(&id, c.c_str());
      if (git_commit_lookup(&obj, repo.get(), &id) != 0) return std::string();
      char hex[GIT_OID_HEXSZ + 1];
      git_oid_tostr(hex, sizeof(hex), git_commit_tree_id(obj));
      git_commit_free(obj);
      return std::string(hex);
    };
    const std::string base = tree_of(parent);
    const std::string cand = tree_of(commit);
    ++pairs;
    auto t0 = std::chrono::steady_clock::now();
    gentle::exporter::PatchOptions options;
    options.max_bytes = budget;
    auto engine = gentle::testing::EngineDiff(repo.get(), base, cand, options);
    const double engine_first =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (repeat > 1) {
      double warm = 1e9;
      for (int r = 1; r < repeat; ++r) {
        auto w0 = std::chrono::steady_clock::now();
        auto again = gentle::testing::EngineDiff(repo.get(), base, cand, options);
        warm = std::min(
            warm, std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count());
        if (!again.ok() || !engine.ok() || again->bytes != engine->bytes) warm = -1;
      }
      std::printf("pair %s: engine first %.4f s, warm min %.4f s over %d runs\n", commit.c_str(),
                  engine_first, warm, repeat - 1);
    }
    auto t1 = std::chrono::steady_clock::now();
    auto oracle = no_oracle && engine.ok() ? gentle::Result<std::string>(engine->bytes)
                                           : gentle::testing::OracleDiff(git_dir, base, cand);
    auto t2 = std::chrono::steady_clock::now();
    engine_seconds += engine_first;
    slowest.emplace_back(engine_first, std::chrono::duration<double>(t2 - t1).count(), commit);
    oracle_seconds += std::chrono::duration<double>(t2 - t1).count();
    if (!engine.ok() || !oracle.ok()) {
      ++failed;
      std::printf("FAILED %s: engine=%s oracle=%s\n", commit.c_str(),
                  engine.ok() ? "ok" : engine.status().message().c_str(),
                  oracle.ok() ? "ok" : oracle.status().message().c_str());
      continue;
    }
    bytes += oracle->size();
    if (oracle->find("\nGIT binary patch\n") == std::string::npos) {
      ++text_pairs;
      text_engine_seconds += engine_first;
      text_oracle_seconds += std::chrono::duration<double>(t2 - t1).count();
    }
    if (engine->bytes == *oracle) {
      ++identical;
      continue;
    }
    ++different;
    std::vector<std::string> want = Sections(*oracle), got = Sections(engine->bytes);
    std::map<std::string, bool> seen;
    for (size_t i = 0; i < want.size() || i < got.size(); ++i) {
      const std::string w = i < want.size() ? want[i] : "", g = i < got.size() ? got[i] : "";
      if (w == g) continue;
      std::string cls = Classify(w, g);
      ++class_sections[cls];
      if (!seen[cls]) ++class_pairs[cls];
      seen[cls] = true;
    }
    if (show-- > 0) {
      std::printf("DIFFERENT %s\n%s\n", commit.c_str(),
                  gentle::testing::FirstDifference(*oracle, engine->bytes).c_str());
    }
  }
  std::printf("repo %s range %s\n", git_dir.c_str(),
              !pair_from.empty() ? (pair_from + " " + pair_to).c_str()
              : range.empty()    ? "HEAD"
                                 : range.c_str());
  std::printf("pairs %ld identical %ld different %ld failed %ld\n", pairs, identical, different,
              failed);
  for (const auto& [cls, n] : class_sections) {
    std::printf("class %s: %ld pairs / %ld sections\n", cls.c_str(), class_pairs[cls], n);
  }
  std::printf("patch bytes %zu; engine %.3f s in process, oracle %.3f s as processes\n", bytes,
              engine_seconds, oracle_seconds);
  std::printf("pairs without binary sections: %ld; engine %.3f s, oracle %.3f s\n", text_pairs,
              text_engine_seconds, text_oracle_seconds);
  std::sort(slowest.rbegin(), slowest.rend());
  for (size_t i = 0; i < slowest.size() && i < 5; ++i) {
    std::printf("slow: %s engine %.3f s oracle %.3f s\n", std::get<2>(slowest[i]).c_str(),
                std::get<0>(slowest[i]), std::get<1>(slowest[i]));
  }
  return different == 0 && failed == 0 ? 0 : 1;
}
