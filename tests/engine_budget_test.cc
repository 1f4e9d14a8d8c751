// The budget as a proof from object sizes: a patch whose blobs' sizes (and first bytes) already
// pass the budget is refused before those blobs are inflated whole; a large side whose section
// has no content on the other side is read as a stream, its literal deflated as it is read; and
// none of it changes a byte of a patch that fits, nor refuses one (the oracle is the pinned git
// CLI). "Not inflated" is proven by damaging the loose object past the bytes the refusal may read
// (tests/support/damaged_object.h): any whole read of it fails.
#include <git2.h>
#include <zlib.h>

#include <catch2/catch.hpp>
#include <map>
#include <random>

#include "export/patch_bound.h"
#include "export/patch_engine.h"
#include "store/git/object_reader.h"
#include "store/git/repository.h"
#include "store/git/tree_rows.h"
#include "tests/support/bare_repo.h"
#include "tests/support/damaged_object.h"
#include "tests/support/git_oracle.h"
#include "tests/support/git_repo.h"

namespace gentle::testing {
namespace {

constexpr size_t kMiB = 1024 * 1024;

std::string TextOf(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) text += "line number " + std::to_string(i) + "\n";
  text.resize(bytes);
  text.back() = '\n';
  return text;
}

// Bytes no deflate shrinks; a NUL first makes git call them binary.
std::string NoiseOf(size_t bytes, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string data(bytes, '\0');
  for (size_t i = 1; i < bytes; ++i) data[i] = static_cast<char>(gen() & 0xff);
  return data;
}

// Binary, and highly compressible: mostly zeros with a sparse pattern.
std::string SparseBinaryOf(size_t bytes) {
  std::string data(bytes, '\0');
  for (size_t i = 0; i < bytes; i += 4099) data[i] = static_cast<char>('a' + i % 23);
  return data;
}

bool WholeReadFails(BareRepo& repo, const git_oid& oid) {
  return !store::git::LookupBlob(repo.get(), oid).ok();
}

void ExpectIdentical(BareRepo& repo, const git_oid& base, const git_oid& cand) {
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(base), BareRepo::Hex(cand));
  REQUIRE(oracle.ok());
  auto engine = exporter::DerivePatch(repo.get(), base, cand, {});
  INFO(engine.status().message());
  REQUIRE(engine.ok());
  CHECK(FirstDifference(*oracle, engine->bytes) == "");
  // The budget cut is exact: the whole patch fits its own size and not one byte less.
  exporter::PatchOptions exact;
  exact.max_bytes = oracle->size();
  CHECK(exporter::DerivePatch(repo.get(), base, cand, exact).ok());
  exact.max_bytes = oracle->size() - 1;
  CHECK(exporter::DerivePatch(repo.get(), base, cand, exact).status().code() ==
        Code::kBudgetExceeded);
}

}  // namespace

TEST_CASE("a text blob whose size passes the budget is refused without inflating it") {
  BareRepo repo;
  const std::string big = TextOf(5 * kMiB);
  const git_oid blob = repo.Blob(big);
  const git_oid empty = repo.Tree({});
  const git_oid with = repo.Tree({{"big.txt", GIT_FILEMODE_BLOB, blob}});
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(empty), BareRepo::Hex(with));
  REQUIRE(oracle.ok());
  REQUIRE(oracle->size() > exporter::PatchOptions{}.max_bytes);

  DamageLooseBlobTail(repo.git_dir(), BareRepo::Hex(blob), big, 0.5);
  REQUIRE(WholeReadFails(repo, blob));
  for (auto [base, cand] : {std::pair{empty, with}, std::pair{with, empty}}) {
    auto refused = exporter::DerivePatch(repo.get(), base, cand, {});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Code::kBudgetExceeded);
  }
}

TEST_CASE("a binary blob is refused as its literal is deflated - before the rest is read") {
  BareRepo repo;
  const std::string noise = NoiseOf(5 * kMiB, 7);
  const git_oid blob = repo.Blob(noise);
  const git_oid empty = repo.Tree({});
  const git_oid with = repo.Tree({{"noise.bin", GIT_FILEMODE_BLOB, blob}});
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(empty), BareRepo::Hex(with));
  REQUIRE(oracle.ok());
  REQUIRE(oracle->size() > exporter::PatchOptions{}.max_bytes);

  // 4 MiB of base85 holds about 3.2 MiB of deflated noise: the last quarter is never read.
  DamageLooseBlobTail(repo.git_dir(), BareRepo::Hex(blob), noise, 0.75);
  REQUIRE(WholeReadFails(repo, blob));
  for (auto [base, cand] : {std::pair{empty, with}, std::pair{with, empty}}) {
    auto refused = exporter::DerivePatch(repo.get(), base, cand, {});
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.status().code() == Code::kBudgetExceeded);
  }
}

TEST_CASE("sizes refuse a patch before any blob is read - even after many that fit") {
  BareRepo repo;
  std::vector<std::tuple<std::string, git_filemode_t, git_oid>> entries;
  std::vector<std::string> contents;
  for (int i = 0; i < 40; ++i) {
    contents.push_back(TextOf(2000 + static_cast<size_t>(i)));
    entries.emplace_back("f" + std::to_string(100 + i), GIT_FILEMODE_BLOB,
                         repo.Blob(contents.back()));
  }
  contents.push_back(TextOf(5 * kMiB));
  entries.emplace_back("zz-big.txt", GIT_FILEMODE_BLOB, repo.Blob(contents.back()));
  const git_oid empty = repo.Tree({});
  const git_oid full = repo.Tree(entries);
  // Every blob damaged past its first half: only what the headers and the first bytes say can
  // refuse the patch; reading any file whole, the first one included, would fail.
  for (size_t i = 0; i < entries.size(); ++i) {
    DamageLooseBlobTail(repo.git_dir(), BareRepo::Hex(std::get<2>(entries[i])), contents[i], 0.5);
    REQUIRE(WholeReadFails(repo, std::get<2>(entries[i])));
  }
  auto refused = exporter::DerivePatch(repo.get(), empty, full, {});
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().code() == Code::kBudgetExceeded);
}

TEST_CASE("streamed sections are byte-identical to git - loose and packed") {
  BareRepo repo;
  // Each large enough to stream; together within the budget in every direction below.
  const git_oid text = repo.Blob(TextOf(kMiB + 17));
  const git_oid sparse = repo.Blob(SparseBinaryOf(8 * kMiB + 3));
  const git_oid noise = repo.Blob(NoiseOf(kMiB + 5, 11));
  const git_oid empty_blob = repo.Blob("");
  const git_oid small = repo.Blob("small\n");
  const git_oid link = repo.Blob("target/of/link");
  const git_oid none = repo.Tree({});
  const git_oid base = repo.Tree({{"deleted.bin", GIT_FILEMODE_BLOB, sparse},
                                  {"emptied.txt", GIT_FILEMODE_BLOB, text},
                                  {"filled.bin", GIT_FILEMODE_BLOB, empty_blob},
                                  {"retyped", GIT_FILEMODE_BLOB, sparse},
                                  {"small.txt", GIT_FILEMODE_BLOB, small}});
  const git_oid cand = repo.Tree({{"added.txt", GIT_FILEMODE_BLOB, text},
                                  {"emptied.txt", GIT_FILEMODE_BLOB, empty_blob},
                                  {"filled.bin", GIT_FILEMODE_BLOB, noise},
                                  {"new.bin", GIT_FILEMODE_BLOB_EXECUTABLE, sparse},
                                  {"retyped", GIT_FILEMODE_LINK, link},
                                  {"small.txt", GIT_FILEMODE_BLOB, link}});
  SECTION("loose: read as streams") {
    ExpectIdentical(repo, base, cand);
    ExpectIdentical(repo, cand, base);
    ExpectIdentical(repo, none, cand);
  }
  SECTION("packed: read whole") {
    repo.Repack({base, cand});
    ExpectIdentical(repo, base, cand);
    ExpectIdentical(repo, cand, base);
  }
}

TEST_CASE("each change's lower bound is at most its section's bytes") {
  BareRepo repo;
  std::map<std::string, std::string> contents;
  auto blob = [&](const std::string& data) {
    const git_oid oid = repo.Blob(data);
    contents[BareRepo::Hex(oid)] = data;
    return oid;
  };
  const git_oid a = blob(TextOf(300000));
  const git_oid b = blob(TextOf(310000));
  const git_oid zeros = blob(std::string(3 * kMiB, '\0'));
  const git_oid noise = blob(NoiseOf(200000, 3));
  const git_oid noise2 = blob(NoiseOf(200000, 4));
  const git_oid empty_blob = blob("");
  git_oid commit;
  REQUIRE(git_oid_fromstr(&commit, "1111111111111111111111111111111111111111") == 0);
  const git_oid base = repo.Tree({{"a", GIT_FILEMODE_BLOB, a},
                                  {"b", GIT_FILEMODE_BLOB, zeros},
                                  {"c", GIT_FILEMODE_BLOB, noise},
                                  {"d", GIT_FILEMODE_BLOB, a},
                                  {"g", GIT_FILEMODE_COMMIT, commit},
                                  {"m", GIT_FILEMODE_BLOB, a},
                                  {"space name", GIT_FILEMODE_BLOB, empty_blob}});
  const git_oid cand = repo.Tree({{"a", GIT_FILEMODE_BLOB, b},
                                  {"c", GIT_FILEMODE_BLOB, noise2},
                                  {"d", GIT_FILEMODE_LINK, a},
                                  {"e", GIT_FILEMODE_BLOB, zeros},
                                  {"g", GIT_FILEMODE_BLOB, noise},
                                  {"m", GIT_FILEMODE_BLOB_EXECUTABLE, a},
                                  {"space name", GIT_FILEMODE_BLOB, a},
                                  {"z", GIT_FILEMODE_BLOB, empty_blob}});
  auto changes = exporter::DiffTrees(repo.get(), base, cand);
  REQUIRE(changes.ok());
  auto odb = store::git::RepositoryOdb(repo.get());
  REQUIRE(odb.ok());
  std::vector<exporter::ChangeFacts> facts = exporter::GatherFacts(odb->get(), *changes);
  size_t total = 0;
  uint64_t bound_total = 0;
  for (size_t i = 0; i < changes->size(); ++i) {
    const exporter::TreeChange& c = (*changes)[i];
    exporter::ChangeFacts f = facts[i];
    REQUIRE(f.known);
    uint64_t unknown_kind_bound = exporter::ChangeLowerBound(c, f);
    // With every kind known the bound is at its highest.
    auto kind = [&](uint32_t mode, const git_oid& oid, exporter::SideFacts* side) {
      if (mode == 0 || mode == GIT_FILEMODE_COMMIT) return;
      side->kind = exporter::KindFromPrefix(side->size, contents.at(BareRepo::Hex(oid)));
    };
    kind(c.old_mode, c.old_oid, &f.old_side);
    kind(c.new_mode, c.new_oid, &f.new_side);
    const uint64_t bound = exporter::ChangeLowerBound(c, f);
    CHECK(unknown_kind_bound <= bound);
    auto section = exporter::WritePatch(repo.get(), {c}, {});
    REQUIRE(section.ok());
    INFO(c.path << ": bound " << bound << ", section " << section->bytes.size());
    CHECK(bound <= section->bytes.size());
    CHECK(bound > 0);
    total += section->bytes.size();
    bound_total += bound;
  }
  auto whole = exporter::DerivePatch(repo.get(), base, cand, {});
  REQUIRE(whole.ok());
  CHECK(whole->bytes.size() == total);
  auto oracle = OracleDiff(repo.git_dir(), BareRepo::Hex(base), BareRepo::Hex(cand));
  REQUIRE(oracle.ok());
  CHECK(FirstDifference(*oracle, whole->bytes) == "");
  // The refusal from sizes holds back exactly as far as the bounds reach.
  CHECK(exporter::RefuseIfProvablyOverBudget(odb->get(), *changes, bound_total, &facts).ok());
}

TEST_CASE("the deflate lower bound holds for the most compressible input") {
  for (size_t n : {size_t{0}, size_t{1}, size_t{258}, size_t{1032}, size_t{65536}, 4 * kMiB}) {
    std::string zeros(n, '\0');
    for (int level : {1, 6, 9}) {
      uLongf out_size = compressBound(static_cast<uLong>(n));
      std::string out(out_size, '\0');
      REQUIRE(compress2(reinterpret_cast<Bytef*>(out.data()), &out_size,
                        reinterpret_cast<const Bytef*>(zeros.data()), static_cast<uLong>(n),
                        level) == Z_OK);
      INFO(n << " bytes at level " << level << ": " << out_size);
      CHECK(exporter::DeflatedLowerBound(n) <= out_size);
    }
  }
}

}  // namespace gentle::testing
