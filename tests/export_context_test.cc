// review export-context and review verify through the built CLI: byte identity with the pinned git
// CLI, the envelope, every row of the classification matrix with its code and exit code, and proof
// that each read left the repository's git directory byte-identical.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "export/base64.h"
#include "export/git_flags.h"
#include "store/digests.h"
#include "store/record.h"
#include "store/sha256.h"
#include "tests/support/files.h"
#include "tests/support/gentle_ai.h"
#include "tests/support/git_repo.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/sanitizer_sample.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

struct Fixture {
  TempDir tmp;
  std::string repo;
  std::string lineage;
  Fixture() {
    repo = InitRepo(tmp.path());
    WriteFile(repo + "/a.txt", "alpha\nchanged\n");
    WriteFile(repo + "/new file.txt", "brand new!\n");  // patch size % 3 != 0: base64 pads
    Git(repo, {"add", "new file.txt"});
    RunResult r = GentleAi({"review", "start", "--json"}, repo);
    REQUIRE(r.exit_code == 0);
    lineage = nlohmann::json::parse(r.out)["lineage"];
  }
  std::string root() const { return repo + "/.git/gentle-ai/review-transactions"; }
  std::string record_path() const { return root() + "/v2/" + lineage + "/review-state.json"; }
  nlohmann::json record() const { return nlohmann::json::parse(ReadFile(record_path())); }
};

// The oracle: the pinned git CLI on the same trees.
std::string OracleDiff(const std::string& repo, const std::string& base, const std::string& cand) {
  std::vector<std::string> argv = exporter::OracleArgv(base, cand);
  argv.erase(argv.begin());
  RunResult r = GitRun(repo, argv, {{"GIT_ATTR_NOSYSTEM", "1"}});
  REQUIRE(r.exit_code == 0);
  return r.out;
}

// Rewrites a record's state through `edit`, re-encoding it with a valid revision.
void RewriteRecord(const std::string& path,
                   const std::function<void(nlohmann::ordered_json&)>& edit) {
  auto doc = nlohmann::ordered_json::parse(ReadFile(path));
  nlohmann::ordered_json state = doc["state"];
  edit(state);
  std::string revision;
  WriteFile(path, store::EncodeRecordFile(state, &revision));
}

struct Refusal {
  int exit_code;
  nlohmann::json error;
};

// Runs export-context --json expecting a refusal, and proves nothing changed.
Refusal ExpectRefusal(const std::string& cwd, const std::string& lineage,
                      const std::string& gitdir) {
  auto before = HashTree(gitdir);
  RunResult r = GentleAi({"review", "export-context", "--json", "--lineage", lineage}, cwd);
  INFO(r.out << r.err);
  CHECK(HashTree(gitdir) == before);
  auto doc = nlohmann::json::parse(r.out);
  REQUIRE(doc["schema"] == "gentle-ai.review-error/v1");
  return {r.exit_code, doc["error"]};
}

}  // namespace

TEST_CASE("export-context prints exactly the pinned git diff of the frozen trees") {
  Fixture f;
  auto snapshot = f.record()["state"]["initial_snapshot"];
  const std::string oracle = OracleDiff(f.repo, snapshot["base_tree"], snapshot["candidate_tree"]);
  auto before = HashTree(f.repo + "/.git");
  RunResult raw = GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo);
  CHECK(raw.exit_code == 0);
  CHECK(raw.out == oracle);
  RunResult via_git =
      GentleAi({"review", "export-context", "--lineage", f.lineage, "--engine", "git"}, f.repo);
  CHECK(via_git.out == oracle);
  CHECK(HashTree(f.repo + "/.git") == before);
  // Still the frozen bytes after the workspace moves on.
  WriteFile(f.repo + "/a.txt", "something else entirely\n");
  CHECK(GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo).out == oracle);
}

TEST_CASE("a refused stdout fails the command - internal and exit 1 naming the error") {
  // A full device or a closed descriptor: the bytes a caller reads would be short, so no verb
  // exits 0 (a small export is held in memory, not spooled; status prints JSON; list prints text).
  Fixture f;
  const std::vector<std::string> full = {"bash", "-c", "exec \"$@\" >/dev/full", "bash"};
  const std::vector<std::string> closed = {"bash", "-c", "exec \"$@\" >&-", "bash"};
  RunResult small =
      GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo, {}, full);
  CHECK(small.exit_code == 1);
  CHECK(small.err == "gentle-ai: internal: writing the patch: No space left on device\n");
  RunResult envelope =
      GentleAi({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo, {}, full);
  CHECK(envelope.exit_code == 1);
  CHECK(envelope.err == "gentle-ai: internal: writing the patch: No space left on device\n");
  RunResult status = GentleAi({"review", "status", "--json"}, f.repo, {}, full);
  CHECK(status.exit_code == 1);
  CHECK(status.err == "gentle-ai: internal: writing standard output: No space left on device\n");
  RunResult list = GentleAi({"review", "list"}, f.repo, {}, closed);
  CHECK(list.exit_code == 1);
  CHECK(list.err == "gentle-ai: internal: writing standard output: Bad file descriptor\n");
  // A verb that fails keeps its own code and error.
  RunResult missing = GentleAi({"review", "export-context", "--lineage", "review-0000000000000000"},
                               f.repo, {}, full);
  CHECK(missing.exit_code == 3);
  CHECK(missing.err.find("writing") == std::string::npos);
}

TEST_CASE("export-context in a directory holding a file named index prints the same bytes") {
  // The patch engine looks up no diff attributes: libgit2's lookup through its objects-only
  // handle read "index" relative to the process's directory and refused one that is not an index.
  Fixture f;
  auto snapshot = f.record()["state"]["initial_snapshot"];
  const std::string oracle = OracleDiff(f.repo, snapshot["base_tree"], snapshot["candidate_tree"]);
  WriteFile(f.repo + "/index", "not a git index\n");
  RunResult r = GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo);
  CHECK(r.err == "");
  CHECK(r.exit_code == 0);
  CHECK(r.out == oracle);
}

// `review export-context --lineage <lineage>` in `repo` under GNU time (a missing one fails the
// test): its output, and its peak resident set in KiB.
long ExportPeakKib(const LifecycleRepo& repo, const std::string& lineage, std::string* out) {
  TempDir scratch;
  const std::string peak = scratch.path() + "/peak.txt";
  RunResult r = GentleAi(repo.ReviewArgs({"export-context", "--lineage", lineage}, false),
                         repo.root(), {}, {"/usr/bin/time", "-f", "%M", "-o", peak});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  *out = r.out;
  const std::string text = Trim(ReadFile(peak));
  REQUIRE_FALSE(text.empty());
  REQUIRE(text.find_first_not_of("0123456789") == std::string::npos);
  return std::stol(text);
}

TEST_CASE("export-context of many large files holds one large pair at a time - as for one") {
  // The patch engine's two threads never hold two large pairs (export/patch_engine.h): an export
  // of 16 changed files of 3 MB peaks as one of a single such file, where two pairs at once
  // (blobs and xdiff's state, about 25 MB a pair here) would show.
  LifecycleRepo repo;
  constexpr int kFiles = 16;
  constexpr int kLines = 150000;
  auto content = [&](int file, bool changed) {
    std::string text;
    text.reserve(kLines * 24);
    for (int line = 0; line < kLines; ++line) {
      text += "file " + std::to_string(file) + " line " + std::to_string(line) + "\n";
    }
    if (changed) text += "one more line\n";
    return text;
  };
  auto name = [](int file) { return "f" + std::to_string(100 + file) + ".txt"; };
  for (int i = 0; i < kFiles; ++i) repo.Write(name(i), content(i, false));
  repo.GitOk({"add", "-A"});
  repo.GitOk({"commit", "-q", "-m", "large"});
  const std::string base = Trim(repo.GitOk({"rev-parse", "HEAD"}));
  repo.Write(name(0), content(0, true));
  repo.GitOk({"commit", "-q", "-a", "-m", "one"});
  const std::string one = Trim(repo.GitOk({"rev-parse", "HEAD"}));
  for (int i = 1; i < kFiles; ++i) repo.Write(name(i), content(i, true));
  repo.GitOk({"commit", "-q", "-a", "-m", "all"});
  const std::string all = Trim(repo.GitOk({"rev-parse", "HEAD"}));
  auto start = [&](const std::string& head) {
    return repo
        .ReviewOk({"start", "--kind", "commit-range", "--base", base, "--head", head})["lineage"]
        .get<std::string>();
  };
  const std::string one_lineage = start(one);
  const std::string all_lineage = start(all);
  std::string one_patch;
  std::string all_patch;
  const long one_peak = ExportPeakKib(repo, one_lineage, &one_patch);
  const long all_peak = ExportPeakKib(repo, all_lineage, &all_patch);
  INFO("one file " << one_peak << " KiB, " << kFiles << " files " << all_peak << " KiB");
  CHECK(all_patch.size() > one_patch.size() * (kFiles - 1));
  // A sanitizer build's resident set is mostly its runtime's shadow memory and quarantine (freed
  // blocks kept back), not the command's: there only the output is checked.
  if (!SanitizerBuild()) CHECK(all_peak < one_peak + 8 * 1024);
}

// A commit-range lineage adding `files` text files of `lines` lines each (about 20 bytes a line):
// the raw patch, once over PatchSpool::kMinSpillBytes, is spooled (export/patch_spool.h).
struct LargeAddition {
  LifecycleRepo repo;
  std::string lineage;
  std::string oracle;  // the pinned git diff of the same trees
  LargeAddition(int files, int lines) {
    repo.Write("README", "base\n");
    repo.GitOk({"add", "-A"});
    repo.GitOk({"commit", "-q", "-m", "base"});
    const std::string base = Trim(repo.GitOk({"rev-parse", "HEAD"}));
    for (int file = 0; file < files; ++file) {
      std::string text;
      for (int line = 0; line < lines; ++line) {
        text += "file " + std::to_string(file) + " line " + std::to_string(line) + "\n";
      }
      repo.Write("f" + std::to_string(100 + file) + ".txt", text);
    }
    repo.GitOk({"add", "-A"});
    repo.GitOk({"commit", "-q", "-m", "large"});
    const std::string head = Trim(repo.GitOk({"rev-parse", "HEAD"}));
    lineage = repo.ReviewOk({"start", "--kind", "commit-range", "--base", base, "--head",
                             head})["lineage"]
                  .get<std::string>();
    oracle = OracleDiff(repo.root(), Trim(repo.GitOk({"rev-parse", base + "^{tree}"})),
                        Trim(repo.GitOk({"rev-parse", head + "^{tree}"})));
  }
  // The raw export, with `env` and under `wrapper`.
  RunResult Export(const Env& env = {}, const std::vector<std::string>& wrapper = {}) const {
    return GentleAi(repo.ReviewArgs({"export-context", "--lineage", lineage}, false), repo.root(),
                    env, wrapper);
  }
  // The raw export's peak resident set in KiB under GNU time (a missing one fails the test); its
  // output must be the oracle's.
  long PeakKib(const Env& env) const {
    TempDir scratch;
    const std::string peak = scratch.path() + "/peak.txt";
    RunResult r = Export(env, {"/usr/bin/time", "-f", "%M", "-o", peak});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == oracle);
    const std::string text = Trim(ReadFile(peak));
    REQUIRE_FALSE(text.empty());
    REQUIRE(text.find_first_not_of("0123456789") == std::string::npos);
    return std::stol(text);
  }
};

TEST_CASE("a large raw export holds its front in a temporary file - the heap when TMPDIR fails") {
  // 40 added files of 4,800 lines: a 3.6 MB patch, under the 4 MiB budget. Spooled, the process
  // holds at most PatchSpool::kMinSpillBytes and a section of it; with TMPDIR a regular file no
  // spool can be made and the whole patch stays in memory, with the same bytes.
  LargeAddition large(40, 4800);
  REQUIRE(large.oracle.size() > 3 * 1024 * 1024);
  REQUIRE(large.oracle.size() < 4194304);
  TempDir tmp;
  WriteFile(tmp.path() + "/not-a-directory", "x");
  const auto before = HashTree(large.repo.root() + "/.git");
  const long spooled = large.PeakKib({{"TMPDIR", tmp.path()}});
  const long in_memory = large.PeakKib({{"TMPDIR", tmp.path() + "/not-a-directory"}});
  CHECK(large.PeakKib({{"TMPDIR", "relative/dir"}}) > 0);  // not absolute: /tmp
  CHECK(large.PeakKib({{"TMPDIR", tmp.path() + "/missing"}}) > 0);
  INFO("spooled " << spooled << " KiB, in memory " << in_memory << " KiB");
  if (!SanitizerBuild()) CHECK(in_memory > spooled + 1536);
  // Nothing named in TMPDIR (the file has none), nothing written in the repository.
  CHECK(std::distance(std::filesystem::directory_iterator(tmp.path()),
                      std::filesystem::directory_iterator()) == 1);
  CHECK(HashTree(large.repo.root() + "/.git") == before);
}

TEST_CASE("a spool that fills up mid-way keeps the rest in memory - the same bytes and exit 0") {
  // A file size limit of 512 KiB (SIGXFSZ ignored, so the write fails with EFBIG as on a full
  // disk): the first spills fit, a later one fails, and the patch is the spooled front followed
  // by what stayed in memory. stdout is a pipe, which the limit does not touch.
  LargeAddition large(40, 4800);
  TempDir tmp;
  RunResult r = large.Export({{"TMPDIR", tmp.path()}},
                             {"bash", "-c", "trap '' XFSZ; ulimit -f 512; exec \"$@\"", "bash"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err == "");
  CHECK(r.out.size() == large.oracle.size());
  CHECK(r.out == large.oracle);
}

TEST_CASE("a spooled export whose stdout refuses the bytes exits 1 naming the write error") {
  // stdout a full device: the copy of the spooled front fails, and the export says so (internal,
  // exit 1) instead of exiting 0 with the patch lost.
  LargeAddition large(40, 4800);
  TempDir tmp;
  RunResult r =
      large.Export({{"TMPDIR", tmp.path()}}, {"bash", "-c", "exec \"$@\" >/dev/full", "bash"});
  CHECK(r.exit_code == 1);
  CHECK(r.err == "gentle-ai: internal: writing the patch: No space left on device\n");
}

TEST_CASE("a blob that fails to read after the spool holds bytes prints nothing") {
  // The last file's blob is replaced by another of the same size: its header still reads (the
  // budget passes), the read fails its hash check after earlier sections were spooled, and the
  // export prints nothing.
  LargeAddition large(40, 4800);
  const std::string last = Trim(large.repo.GitOk({"rev-parse", "HEAD:f139.txt"}));
  const std::string object =
      large.repo.root() + "/.git/objects/" + last.substr(0, 2) + "/" + last.substr(2);
  REQUIRE(std::filesystem::exists(object));
  std::string forged = ReadFile(large.repo.root() + "/f139.txt");
  forged[0] = 'F';
  const std::string other = Trim(large.repo.GitOk({"hash-object", "-w", "--stdin"}, forged));
  const std::string other_object =
      large.repo.root() + "/.git/objects/" + other.substr(0, 2) + "/" + other.substr(2);
  std::filesystem::permissions(object, std::filesystem::perms::owner_write,
                               std::filesystem::perm_options::add);
  std::filesystem::copy_file(other_object, object,
                             std::filesystem::copy_options::overwrite_existing);
  TempDir tmp;
  RunResult r = large.Export({{"TMPDIR", tmp.path()}});
  INFO(r.err);
  CHECK(r.exit_code == 8);  // objects_missing, naming the blob and its path
  CHECK(r.out == "");
  CHECK(r.err.find("f139.txt") != std::string::npos);
}

TEST_CASE("export-context --json is the context envelope of docs/format.md") {
  Fixture f;
  auto snapshot = f.record()["state"]["initial_snapshot"];
  const std::string oracle = OracleDiff(f.repo, snapshot["base_tree"], snapshot["candidate_tree"]);
  RunResult r = GentleAi({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(r.exit_code == 0);
  auto env = nlohmann::json::parse(r.out);
  CHECK(env["schema"] == "gentle-ai.review-context-export/v1");
  CHECK(env["lineage"] == f.lineage);
  CHECK(env["revision"] == f.record()["revision"]);
  CHECK(env["state"] == "reviewing");
  CHECK(env["applicability"] == "current_target");
  CHECK(env["snapshot"]["base_tree"] == snapshot["base_tree"]);
  CHECK(env["snapshot"]["candidate_tree"] == snapshot["candidate_tree"]);
  CHECK(env["snapshot"]["identity"] == snapshot["identity"]);
  CHECK(env["snapshot"]["paths_digest"] == snapshot["paths_digest"]);
  CHECK(env["snapshot"]["projection"] == "workspace");
  CHECK(env["candidate_diff"]["encoding"] == "base64");
  CHECK(exporter::DecodeCanonicalBase64(env["candidate_diff"]["data"].get<std::string>()) ==
        oracle);
  CHECK(env["candidate_diff"]["sha256"] == "sha256:" + store::Sha256Hex(oracle));
  CHECK(env["candidate_diff"]["byte_size"] == oracle.size());
  CHECK(env["budget"]["max_bytes"] == 4194304);
  CHECK(env["budget"]["used_bytes"] == oracle.size());
  CHECK(env["derivation"]["git_flags"].size() == 12);
  CHECK(env["derivation"]["git_flags"][0] == "--binary");
  CHECK(env["derivation"]["engine"] == "native");
  auto manifest = env["changed_path_manifest"];
  REQUIRE(manifest.size() == 2);
  CHECK(manifest[0]["path"] == "a.txt");
  CHECK(manifest[0]["status"] == "M");
  CHECK(manifest[0]["old_mode"] == "100644");
  CHECK(manifest[1]["path"] == "new file.txt");
  CHECK(manifest[1]["status"] == "A");
  CHECK(manifest[1]["old_oid"] == std::string(40, '0'));
  CHECK(manifest[1]["new_oid"] == Trim(Git(f.repo, {"rev-parse", ":new file.txt"})));

  TempDir out;
  CHECK(GentleAi(
            {"review", "export-context", "--lineage", f.lineage, "--output", out.path() + "/patch"},
            f.repo)
            .exit_code == 0);
  CHECK(ReadFile(out.path() + "/patch") == oracle);
}

TEST_CASE("matrix: any state and applicability exports - including invalidated and unrelated") {
  Fixture f;
  RewriteRecord(f.record_path(), [](auto& s) { s["state"] = "invalidated"; });
  WriteFile(f.repo + "/a.txt", "moved on\n");
  RunResult r = GentleAi({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(r.exit_code == 0);
  auto env = nlohmann::json::parse(r.out);
  CHECK(env["state"] == "invalidated");
  CHECK(env["applicability"] == "unrelated");
}

TEST_CASE("matrix: unknown lineage is not_found - bad id is usage") {
  Fixture f;
  auto r = ExpectRefusal(f.repo, "review-0123456789abcdef", f.repo + "/.git");
  CHECK(r.exit_code == 3);
  CHECK(r.error["code"] == "not_found");
  CHECK(r.error["lineage"] == "review-0123456789abcdef");
  auto bad = ExpectRefusal(f.repo, "../v2", f.repo + "/.git");
  CHECK(bad.exit_code == 2);
  CHECK(bad.error["code"] == "usage");
}

// Approves the fixture's lineage and returns {revision, token}.
static std::pair<std::string, std::string> Approve(const Fixture& f) {
  RunResult r = GentleAi({"review", "verdict", "--json", "--lineage", f.lineage, "--verdict",
                          "APPROVE", "--actor", "ana", "--role", "reviewer", "--body", "LGTM"},
                         f.repo);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  auto doc = nlohmann::json::parse(r.out);
  return {doc["revision"], doc["token"]};
}

TEST_CASE("matrix: a burned lineage is consumed") {
  Fixture f;
  auto [revision, token] = Approve(f);
  const std::string backup = f.tmp.path() + "/record-backup";
  WriteFile(backup, ReadFile(f.record_path()));
  RunResult burn = GentleAi(
      {"review", "burn", "--lineage", f.lineage, "--token", token, "--expected-revision", revision},
      f.repo);
  REQUIRE(burn.exit_code == 0);
  SECTION("record gone: consumed") {
    auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
    CHECK(r.exit_code == 4);
    CHECK(r.error["code"] == "consumed");
  }
  SECTION("the record put back beside its tombstone: duplicate claims are ambiguous") {
    WriteFile(f.record_path(), ReadFile(backup));
    auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
    CHECK(r.exit_code == 7);
    CHECK(r.error["code"] == "ambiguous");
    // verify asks the same question.
    RunResult verify = GentleAi({"review", "verify", "--json", "--lineage", f.lineage}, f.repo);
    CHECK(verify.exit_code == 7);
    CHECK(nlohmann::json::parse(verify.out)["error"]["code"] == "ambiguous");
    // And it outranks what the derivation finds: here, the frozen trees' pin and objects gone.
    const std::string tree = nlohmann::json::parse(
        ReadFile(f.record_path()))["state"]["initial_snapshot"]["candidate_tree"];
    const std::string loose = LooseObjectPath(f.repo + "/.git", tree);
    REQUIRE(std::filesystem::remove(loose));
    auto both = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
    CHECK(both.error["code"] == "ambiguous");
    // Without the index, the tombstone directory answers the same.
    for (const char* side : {"", "-wal", "-shm"}) {
      std::filesystem::remove(f.root() + "/index.sqlite" + side);
    }
    auto from_files = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
    CHECK(from_files.error["code"] == "ambiguous");
    CHECK(from_files.error["details"]["tombstone"].get<std::string>().rfind(
              f.root() + "/terminal-consumption/v1/", 0) == 0);
    // Without the tombstone file the record is live again, and the derivation's own refusal shows.
    std::filesystem::remove_all(f.root() + "/terminal-consumption");
    auto alone = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
    CHECK(alone.error["code"] == "objects_missing");
  }
}

TEST_CASE("matrix: an abandoned lineage is retired and points at its audit record") {
  Fixture f;
  RunResult abandon = GentleAi({"review", "abandon", "--json", "--lineage", f.lineage, "--reason",
                                "operator_disposition", "--actor", "ops"},
                               f.repo);
  INFO(abandon.out << abandon.err);
  REQUIRE(abandon.exit_code == 0);
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 5);
  CHECK(r.error["code"] == "retired");
  const std::string audit = r.error["details"]["audit_record"];
  CHECK(audit.rfind(f.root() + "/quarantine/" + f.lineage + "-", 0) == 0);
  CHECK(audit.size() > 20);
  CHECK(audit.substr(audit.size() - 20) == "/reclaim-record.json");
  auto record = nlohmann::json::parse(ReadFile(audit));
  CHECK(record["status"] == "committed");
  CHECK(record["lineage_id"] == f.lineage);
}

TEST_CASE("matrix: a historical-compat record is read_only") {
  Fixture f;
  RewriteRecord(f.record_path(), [](auto& s) {
    s["lens_results"] = nlohmann::ordered_json::array({{{"lens", "review-risk"}}});
  });
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 6);
  CHECK(r.error["code"] == "read_only");
}

TEST_CASE("matrix: the batch marker refuses with reconciliation_prepared") {
  Fixture f;
  WriteFile(f.root() + "/batch-reconcile-journal.json", "{}");
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 6);
  CHECK(r.error["code"] == "reconciliation_prepared");
}

TEST_CASE("matrix: unparseable - unverifiable or misplaced records are corrupted") {
  Fixture f;
  SECTION("tampered state byte") {
    std::string bytes = ReadFile(f.record_path());
    bytes[bytes.find("\"reviewing\"") + 3] = 'X';
    WriteFile(f.record_path(), bytes);
  }
  SECTION("not JSON") { WriteFile(f.record_path(), "{\"schema\": "); }
  SECTION("lineage differs from its directory") {
    RewriteRecord(f.record_path(), [](auto& s) { s["lineage_id"] = "review-ffffffffffffffff"; });
  }
  SECTION("incomplete entry without a record") { REQUIRE(unlink(f.record_path().c_str()) == 0); }
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 7);
  CHECK(r.error["code"] == "corrupted");
}

TEST_CASE("matrix: a missing tree or blob is objects_missing") {
  Fixture f;
  auto snapshot = f.record()["state"]["initial_snapshot"];
  const std::string blob =
      Trim(Git(f.repo, {"rev-parse", std::string(snapshot["candidate_tree"]) + ":a.txt"}));
  const std::string loose = f.repo + "/.git/objects/" + blob.substr(0, 2) + "/" + blob.substr(2);
  REQUIRE(unlink(loose.c_str()) == 0);
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 8);
  CHECK(r.error["code"] == "objects_missing");
  const std::string tree = snapshot["candidate_tree"];
  REQUIRE(unlink((f.repo + "/.git/objects/" + tree.substr(0, 2) + "/" + tree.substr(2)).c_str()) ==
          0);
  auto t = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(t.exit_code == 8);
  CHECK(t.error["code"] == "objects_missing");
}

TEST_CASE("matrix: a patch above 4 MiB is budget_exceeded and nothing is printed") {
  TempDir tmp;
  std::string repo = InitRepo(tmp.path());
  std::string big;
  for (int i = 0; i < 140000; ++i) big += "line number " + std::to_string(i) + " of a big file\n";
  REQUIRE(big.size() > 4194304);
  WriteFile(repo + "/big.txt", big);
  Git(repo, {"add", "big.txt"});
  // start refuses it now (tests/candidate_budget_test.cc); a lineage as older releases made it.
  RunResult start = GentleAi({"review", "start", "--json"}, repo, {{"GENTLE_ADMIT_OVERSIZE", "1"}});
  REQUIRE(start.exit_code == 0);
  const std::string lineage = nlohmann::json::parse(start.out)["lineage"];
  RunResult raw = GentleAi({"review", "export-context", "--lineage", lineage}, repo);
  CHECK(raw.exit_code == 9);
  CHECK(raw.out.empty());
  CHECK(raw.err.rfind("gentle-ai: budget_exceeded: ", 0) == 0);
  auto r = ExpectRefusal(repo, lineage, repo + "/.git");
  CHECK(r.exit_code == 9);
  CHECK(r.error["code"] == "budget_exceeded");
  RunResult via_git =
      GentleAi({"review", "export-context", "--lineage", lineage, "--engine", "git"}, repo);
  CHECK(via_git.exit_code == 9);
  CHECK(via_git.out.empty());
}

TEST_CASE("matrix: paths that the trees do not reproduce are integrity_mismatch") {
  Fixture f;
  RewriteRecord(f.record_path(), [](auto& s) {
    for (const char* key : {"initial_snapshot", "current_snapshot"}) {
      auto& snap = s[key];
      snap["paths"] = nlohmann::ordered_json::array({"a.txt"});
      snap["paths_digest"] = store::PathsDigest({"a.txt"});
      snap["identity"] = store::SnapshotIdentity(
          {snap["kind"], "", snap["base_tree"], snap["candidate_tree"], snap["paths_digest"], {}});
    }
  });
  auto r = ExpectRefusal(f.repo, f.lineage, f.repo + "/.git");
  CHECK(r.exit_code == 10);
  CHECK(r.error["code"] == "integrity_mismatch");
}

TEST_CASE("a sibling worktree exports the lineage - an unrelated clone gets not_found") {
  Fixture f;
  const std::string expected =
      GentleAi({"review", "export-context", "--lineage", f.lineage}, f.repo).out;
  Git(f.repo, {"worktree", "add", "-q", f.tmp.path() + "/sibling"});
  RunResult sibling =
      GentleAi({"review", "export-context", "--lineage", f.lineage}, f.tmp.path() + "/sibling");
  CHECK(sibling.exit_code == 0);
  CHECK(sibling.out == expected);
  Git(f.tmp.path(), {"clone", "-q", f.repo, f.tmp.path() + "/clone"});
  auto r = ExpectRefusal(f.tmp.path() + "/clone", f.lineage, f.tmp.path() + "/clone/.git");
  CHECK(r.exit_code == 3);
  CHECK(r.error["code"] == "not_found");
}

TEST_CASE("verify --lineage: integrity - then the merged tree and the approved state") {
  Fixture f;
  RunResult ok = GentleAi({"review", "verify", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(ok.exit_code == 0);
  auto doc = nlohmann::json::parse(ok.out);
  CHECK(doc["schema"] == "gentle-ai.review-verify/v1");
  CHECK(doc["verified"] == true);
  Git(f.repo, {"add", "-A"});
  Git(f.repo, {"commit", "-q", "-m", "candidate"});
  // Reviewing, not approved: the merge is not authorised.
  RunResult reviewing =
      GentleAi({"review", "verify", "--json", "--lineage", f.lineage, "--against", "HEAD"}, f.repo);
  CHECK(reviewing.exit_code == 6);
  CHECK(nlohmann::json::parse(reviewing.out)["error"]["code"] == "wrong_state");
  RewriteRecord(f.record_path(), [](auto& s) { s["state"] = "approved"; });
  CHECK(GentleAi({"review", "verify", "--lineage", f.lineage, "--against", "HEAD"}, f.repo)
            .exit_code == 0);
  RunResult other = GentleAi(
      {"review", "verify", "--json", "--lineage", f.lineage, "--against", "HEAD~1"}, f.repo);
  CHECK(other.exit_code == 10);
  CHECK(nlohmann::json::parse(other.out)["error"]["code"] == "not_reviewed");
}

TEST_CASE("verify --envelope works in a fresh clone and refuses envelopes that do not bind") {
  Fixture f;
  Approve(f);  // an envelope verifies only as an approval (envelope_tamper_test.cc)
  RunResult exported =
      GentleAi({"review", "export-context", "--json", "--lineage", f.lineage}, f.repo);
  REQUIRE(exported.exit_code == 0);
  auto env = nlohmann::json::parse(exported.out);
  Git(f.repo, {"add", "-A"});
  Git(f.repo, {"commit", "-q", "-m", "candidate"});
  Git(f.tmp.path(), {"clone", "-q", f.repo, f.tmp.path() + "/ci"});
  const std::string ci = f.tmp.path() + "/ci";
  TempDir files;
  auto verify = [&](const nlohmann::json& envelope, const std::string& against) {
    WriteFile(files.path() + "/env.json", envelope.dump());
    std::vector<std::string> args = {"review", "verify", "--json", "--envelope",
                                     files.path() + "/env.json"};
    if (!against.empty()) args.insert(args.end(), {"--against", against});
    auto before = HashTree(ci + "/.git");
    RunResult r = GentleAi(args, ci);
    CHECK(HashTree(ci + "/.git") == before);
    return r;
  };
  auto code = [](const RunResult& r) { return nlohmann::json::parse(r.out)["error"]["code"]; };

  CHECK(verify(env, "").exit_code == 0);
  CHECK(verify(env, "HEAD").exit_code == 0);
  RunResult not_reviewed = verify(env, "HEAD~1");
  CHECK(not_reviewed.exit_code == 10);
  CHECK(code(not_reviewed) == "not_reviewed");

  SECTION("non-canonical base64") {
    auto bad = env;
    std::string data = bad["candidate_diff"]["data"];
    size_t pad = data.find('=');
    REQUIRE(pad != std::string::npos);  // the fixture's patch length is not a multiple of 3
    char& last = data[pad - 1];
    last = last == 'A' ? 'B' : (last == 'B' ? 'C' : last + 1);  // sets bits the padding drops
    bad["candidate_diff"]["data"] = data;
    RunResult r = verify(bad, "");
    CHECK(r.exit_code == 10);
    CHECK(code(r) == "integrity_mismatch");
  }
  SECTION("wrong byte_size") {
    auto bad = env;
    bad["candidate_diff"]["byte_size"] = env["candidate_diff"]["byte_size"].get<int>() - 1;
    CHECK(code(verify(bad, "")) == "integrity_mismatch");
  }
  SECTION("wrong sha256") {
    auto bad = env;
    bad["candidate_diff"]["sha256"] = "sha256:" + std::string(64, '0');
    CHECK(code(verify(bad, "")) == "integrity_mismatch");
  }
  SECTION("swapped tree ids") {
    auto bad = env;
    std::swap(bad["snapshot"]["base_tree"], bad["snapshot"]["candidate_tree"]);
    CHECK(code(verify(bad, "")) == "integrity_mismatch");
  }
  SECTION("a valid diff of other trees") {
    auto bad = env;
    const std::string other = "diff --git a/x b/x\nnew file mode 100644\n";
    bad["candidate_diff"]["data"] = exporter::EncodeBase64(other);
    bad["candidate_diff"]["byte_size"] = other.size();
    bad["candidate_diff"]["sha256"] = "sha256:" + store::Sha256Hex(other);
    RunResult r = verify(bad, "");
    CHECK(r.exit_code == 10);
    CHECK(code(r) == "integrity_mismatch");
  }
  SECTION("not an envelope") {
    auto bad = env;
    bad["schema"] = "something-else";
    CHECK(code(verify(bad, "")) == "integrity_mismatch");
  }
}

}  // namespace gentle::testing
