// Known-answer tests: every digest formula against fixtures/vectors/digests.json, vectors computed
// by an independent implementation with their preimages spelled out.
#include "store/digests.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "store/go_json.h"
#include "store/sha256.h"

namespace gentle::store {
namespace {

nlohmann::json LoadVectors() {
  std::ifstream in(std::string(GENTLE_FIXTURES_DIR) + "/vectors/digests.json");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return nlohmann::json::parse(buffer.str());
}

std::string HexDecode(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  }
  return out;
}

std::vector<std::string> Strings(const nlohmann::json& array) {
  std::vector<std::string> out;
  for (const auto& v : array) out.push_back(v.get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("LP is decimal length - NUL - bytes - NUL") {
  CHECK(LengthPrefixed("abc") == std::string("3\0abc\0", 6));
  CHECK(LengthPrefixed("") == std::string("0\0\0", 3));
}

TEST_CASE("paths digest matches the independent vectors") {
  int checked = 0;
  const nlohmann::json all = LoadVectors();
  for (const auto& v : all["vectors"]) {
    if (v["kind"] != "paths_digest") continue;
    auto paths = Strings(v["paths_sorted"]);
    std::string preimage = HexDecode(v["preimage_hex"]);
    std::string built = std::string("gentle-ai.paths/v1\0", 19);
    for (const auto& p : paths) built += LengthPrefixed(p);
    CHECK(built == preimage);
    CHECK("sha256:" + Sha256Hex(preimage) == v["digest"].get<std::string>());
    CHECK(PathsDigest(paths) == v["digest"].get<std::string>());
    ++checked;
  }
  CHECK(checked == 4);
}

TEST_CASE("snapshot identity matches the independent vectors (v3 and staged v4)") {
  int checked = 0;
  const nlohmann::json all = LoadVectors();
  for (const auto& v : all["vectors"]) {
    if (v["kind"] != "snapshot_identity") continue;
    IdentityInputs in{v["snapshot_kind"],  v["projection"],   v["base_tree"],
                      v["candidate_tree"], v["paths_digest"], Strings(v["ledger_ids"])};
    CHECK("sha256:" + Sha256Hex(HexDecode(v["preimage_hex"])) == v["identity"].get<std::string>());
    CHECK(SnapshotIdentity(in) == v["identity"].get<std::string>());
    ++checked;
  }
  CHECK(checked == 3);
}

TEST_CASE("worktree identity - lineage id - revision and tombstone key match the vectors") {
  int checked = 0;
  const nlohmann::json all = LoadVectors();
  for (const auto& v : all["vectors"]) {
    if (v["kind"] == "worktree_identity") {
      auto doc = nlohmann::json::parse(v["json"].get<std::string>());
      std::string json = WorktreeIdentityJson(doc["repository_root"].get<std::string>(),
                                              doc["git_common_dir"].get<std::string>(),
                                              doc["git_dir"].get<std::string>());
      CHECK(json == v["json"].get<std::string>());
      CHECK(WorktreeIdentity(json) == v["worktree_identity"].get<std::string>());
    } else if (v["kind"] == "lineage_id") {
      auto doc = nlohmann::json::parse(v["json"].get<std::string>());
      std::string preimage = HexDecode(v["preimage_hex"]);
      CHECK(preimage ==
            std::string("gentle-ai.review-start-lineage/v3\0", 34) + v["json"].get<std::string>());
      CHECK(DerivedLineageId(doc["worktree_identity"].get<std::string>(),
                             doc["target_identity"].get<std::string>()) ==
            v["lineage"].get<std::string>());
    } else if (v["kind"] == "revision") {
      std::string compact = CompactJson(v["state_as_indented_in_file"].get<std::string>());
      CHECK(compact == v["state_compacted"].get<std::string>());
      CHECK(StateRevision(compact) == v["revision"].get<std::string>());
    } else if (v["kind"] == "tombstone_key") {
      std::string key = RepoKey(v["worktree_root"].get<std::string>());
      CHECK(key == v["repo_key"].get<std::string>());
      CHECK(TombstoneFileName(key, v["target_identity"].get<std::string>()) ==
            v["file_name"].get<std::string>());
    } else {
      continue;
    }
    ++checked;
  }
  CHECK(checked == 4);
}

TEST_CASE("Go string quoting escapes what encoding/json escapes") {
  CHECK(QuoteGoString("a<b>&c") == "\"a\\u003cb\\u003e\\u0026c\"");
  CHECK(QuoteGoString("tab\there\nnl") == "\"tab\\there\\nnl\"");
  CHECK(QuoteGoString(std::string("\x01", 1)) == "\"\\u0001\"");
  CHECK(QuoteGoString("caf\xc3\xa9") == "\"caf\xc3\xa9\"");
  CHECK(QuoteGoString("bad\xff") == "\"bad\\ufffd\"");
  CHECK(QuoteGoString("\xe2\x80\xa8") == "\"\\u2028\"");
  CHECK(QuoteGoString("q\"b\\") == "\"q\\\"b\\\\\"");
}

TEST_CASE("CompactJson keeps string bytes and drops outside whitespace") {
  CHECK(CompactJson("{ \"a b\" : [ 1 , \"x \\\" y\" ] }\n") == "{\"a b\":[1,\"x \\\" y\"]}");
}

TEST_CASE("CompactJson: escapes - a backslash before the closing quote - unterminated strings") {
  // An escaped backslash ends before the quote, which then closes the string.
  CHECK(CompactJson("[ \"a\\\\\" , 2 ]") == "[\"a\\\\\",2]");
  // Whitespace inside strings (also escaped forms) is kept byte for byte.
  CHECK(CompactJson("{\"k\":\" \\t\t\\n \"}") == "{\"k\":\" \\t\t\\n \"}");
  // Text the parser would refuse is still copied, never read past its end.
  CHECK(CompactJson("\"open \\") == "\"open \\");
  CHECK(CompactJson("\"open  x") == "\"open  x");
  CHECK(CompactJson(" \r\n\t ") == "");
}

TEST_CASE("sha256 ids are sha256: plus 64 lowercase hex") {
  CHECK(IsSha256Id("sha256:" + std::string(64, 'a')));
  CHECK_FALSE(IsSha256Id("sha256:" + std::string(64, 'A')));
  CHECK_FALSE(IsSha256Id("sha256:" + std::string(63, 'a')));
  CHECK_FALSE(IsSha256Id("sha1:" + std::string(64, 'a')));
}

}  // namespace gentle::store
