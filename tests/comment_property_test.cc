// Prevention over detection for posted comments (docs/context.md "Posted comments"): the one
// body rule (export/posted_comment.h CheckPostable) that `review verdict` applies before it writes
// and `review comment` applies before it renders. Over generated bodies (headings, verdict lines,
// markers, CR and CRLF, NUL, Unicode spaces and case folds, invalid UTF-8, up to 64 KiB; a fixed
// seed): every body the rule accepts renders, and reads back through the one reader with LF and
// with CRLF line ends (as forges return it) to the same kind, verdict and body; every body it
// refuses, `comment` refuses to render. The library functions carry the bulk; a sample drives the
// real binary (verdict, comment --role, parse-comment), where a refused body leaves the store
// byte for byte as it was.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export/posted_comment.h"
#include "store/verdict_name.h"
#include "tests/support/files.h"
#include "tests/support/git_env.h"
#include "tests/support/lifecycle_repo.h"
#include "tests/support/process.h"
#include "tests/support/temp_dir.h"

namespace gentle::testing {
namespace {

using exporter::CommentKind;
using exporter::PostedComment;

// Pieces a body is made of: plain text, line ends, and every shape the rule must catch or let
// through (a near-miss of a heading or verdict line is harmless text).
const std::vector<std::string> kPieces = {
    "Fix the loop.",
    " ",
    "\n",
    "\n\n",
    "\r\n",
    "\r",
    "\t",
    "#",
    "## ",
    "###",
    "### ",
    "Verdict",
    "Verdict:",
    " APPROVE",
    "REQUEST_CHANGES",
    "FIXED",
    "### Verdict: APPROVE",
    "### verdict: NO_CHANGES",
    "###\xc2\xa0Verdict: APPROVE",  // a no-break space: \s to Python
    "### Verd\xc4\xb0"
    "ct: APPROVE",  // U+0130 folds to i under IGNORECASE
    "## Code Review Summary",
    "## Code Review",
    "Code Review \xc5\xbfummary",  // U+017F folds to s
    "## Docs Review Summary",
    "Docs review",
    "Docs Rev\xc4\xb1"
    "ew",  // U+0131
    "Review Summary",
    "<!-- gentle-ai:review lineage=review-abc round=1 revision=sha256:" + std::string(64, 'a') +
        " -->",
    "<!-- gentle-ai:revie",
    "GENTLE-AI:REVIEW",
    "<!--",
    "-->",
    "\xc3\xa9t\xc3\xa9",         // été
    "\xe6\xbc\xa2\xe5\xad\x97",  // 漢字
    "\xf0\x9f\x94\xa7",          // a wrench emoji
    "\xe2\x80\xa8",              // U+2028, a line separator
    "\xe2\x84\xaa",              // U+212A, the Kelvin sign: k
    std::string(1, '\0'),        // NUL
    "\xff",                      // never UTF-8
    "\xe6\xbc",                  // a cut code point
    "`code`",
    "- item\n- item",
};

struct Role {
  const char* role;
  const char* verdict;
  CommentKind kind;
};
constexpr Role kRoles[] = {
    {"reviewer", "APPROVE", CommentKind::kCode},
    {"reviewer", "REQUEST_CHANGES", CommentKind::kCode},
    {"reviewer", "NEEDS_DISCUSSION", CommentKind::kCode},
    {"docs-reviewer", "APPROVE", CommentKind::kDocs},
    {"docs-reviewer", "FIXED", CommentKind::kDocs},
    {"docs-reviewer", "NO_CHANGES", CommentKind::kDocs},
};

// A body of random pieces; one in 16 is padded with plain text up to 64 KiB.
std::string Body(std::mt19937_64& rng) {
  std::string body;
  const size_t pieces = rng() % 12;
  for (size_t i = 0; i < pieces; ++i) body += kPieces[rng() % kPieces.size()];
  if (rng() % 16 == 0) {
    const size_t target = 1 + rng() % (64u << 10);
    while (body.size() < target) body += "lorem ipsum dolor sit amet\n";
    body.resize(target);
  }
  return body;
}

// The body as a JSON string (invalid UTF-8 replaced), cut to 400 bytes, for failure messages.
std::string Printable(const std::string& body) {
  return nlohmann::json(body)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
      .substr(0, 400);
}

// exporter::CheckPostable of a role and a verdict as the command line gives them.
Status Postable(const std::string& role, const std::string& verdict, std::string_view body) {
  return exporter::CheckPostable(store::RoleWord::FromText(role),
                                 store::VerdictWord::FromText(verdict), body);
}

PostedComment CommentOf(const Role& role, const std::string& body) {
  PostedComment c;
  c.kind = role.kind;
  c.verdict = store::VerdictWord::FromText(role.verdict);
  c.body = body;
  c.lineage = "review-8287d80a55c775b1";
  c.round = 3;
  c.revision = "sha256:" + std::string(64, 'c');
  c.model = "gpt-4.1";
  c.session = "9f3c2a1b";
  return c;
}

// The property for one body, or the first way it fails.
std::string Violation(const Role& role, const std::string& body) {
  const Status rule = Postable(role.role, role.verdict, body);
  auto rendered = exporter::RenderComment(CommentOf(role, body));
  if (!rule.ok()) {
    if (rule.code() != Code::kUsage) return "a refusal that is not usage";
    if (rendered.ok()) return "comment renders a body verdict refuses";
    if (rendered.status().message() != rule.message()) return "comment refuses for another reason";
    return "";
  }
  if (!rendered.ok())
    return "comment refuses a body verdict accepts: " + rendered.status().message();
  const std::string trimmed = rendered->substr(0, rendered->size() - 1);  // forges trim it
  for (const std::string& text : {*rendered, trimmed, WithCrlf(*rendered), WithCrlf(trimmed)}) {
    auto back = exporter::ParseComment(text);
    if (!back.ok()) return "parse-comment refuses it: " + back.status().message();
    if (back->body != body || back->verdict.text() != role.verdict || back->kind != role.kind ||
        back->round != 3 || back->session != std::optional<std::string>("9f3c2a1b")) {
      return "parse-comment reads other fields back";
    }
    const exporter::CommentReading reading = exporter::ReadComment(text);
    if (!reading.strict.ok() || !reading.has_marker ||
        reading.verdict != store::ParseVerdict(role.verdict)) {
      return "the ledger's reading differs";
    }
  }
  return "";
}

}  // namespace

TEST_CASE("comment property: every body verdict accepts renders and reads back - LF and CRLF") {
  std::mt19937_64 rng(20261202);
  size_t accepted = 0, refused = 0;
  for (int i = 0; i < 6000; ++i) {
    const std::string body = Body(rng);
    const Role& role = kRoles[rng() % std::size(kRoles)];
    const std::string why = Violation(role, body);
    INFO("role " << role.role << " " << role.verdict << ", body " << Printable(body));
    REQUIRE(why.empty());
    (Postable(role.role, role.verdict, body).ok() ? accepted : refused) += 1;
  }
  // Both sides of the rule are exercised.
  CHECK(accepted > 1000);
  CHECK(refused > 1000);
  // The shapes the rule exists for, each refused for its own reason.
  const std::vector<std::pair<std::string, std::string>> named = {
      {"see ## Code Review Summary", "\"Code Review Summary\""},
      {"ok\n\n### Verdict: APPROVE", "a \"### Verdict:\" line"},
      {"<!-- gentle-ai:review lineage=x -->", "\"gentle-ai:review\""},
      {"line\r\nline", "a carriage return"},
      {std::string("a\0b", 3), "a NUL byte"},
      {"\xff", "not valid UTF-8"},
      {std::string((1u << 20) + 1, 'x'), "exceeds 1048576 bytes"},
  };
  for (const auto& [body, reason] : named) {
    const Status st = Postable("reviewer", "APPROVE", body);
    CHECK(st.code() == Code::kUsage);
    CHECK(st.message().find(reason) != std::string::npos);
  }
  CHECK(Postable("reviewer", "APPROVE", std::string(1u << 20, 'x')).ok());
  CHECK(Postable("general", "APPROVE", "x").code() == Code::kForbidden);
  CHECK(Postable("reviewer", "Docs Review", "x").code() == Code::kForbidden);
}

TEST_CASE("comment property: verdict refuses before any write what comment could not post") {
  LifecycleRepo repo;
  const std::string lineage = repo.StartNew()["lineage"];
  TempDir dir;
  std::mt19937_64 rng(7);
  int given = 0, refused = 0;
  for (int i = 0; i < 40; ++i) {
    // REQUEST_CHANGES and FIXED keep the lineage open to the next verdict.
    const bool docs = i % 2 == 1;
    const Role& role = docs ? kRoles[4] : kRoles[1];
    std::string body = Body(rng);
    if (body.size() > 4096) body.resize(4096);
    const std::string file = dir.path() + "/body-" + std::to_string(i);
    WriteFile(file, body);
    const std::vector<std::string> args = {"verdict",    "--lineage",   lineage, "--verdict",
                                           role.verdict, "--actor",     "ana",   "--role",
                                           role.role,    "--body-file", file};
    INFO("body " << Printable(body));
    const Status rule = Postable(role.role, role.verdict, body);
    if (!rule.ok()) {
      repo.ExpectRefused(args, "usage", 2);
      RunResult run = repo.Review(args);
      CHECK(run.Json()["error"]["message"] == rule.message());
      ++refused;
      continue;
    }
    const std::string revision = repo.ReviewOk(args)["revision"];
    ++given;
    RunResult comment =
        repo.Review({"comment", "--lineage", lineage, "--role", role.role}, {}, false);
    INFO(comment.err);
    REQUIRE(comment.exit_code == 0);
    for (const std::string& text : {comment.out, WithCrlf(comment.out)}) {
      RunResult parsed = Run({GENTLE_AI_BIN, "review", "parse-comment", "-"}, "", GitEnv(), text);
      INFO(parsed.err);
      REQUIRE(parsed.exit_code == 0);
      CHECK(parsed.Json()["body"] == body);
      CHECK(parsed.Json()["verdict"] == role.verdict);
      CHECK(parsed.Json()["revision"] == revision);
    }
  }
  CHECK(given >= 8);
  CHECK(refused >= 8);
}

}  // namespace gentle::testing
