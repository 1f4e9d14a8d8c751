// `review fsck` and entries that are not part of the store's layout, through the built CLI: a stray
// `.atomic-*` temp file beside a complete record (`interrupted_write`), a junk file, a
// subdirectory, a FIFO or a symlink out of the store inside a lineage directory, a symlink at the
// store root or inside gentle-ai's own member directories (`unexpected_entry`), each reported with
// its exact code, lineage and path while the git common dir and the link's target stay
// byte-identical. gentle-ai's known lineage members are not findings. `abandon` moves the lineage
// directory whole, junk included, into the quarantine residue; `index rebuild` removes the temp
// files of interrupted writes and nothing else.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "tests/support/files.h"
#include "tests/support/hostile.h"
#include "tests/support/process.h"

namespace gentle::testing {
namespace {

using Found = std::set<std::tuple<std::string, std::string, std::string>>;  // code, lineage, path

// Runs `review fsck --json`, requires .git and every `untouched` tree byte-identical afterwards,
// and returns its findings.
Found Fsck(const StoreFixture& f, const std::vector<std::string>& untouched = {}) {
  std::vector<std::string> trees = untouched;
  trees.push_back(f.git());
  std::vector<std::map<std::string, std::string>> before;
  for (const std::string& tree : trees) before.push_back(HashTree(tree));
  RunResult r = Hostile({"review", "fsck", "--json"}, f.repo);
  INFO("fsck: " << r.out << r.err);
  for (size_t i = 0; i < trees.size(); ++i) {
    INFO("tree: " << trees[i]);
    CHECK(HashTree(trees[i]) == before[i]);
  }
  auto doc = nlohmann::json::parse(r.out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  CHECK(doc["schema"] == "gentle-ai.review-fsck/v1");
  CHECK(r.exit_code == (doc["findings"].empty() ? 0 : 7));
  CHECK(doc["clean"] == doc["findings"].empty());
  Found out;
  for (const auto& finding : doc["findings"]) {
    const auto& lineage = finding["lineage"];
    out.emplace(finding["code"], lineage.is_null() ? "" : lineage.get<std::string>(),
                finding["path"]);
  }
  return out;
}

void Symlink(const std::string& target, const std::string& path) {
  REQUIRE(symlink(target.c_str(), path.c_str()) == 0);
}

void Mkdir(const std::string& path) { REQUIRE(mkdir(path.c_str(), 0755) == 0); }

std::string Outside(const StoreFixture& f) {
  const std::string outside = f.tmp.path() + "/outside";
  Mkdir(outside);
  WriteFile(outside + "/secret.txt", "not the store's\n");
  return outside;
}

}  // namespace

TEST_CASE("fsck junk: gentle-ai's known lineage members are not findings") {
  StoreFixture f;
  WriteFile(f.lineage_dir() + "/review-receipt.json", "{}\n");
  WriteFile(f.lineage_dir() + "/finalize-attempt-journal.json", "{}\n");
  Mkdir(f.lineage_dir() + "/reviewer-results");
  WriteFile(f.lineage_dir() + "/reviewer-results/00-review-risk.json", "{}\n");
  WriteFile(f.lineage_dir() + "/reviewer-results/00-review-risk.json.sha256", "x\n");
  Mkdir(f.lineage_dir() + "/trace-gaps");
  Mkdir(f.root() + "/effect-markers");
  CHECK(Fsck(f).empty());
}

TEST_CASE("fsck junk: a stray atomic temp beside a complete record is an interrupted write") {
  StoreFixture f;
  const std::string temp = f.lineage_dir() + "/.atomic-Xq81zz";
  WriteFile(temp, "{\"schema\":\"gentle-ai.review-state-rec");
  CHECK(Fsck(f) == Found{{"interrupted_write", f.lineage, temp}});
  // Readers are not disturbed by it.
  ExpectOutcome({"review", "status", "--lineage", f.lineage}, f.repo, 0, "");
  // index rebuild removes exactly the temp; the record stays.
  const std::string record = ReadFile(f.record_path());
  ExpectOutcome({"review", "index", "rebuild"}, f.repo, 0, "", {},
                {"gentle-ai/review-transactions/index.sqlite",
                 "gentle-ai/review-transactions/v2/LOCK", temp.substr(f.git().size() + 1)});
  CHECK(access(temp.c_str(), F_OK) != 0);
  CHECK(ReadFile(f.record_path()) == record);
  CHECK(Fsck(f).empty());
}

TEST_CASE("fsck junk: a junk file in a lineage directory is an unexpected entry") {
  StoreFixture f;
  const std::string junk = f.lineage_dir() + "/notes.txt";
  WriteFile(junk, "left here by hand\n");
  CHECK(Fsck(f) == Found{{"unexpected_entry", f.lineage, junk}});
  // index rebuild leaves it for a person to look at.
  REQUIRE(Hostile({"review", "index", "rebuild"}, f.repo).exit_code == 0);
  CHECK(ReadFile(junk) == "left here by hand\n");
  CHECK(Fsck(f) == Found{{"unexpected_entry", f.lineage, junk}});
}

TEST_CASE("fsck junk: a subdirectory in a lineage directory is an unexpected entry") {
  StoreFixture f;
  const std::string dir = f.lineage_dir() + "/extra";
  Mkdir(dir);
  WriteFile(dir + "/inner.json", "{}");
  CHECK(Fsck(f) == Found{{"unexpected_entry", f.lineage, dir}});
}

TEST_CASE("fsck junk: a FIFO or a temp directory in a lineage directory is an unexpected entry") {
  StoreFixture f;
  const std::string fifo = f.lineage_dir() + "/pipe";
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const std::string temp_dir = f.lineage_dir() + "/.atomic-dir";
  Mkdir(temp_dir);
  CHECK(Fsck(f) ==
        Found{{"unexpected_entry", f.lineage, fifo}, {"unexpected_entry", f.lineage, temp_dir}});
}

TEST_CASE("fsck junk: a symlink out of the store inside a lineage directory is reported") {
  StoreFixture f;
  const std::string outside = Outside(f);
  const std::string link = f.lineage_dir() + "/review-receipt.json";
  Symlink(outside + "/secret.txt", link);
  const std::string dir_link = f.lineage_dir() + "/elsewhere";
  Symlink(outside, dir_link);
  CHECK(Fsck(f, {outside}) ==
        Found{{"unexpected_entry", f.lineage, link}, {"unexpected_entry", f.lineage, dir_link}});
}

TEST_CASE("fsck junk: a symlink inside gentle-ai's reviewer-results is reported") {
  StoreFixture f;
  const std::string outside = Outside(f);
  Mkdir(f.lineage_dir() + "/reviewer-results");
  Mkdir(f.lineage_dir() + "/reviewer-results/deeper");
  const std::string link = f.lineage_dir() + "/reviewer-results/deeper/00-review-risk.json";
  Symlink(outside + "/secret.txt", link);
  CHECK(Fsck(f, {outside}) == Found{{"unexpected_entry", f.lineage, link}});
}

TEST_CASE("fsck junk: a symlink at the store root is reported") {
  StoreFixture f;
  const std::string outside = Outside(f);
  const std::string link = f.root() + "/incidents";
  Symlink(outside, link);
  const std::string nested_dir = f.root() + "/effect-markers";
  Mkdir(nested_dir);
  const std::string nested = nested_dir + "/v1";
  Symlink(outside, nested);
  CHECK(Fsck(f, {outside}) ==
        Found{{"unexpected_entry", "", link}, {"unexpected_entry", "", nested}});
}

TEST_CASE("fsck junk: a symlinked lineage directory names its lineage") {
  StoreFixture f;
  const std::string outside = Outside(f);
  const std::string link = f.v2() + "/review-00000000000000aa";
  Symlink(outside, link);
  CHECK(Fsck(f, {outside}) == Found{{"unexpected_entry", "review-00000000000000aa", link}});
}

TEST_CASE("fsck junk: atomic temps among tombstones and in a quarantine directory") {
  StoreFixture f;
  ExpectOutcome({"review", "abandon", "--lineage", f.lineage, "--reason", "operator_disposition",
                 "--actor", "ops"},
                f.repo, 0, "", {}, {""});
  const std::string tombstones = f.root() + "/terminal-consumption/v1";
  REQUIRE(std::filesystem::create_directories(tombstones));
  const std::string tomb_temp = tombstones + "/.atomic-T1";
  WriteFile(tomb_temp, "{\"schema\"");
  std::string qdir;
  for (const auto& entry : std::filesystem::directory_iterator(f.root() + "/quarantine")) {
    qdir = entry.path().string();
  }
  REQUIRE_FALSE(qdir.empty());
  const std::string audit_temp = qdir + "/.atomic-A1";
  WriteFile(audit_temp, "{\n  \"schema\"");
  const std::string junk = qdir + "/stray.json";
  WriteFile(junk, "{}");
  CHECK(Fsck(f) == Found{{"interrupted_write", "", tomb_temp},
                         {"interrupted_write", "", audit_temp},
                         {"unexpected_entry", "", junk}});
  REQUIRE(Hostile({"review", "index", "rebuild"}, f.repo).exit_code == 0);
  CHECK(Fsck(f) == Found{{"unexpected_entry", "", junk}});
}

TEST_CASE("fsck junk: abandon moves junk whole into the residue - fsck reported it before") {
  StoreFixture f;
  const std::string outside = Outside(f);
  const std::string junk = f.lineage_dir() + "/notes.txt";
  WriteFile(junk, "junk\n");
  Mkdir(f.lineage_dir() + "/extra");
  const std::string link = f.lineage_dir() + "/elsewhere";
  Symlink(outside, link);
  CHECK(Fsck(f, {outside}) == Found{{"unexpected_entry", f.lineage, junk},
                                    {"unexpected_entry", f.lineage, f.lineage_dir() + "/extra"},
                                    {"unexpected_entry", f.lineage, link}});

  auto done = ExpectOutcome({"review", "abandon", "--lineage", f.lineage, "--reason",
                             "operator_disposition", "--actor", "ops"},
                            f.repo, 0, "", {outside}, {""});
  const std::string qdir = done["quarantine_path"];
  auto audit = nlohmann::json::parse(ReadFile(qdir + "/reclaim-record.json"));
  CHECK(audit["residue"] ==
        nlohmann::json::array({"elsewhere", "extra", "notes.txt", "review-state.json"}));
  CHECK(ReadFile(qdir + "/residue/notes.txt") == "junk\n");
  // The residue is kept as it was: only the link in it is still a finding.
  CHECK(Fsck(f, {outside}) == Found{{"unexpected_entry", "", qdir + "/residue/elsewhere"}});
}

}  // namespace gentle::testing
