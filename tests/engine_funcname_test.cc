// Unit cases for git's default function-context rule and C-style path quoting. Every expectation
// here was measured against git 2.39 (the oracle); the differential tests cover the same rules
// end to end.
#include <catch2/catch.hpp>
#include <string>

#include "export/funcname.h"
#include "export/path_quote.h"

namespace gentle::exporter {
namespace {

std::string Func(const std::string& line) {
  std::string_view text;
  if (!DefaultFuncname(line, &text)) return "<none>";
  return std::string(text);
}

std::string Quote(const std::string& path) {
  std::string out;
  AppendQuotedPath("a/", path, &out);
  return out;
}

}  // namespace

TEST_CASE("function line: first byte - 80-byte cut - then trim", "[engine][funcname]") {
  CHECK(Func("int f(void)\n") == "int f(void)");
  CHECK(Func("_under\n") == "_under");
  CHECK(Func("$dollar\n") == "$dollar");
  CHECK(Func("1digit\n") == "<none>");
  CHECK(Func("  indented\n") == "<none>");
  CHECK(Func("\n") == "<none>");
  CHECK(Func("f \f\n") == "f \f");  // \f and \v are not trimmed
  CHECK(Func("f \v\n") == "f \v");
  CHECK(Func("f\r\n") == "f");
  const std::string head(77, 'a');
  CHECK(Func(head + "   more\n") == head);      // cut at 80 lands on spaces: trimmed
  CHECK(Func(head + "xy\n") == head + "xy");    // 79 bytes + newline
  CHECK(Func(head + "xyz\n") == head + "xyz");  // newline cut off at 80
}

TEST_CASE("function line: git's strict UTF-8 ends the text", "[engine][funcname]") {
  CHECK(Func("f a\xff"
             "b\n") == "f a");
  CHECK(Func("f  \xff"
             "b\n") == "f  ");  // whitespace exposed by the UTF-8 cut stays
  CHECK(Func("f a\xed\xa0\x80"
             "b\n") == "f a");  // surrogate
  CHECK(Func("f a\xc0\x80"
             "b\n") == "f a");                // overlong
  CHECK(Func("f \xe0\x80\xaf x\n") == "f ");  // overlong, 3 bytes
  CHECK(Func("f a\xf4\x90\x80\x80"
             "b\n") == "f a");                                      // above U+10FFFF
  CHECK(Func("f \xef\xbf\xbe x\n") == "f ");                        // U+FFFE
  CHECK(Func("f \xef\xbf\xbf x\n") == "f ");                        // U+FFFF
  CHECK(Func("f \xef\xb7\x90 x\n") == "f \xef\xb7\x90 x");          // U+FDD0 passes
  CHECK(Func("f \xf0\x9f\xbf\xbe x\n") == "f \xf0\x9f\xbf\xbe x");  // U+1FFFE passes
  CHECK(Func("f \xf4\x8f\xbf\xbf x\n") == "f \xf4\x8f\xbf\xbf x");  // U+10FFFF passes
  const std::string head(79, 'a');
  CHECK(Func(head + "\xc3\xa9tail\n") == head);  // cut inside a 2-byte character
  CHECK(Func(head.substr(1) + "\xc3\xa9tail\n") == head.substr(1) + "\xc3\xa9");
}

TEST_CASE("tracker searches back to the previous hunk and carries text forward",
          "[engine][funcname]") {
  const std::string file = "int a(void)\n1\n2\n3\n4\n5\n6\n7\n8\nint b(void)\n9\n10\n11\n";
  FuncnameTracker t(file);
  CHECK(t.NextHunk(0) == "");  // hunk at the first line: nothing above
  CHECK(t.NextHunk(3) == "int a(void)");
  CHECK(t.NextHunk(6) == "int a(void)");  // nothing new between: carried forward
  CHECK(t.NextHunk(11) == "int b(void)");
}

TEST_CASE("paths are quoted as git does with core.quotePath=true", "[engine][quote]") {
  CHECK(Quote("plain.txt") == "a/plain.txt");
  CHECK(Quote("sp ace") == "a/sp ace");
  CHECK(Quote("!bang") == "a/!bang");
  CHECK(Quote("tab\there") == "\"a/tab\\there\"");
  CHECK(Quote("quo\"te") == "\"a/quo\\\"te\"");
  CHECK(Quote("back\\slash") == "\"a/back\\\\slash\"");
  CHECK(Quote("caf\xc3\xa9") == "\"a/caf\\303\\251\"");
  CHECK(Quote("new\nline") == "\"a/new\\nline\"");
  CHECK(Quote("ctl\x01\x7f") == "\"a/ctl\\001\\177\"");
  CHECK(Quote("\a\b\v\f\r") == "\"a/\\a\\b\\v\\f\\r\"");
}

}  // namespace gentle::exporter
