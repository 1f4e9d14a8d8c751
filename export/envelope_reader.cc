#include "export/envelope_reader.h"

#include <initializer_list>
#include <nlohmann/json.hpp>
#include <vector>

#include "export/base64.h"
#include "export/derivation.h"
#include "store/sha256.h"
#include "store/strict_json.h"

namespace gentle::exporter {
namespace {

using Json = nlohmann::json;

struct Bad {
  std::string what;
};

constexpr size_t kMaxDepth = 64;

// Like the record codec: a duplicate key (readers disagree on which copy wins) or nesting deeper
// than any envelope has is refused rather than silently resolved.
Json ParseStrict(std::string_view text) {
  Json parsed;
  store::StrictJsonRefusal why;
  if (store::ParseStrictJson(text, kMaxDepth, &parsed, &why)) return parsed;
  switch (why.kind) {
    case store::StrictJsonRefusal::Kind::kDuplicateKey:
      throw Bad{"has a duplicate key \"" + why.detail + "\""};
    case store::StrictJsonRefusal::Kind::kTooDeep:
      throw Bad{"is nested too deeply"};
    case store::StrictJsonRefusal::Kind::kSyntax:
      break;
  }
  throw Bad{"is not valid JSON: " + why.detail};
}

const Json& Member(const Json& object, const char* key) {
  if (!object.is_object() || !object.contains(key)) throw Bad{std::string("lacks ") + key};
  return object.at(key);
}

std::string String(const Json& object, const char* key) {
  const Json& v = Member(object, key);
  if (!v.is_string()) throw Bad{std::string(key) + " is not a string"};
  return v.get<std::string>();
}

std::vector<std::string> Strings(const Json& object, const char* key) {
  const Json& v = Member(object, key);
  if (!v.is_array()) throw Bad{std::string(key) + " is not an array"};
  std::vector<std::string> out;
  for (const Json& e : v) {
    if (!e.is_string()) throw Bad{std::string(key) + " holds a non-string"};
    out.push_back(e.get<std::string>());
  }
  return out;
}

// An object whose members are exactly `keys`.
void RequireExactly(const Json& object, std::initializer_list<const char*> keys, const char* what) {
  if (!object.is_object()) throw Bad{std::string(what) + " is not an object"};
  for (const char* key : keys) Member(object, key);
  if (object.size() != keys.size()) throw Bad{std::string(what) + " has an unknown member"};
}

uint64_t Unsigned(const Json& object, const char* key) {
  const Json& v = Member(object, key);
  if (v.is_number_unsigned()) return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0)
    return static_cast<uint64_t>(v.get<int64_t>());
  throw Bad{std::string(key) + " is not an unsigned integer"};
}

std::vector<ManifestEntry> Manifest(const Json& j) {
  const Json& list = Member(j, "changed_path_manifest");
  if (!list.is_array()) throw Bad{"changed_path_manifest is not an array"};
  std::vector<ManifestEntry> out;
  out.reserve(list.size());
  for (const Json& e : list) {
    RequireExactly(e, {"path", "status", "old_mode", "new_mode", "old_oid", "new_oid"},
                   "a changed_path_manifest entry");
    const std::string status = String(e, "status");
    if (status.size() != 1) throw Bad{"a changed_path_manifest entry has a malformed status"};
    out.push_back({String(e, "path"), status[0], String(e, "old_mode"), String(e, "new_mode"),
                   String(e, "old_oid"), String(e, "new_oid")});
  }
  return out;
}

}  // namespace

Result<Envelope> ParseEnvelope(std::string_view text) {
  auto bad = [](const std::string& why) {
    return Status(Code::kIntegrityMismatch, "context envelope " + why);
  };
  if (text.size() > kMaxEnvelopeBytes) return bad("is too large");
  try {
    Json j = ParseStrict(text);
    const std::string schema = String(j, "schema");
    if (schema != "gentle-ai.review-context-export/v1") {
      return bad("has a foreign schema").WithDetail(DetailKey::kSchema, schema);
    }
    Envelope e;
    e.lineage = String(j, "lineage");
    e.revision = String(j, "revision");
    e.state = store::StateName::FromText(String(j, "state"));
    if (j.contains("round")) {
      const Json& round = j.at("round");
      if (!round.is_number_integer() || round.get<int64_t>() < 1) {
        return bad("has a malformed round");
      }
      e.round = round.get<int64_t>();
    }
    if (j.contains("round_revision")) {
      if (!e.round) return bad("has a round_revision without a round");
      e.round_revision = String(j, "round_revision");
    }
    if (j.contains("view")) {
      const Json& view = j.at("view");
      e.view = view.is_string() ? view.get<std::string>() : view.dump();
    }
    const Json& s = Member(j, "snapshot");
    e.snapshot.kind = String(s, "kind");
    e.snapshot.projection = String(s, "projection");
    if (e.snapshot.projection == store::kProjectionWorkspace) e.snapshot.projection.clear();
    const Json& unborn = Member(s, "unborn_head");
    if (!unborn.is_boolean()) return bad("has a malformed unborn_head");
    e.snapshot.unborn_head = unborn.get<bool>();
    e.snapshot.base_tree = String(s, "base_tree");
    e.snapshot.candidate_tree = String(s, "candidate_tree");
    e.snapshot.paths_digest = String(s, "paths_digest");
    e.snapshot.intended_untracked = Strings(s, "intended_untracked");
    e.snapshot.ledger_ids = Strings(s, "ledger_ids");
    e.snapshot.identity = String(s, "identity");

    const Json& diff = Member(j, "candidate_diff");
    if (String(diff, "encoding") != "base64") return bad("has an unknown encoding");
    const Json& size = Member(diff, "byte_size");
    if (!size.is_number_unsigned() && !size.is_number_integer())
      return bad("has a malformed byte_size");
    const int64_t byte_size = size.get<int64_t>();
    if (byte_size < 0 || static_cast<uint64_t>(byte_size) > kMaxContextBytes) {
      return bad("declares a byte_size outside 0..4194304");
    }
    const std::string data = String(diff, "data");
    if (data.size() != EncodedBase64Size(static_cast<size_t>(byte_size))) {
      return bad("data length does not match byte_size");
    }
    auto decoded = DecodeCanonicalBase64(data);
    if (!decoded) return bad("data is not canonical base64");
    if (decoded->size() != static_cast<size_t>(byte_size))
      return bad("byte_size does not match data");
    e.sha256 = String(diff, "sha256");
    if (e.sha256 != "sha256:" + store::Sha256Hex(*decoded))
      return bad("sha256 does not match data");
    e.patch = std::move(*decoded);

    e.manifest = Manifest(j);
    const Json& derivation = Member(j, "derivation");
    RequireExactly(derivation, {"git_flags", "engine", "tool_version"}, "derivation");
    e.git_flags = Strings(derivation, "git_flags");
    e.engine = String(derivation, "engine");
    e.tool_version = String(derivation, "tool_version");
    const Json& budget = Member(j, "budget");
    RequireExactly(budget, {"max_bytes", "used_bytes"}, "budget");
    e.max_bytes = Unsigned(budget, "max_bytes");
    e.used_bytes = Unsigned(budget, "used_bytes");
    return e;
  } catch (const Bad& b) {
    return bad(b.what);
  } catch (const std::exception& ex) {
    return bad(std::string("is not valid JSON: ") + ex.what());
  }
}

}  // namespace gentle::exporter
