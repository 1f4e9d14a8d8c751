// record-rewrite: once, the work a mutation does with a record whose state carries N members this
// tool does not know (transaction/mutation.cc: the state re-read as an ordered DOM, one member
// changed, then store::ToCompactState and store::EncodeRecordFile), for
// tests/record_members_work_test.cc, which counts its instructions under callgrind.
//
//   record-rewrite N
//
// The input state is built as text (building it as a DOM would itself search the object per
// member). The work is the function record_rewrite_work, which callgrind is told to count alone
// (--toggle-collect). Prints the rewritten state's member count and the record's revision.
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "store/compact_state.h"
#include "store/record.h"
#include "store/strict_json.h"

namespace {

// A state with gentle-ai's leading members, `members` unknown ones after genesis_paths (where an
// older gentle-ai's would sit), then a member earlier builds of this project wrote (dropped by the
// rewrite) and a known one that sorts after them.
std::string StateText(long members) {
  std::string text =
      "{\"schema\":\"gentle-ai.review-state/v2\",\"lineage_id\":\"review-0123456789abcdef\","
      "\"generation\":1,\"state\":\"reviewing\",\"genesis_paths\":[\"a.txt\"]";
  for (long i = 0; i < members; ++i) {
    text += ",\"unknown_" + std::to_string(i) + "\":" + std::to_string(i);
  }
  text += ",\"created_at\":\"2026-01-02T03:04:05Z\",\"runtime_agent\":\"agent\"}";
  return text;
}

}  // namespace

// Not inlined and not mangled, so that callgrind can name it.
extern "C" __attribute__((noinline)) int record_rewrite_work(const std::string* text,
                                                             std::string* file,
                                                             std::string* revision,
                                                             size_t* members) {
  nlohmann::ordered_json state;
  gentle::store::StrictJsonRefusal why;
  if (!gentle::store::ParseStrictOrderedJson(*text, gentle::store::kMaxRecordDepth, &state, &why)) {
    return 1;
  }
  state["state"] = "changes_requested";
  const nlohmann::ordered_json compact = gentle::store::ToCompactState(state);
  *members = compact.size();
  *file = gentle::store::EncodeRecordFile(compact, revision);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: record-rewrite N\n");
    return 2;
  }
  const long members = std::strtol(argv[1], nullptr, 10);
  const std::string text = StateText(members);
  std::string file;
  std::string revision;
  size_t count = 0;
  if (record_rewrite_work(&text, &file, &revision, &count) != 0) {
    std::fprintf(stderr, "record-rewrite: the state does not parse\n");
    return 1;
  }
  std::printf("members %zu\nrevision %s\n", count, revision.c_str());
  return 0;
}
