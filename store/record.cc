#include "store/record.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "store/digests.h"
#include "store/file_io.h"
#include "store/go_json.h"
#include "store/go_marshal.h"
#include "store/json_member.h"
#include "store/record_events.h"
#include "store/selector_kind.h"
#include "store/strict_json.h"

namespace gentle::store {
namespace {

using Json = nlohmann::json;

struct Malformed {
  std::string what;
};

// Parses with nlohmann, additionally refusing duplicate object keys and excessive nesting.
Json ParseStrict(std::string_view text) {
  Json parsed;
  StrictJsonRefusal why;
  if (ParseStrictJson(text, kMaxRecordDepth, &parsed, &why)) return parsed;
  switch (why.kind) {
    case StrictJsonRefusal::Kind::kDuplicateKey:
      throw Malformed{"duplicate key \"" + why.detail + "\""};
    case StrictJsonRefusal::Kind::kTooDeep:
      throw Malformed{"JSON nested too deeply"};
    case StrictJsonRefusal::Kind::kSyntax:
      break;
  }
  throw Malformed{"is not valid JSON: " + why.detail};
}

bool IsJsonSpace(char c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r'; }

// Index just past the string starting at text[i] == '"'.
size_t SkipString(std::string_view text, size_t i) {
  for (++i; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
    } else if (text[i] == '"') {
      return i + 1;
    }
  }
  return text.size();
}

// Index just past the JSON value starting at text[i].
size_t SkipValue(std::string_view text, size_t i) {
  if (text[i] == '"') return SkipString(text, i);
  int depth = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      i = SkipString(text, i) - 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth <= 0) return depth == 0 ? i + 1 : i;
    } else if (depth == 0 && (c == ',' || IsJsonSpace(c))) {
      return i;
    }
  }
  return i;
}

// The raw text of the top-level member `name` of a JSON object text that already parsed.
std::string_view RawMember(std::string_view text, std::string_view name) {
  size_t i = text.find('{') + 1;
  while (i < text.size()) {
    while (i < text.size() && (IsJsonSpace(text[i]) || text[i] == ',')) ++i;
    if (i >= text.size() || text[i] != '"') break;
    size_t key_end = SkipString(text, i);
    std::string_view key = text.substr(i + 1, key_end - i - 2);
    i = text.find(':', key_end) + 1;
    while (i < text.size() && IsJsonSpace(text[i])) ++i;
    size_t value_end = SkipValue(text, i);
    if (key == name) return text.substr(i, value_end - i);
    i = value_end;
  }
  return {};
}

const Json& Require(const Json& object, const char* key, Json::value_t type, const char* where) {
  MemberFault fault = MemberFault::kNone;
  const Json* member = TypedMember(object, key, type, &fault);
  if (fault == MemberFault::kAbsent) {
    throw Malformed{std::string(where) + " lacks \"" + key + "\""};
  }
  if (member == nullptr) throw Malformed{std::string(where) + " has a malformed \"" + key + "\""};
  return *member;
}

// The member when present, nullptr when absent; present with another type is malformed.
const Json* Optional(const Json& object, const char* key, Json::value_t type, const char* where) {
  MemberFault fault = MemberFault::kNone;
  const Json* member = TypedMember(object, key, type, &fault);
  if (fault == MemberFault::kWrongType) {
    throw Malformed{std::string(where) + " has a malformed \"" + key + "\""};
  }
  return member;
}

std::string RequireString(const Json& object, const char* key, const char* where) {
  return Require(object, key, Json::value_t::string, where).get<std::string>();
}

std::vector<std::string> StringArray(const Json& object, const char* key, const char* where,
                                     bool required) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required && it == object.end()) {
      throw Malformed{std::string(where) + " lacks \"" + key + "\""};
    }
    return {};
  }
  if (!it->is_array()) throw Malformed{std::string(where) + " has a malformed \"" + key + "\""};
  std::vector<std::string> out;
  for (const auto& element : *it) {
    if (!element.is_string())
      throw Malformed{std::string(where) + ": \"" + key + "\" holds a non-string"};
    out.push_back(element.get<std::string>());
  }
  return out;
}

bool IsTreeId(const std::string& id) {
  if (id.size() != 40 && id.size() != 64) return false;
  for (char c : id) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

bool IsOurKind(const std::string& kind) { return ParseSelectorKind(kind).has_value(); }

// The projection as written, normalised: workspace is "".
void NormaliseProjection(Snapshot* s, const char* key) {
  if (s->projection == kProjectionWorkspace) s->projection.clear();
  if (!s->projection.empty() && s->projection != kProjectionStaged) {
    throw Malformed{std::string(key) + " has an unknown projection"};
  }
}

// The checks of a snapshot whose members are read: the ids' shapes and the two digests that bind
// it.
void CheckSnapshot(const Snapshot& s, const char* key) {
  if (!IsTreeId(s.base_tree) || !IsTreeId(s.candidate_tree)) {
    throw Malformed{std::string(key) + " has a malformed tree id"};
  }
  if (!IsSha256Id(s.paths_digest) || !IsSha256Id(s.identity)) {
    throw Malformed{std::string(key) + " has a malformed digest"};
  }
  if (PathsDigest(s.paths) != s.paths_digest) {
    throw Malformed{std::string(key) + ": paths_digest does not bind its paths"};
  }
  if (IsOurKind(s.kind) && ComputeSnapshotIdentity(s) != s.identity) {
    throw Malformed{std::string(key) + ": identity does not bind the snapshot"};
  }
}

// A snapshot member of `state`, its members read and checked.
Snapshot ParseSnapshot(const Json& state, const char* key) {
  const Json& j = Require(state, key, Json::value_t::object, "state");
  Snapshot s;
  s.kind = RequireString(j, "kind", key);
  if (const Json* projection = Optional(j, "projection", Json::value_t::string, key)) {
    s.projection = projection->get<std::string>();
    NormaliseProjection(&s, key);
  }
  if (const Json* unborn = Optional(j, "unborn_head", Json::value_t::boolean, key)) {
    s.unborn_head = unborn->get<bool>();
  }
  s.base_tree = RequireString(j, "base_tree", key);
  s.candidate_tree = RequireString(j, "candidate_tree", key);
  s.paths_digest = RequireString(j, "paths_digest", key);
  s.intended_untracked = StringArray(j, "intended_untracked", key, false);
  s.intended_untracked_proof = StringMember(j, "intended_untracked_proof");
  s.ledger_ids = StringArray(j, "ledger_ids", key, false);
  s.paths = StringArray(j, "paths", key, true);
  s.identity = RequireString(j, "identity", key);
  CheckSnapshot(s, key);
  return s;
}

bool NonEmpty(const Json& state, const char* key) {
  auto it = state.find(key);
  if (it == state.end() || it->is_null()) return false;
  if (it->is_array() || it->is_object() || it->is_string()) return !it->empty();
  return true;
}

bool CarriesRetiredFields(const Json& state) {
  for (const char* key :
       {"zero_edit_escalation", "candidate_artifact_required", "risk_source", "lens_results",
        "findings", "classifications", "outcomes", "follow_ups"}) {
    if (NonEmpty(state, key)) return true;
  }
  auto recovery = state.find("recovery");
  return recovery != state.end() && recovery->is_object() && recovery->contains("review_start");
}

// ParseRecordFile's checks, in its order, of a record read by store/record_events.h: the view
// it returns, or std::nullopt when any check fails (the DOM path then answers, with its message).
std::optional<RecordView> ViewOfFields(RecordFields fields, std::string_view bytes,
                                       std::string_view expected_lineage) {
  try {
    if (fields.schema != kRecordSchema) return std::nullopt;
    RecordView view;
    view.revision = std::move(fields.revision);
    view.compact_state = CompactJson(RawMember(bytes, "state"));
    if (!IsSha256Id(view.revision) || StateRevision(view.compact_state) != view.revision) {
      return std::nullopt;
    }
    if (fields.state_schema != kStateSchema) return std::nullopt;
    view.lineage_id = std::move(fields.lineage_id);
    if (view.lineage_id != expected_lineage) return std::nullopt;
    view.round = static_cast<int64_t>(fields.generation);
    if (view.round < 1) return std::nullopt;
    view.state = StateName::FromText(std::move(fields.state));
    // The parse of a snapshot is a function of the members read, so equal members (every
    // round-1 record) are checked once.
    const bool same = fields.current_snapshot == fields.initial_snapshot;
    NormaliseProjection(&fields.initial_snapshot, "initial_snapshot");
    CheckSnapshot(fields.initial_snapshot, "initial_snapshot");
    view.initial_snapshot = std::move(fields.initial_snapshot);
    if (same) {
      view.current_snapshot = view.initial_snapshot;
    } else {
      NormaliseProjection(&fields.current_snapshot, "current_snapshot");
      CheckSnapshot(fields.current_snapshot, "current_snapshot");
      view.current_snapshot = std::move(fields.current_snapshot);
    }
    view.created_at = std::move(fields.created_at);
    view.worktree_identity = std::move(fields.worktree_identity);
    view.historical_compat = fields.historical_compat;
    return view;
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

Result<RecordView> ParseRecordFile(std::string_view bytes, std::string_view expected_lineage) {
  // Every record a writer produces is read without building a JSON document; anything else goes
  // through the DOM, whose answer is the same for what both accept.
  if (bytes.size() <= kMaxRecordBytes) {
    if (std::optional<RecordFields> fields = ReadRecordEvents(bytes)) {
      if (std::optional<RecordView> view =
              ViewOfFields(std::move(*fields), bytes, expected_lineage)) {
        return std::move(*view);
      }
    }
  }
  return ParseRecordFileThroughDom(bytes, expected_lineage);
}

Result<RecordView> ParseRecordFileThroughDom(std::string_view bytes,
                                             std::string_view expected_lineage) {
  auto corrupted = [&](const std::string& why) {
    return Status(Code::kCorrupted, "record for " + std::string(expected_lineage) + " " + why)
        .WithLineage(std::string(expected_lineage));
  };
  if (bytes.size() > kMaxRecordBytes) return corrupted("exceeds 32 MiB");
  try {
    Json doc = ParseStrict(bytes);
    if (!doc.is_object()) return corrupted("is not a JSON object");
    for (const auto& item : doc.items()) {
      if (item.key() != "schema" && item.key() != "revision" && item.key() != "state") {
        return corrupted("has an unknown envelope member \"" + item.key() + "\"");
      }
    }
    if (RequireString(doc, "schema", "record") != kRecordSchema)
      return corrupted("has a foreign schema");
    RecordView view;
    view.revision = RequireString(doc, "revision", "record");
    const Json& state = Require(doc, "state", Json::value_t::object, "record");
    view.compact_state = CompactJson(RawMember(bytes, "state"));
    if (!IsSha256Id(view.revision) || StateRevision(view.compact_state) != view.revision) {
      return corrupted("fails revision verification");
    }
    if (RequireString(state, "schema", "state") != kStateSchema)
      return corrupted("has a foreign state schema");
    view.lineage_id = RequireString(state, "lineage_id", "state");
    if (view.lineage_id != expected_lineage)
      return corrupted("names another lineage: " + view.lineage_id);
    view.round =
        Require(state, "generation", Json::value_t::number_integer, "state").get<int64_t>();
    if (view.round < 1) return corrupted("has a generation below 1");
    view.state = StateName::FromText(RequireString(state, "state", "state"));
    view.initial_snapshot = ParseSnapshot(state, "initial_snapshot");
    // In round 1 (and after a revise back to the same candidate) the two snapshots are the same
    // JSON: the parse, with its two digests, is a function of it.
    const auto initial = state.find("initial_snapshot");  // there: parsed above
    const auto current = state.find("current_snapshot");
    if (current != state.end() && initial != state.end() && *current == *initial) {
      view.current_snapshot = view.initial_snapshot;
    } else {
      view.current_snapshot = ParseSnapshot(state, "current_snapshot");
    }
    view.created_at = StringMember(state, "created_at");
    if (const Json* start = TypedMember(state, "initial_atomic_start", Json::value_t::object)) {
      view.worktree_identity = StringMember(*start, "worktree_identity");
    }
    view.historical_compat = CarriesRetiredFields(state);
    return view;
  } catch (const Malformed& m) {
    return corrupted(m.what);
  } catch (const std::exception& e) {
    return corrupted(std::string("is not valid JSON: ") + e.what());
  }
}

Result<RecordView> LoadRecord(const StoreLayout& layout, const std::string& lineage) {
  const std::string path = layout.record_path(lineage);
  GENTLE_RETURN_IF_ERROR(CheckNoSymlinks(layout.common_dir(), path));
  auto bytes = ReadFileLimited(path, kMaxRecordBytes);
  if (!bytes.ok()) {
    Status st = bytes.status();
    return st.WithLineage(lineage);
  }
  return ParseRecordFile(*bytes, lineage);
}

std::string EncodeRecordFile(const nlohmann::ordered_json& state, std::string* revision) {
  *revision = StateRevision(MarshalCompact(state));
  nlohmann::ordered_json envelope;
  envelope["schema"] = kRecordSchema;
  envelope["revision"] = *revision;
  envelope["state"] = state;
  return MarshalIndent(envelope) + "\n";
}

void SnapshotToJson(const Snapshot& s, nlohmann::ordered_json* out) {
  nlohmann::ordered_json& j = *out;
  j = nlohmann::ordered_json::object();
  j["kind"] = s.kind;
  if (!s.projection.empty()) j["projection"] = s.projection;
  if (s.unborn_head) j["unborn_head"] = true;
  j["base_tree"] = s.base_tree;
  j["candidate_tree"] = s.candidate_tree;
  j["paths_digest"] = s.paths_digest;
  j["intended_untracked"] = s.intended_untracked;
  j["intended_untracked_proof"] = s.intended_untracked_proof;
  if (!s.ledger_ids.empty()) j["ledger_ids"] = s.ledger_ids;
  j["paths"] = s.paths;
  j["identity"] = s.identity;
}

}  // namespace gentle::store
