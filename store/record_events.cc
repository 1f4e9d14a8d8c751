#include "store/record_events.h"

#include <algorithm>
#include <array>
#include <vector>

#include "store/json_event_reader.h"
#include "store/record.h"

namespace gentle::store {
namespace {

// Keys one object may hold before the DOM path takes the record (the duplicate check here is a
// linear search).
constexpr size_t kMaxKeysPerObject = 64;

// What a container is, by where it sits in the record.
enum class Ctx {
  kEnvelope,     // the document
  kState,        // envelope.state
  kSnapshot,     // state.initial_snapshot / state.current_snapshot
  kStrings,      // a snapshot's intended_untracked, ledger_ids or paths
  kAtomicStart,  // state.initial_atomic_start
  kRecovery,     // state.recovery
  kRetired,      // a retired member of state: any element makes it non-empty
  kIgnored,      // anything else: only well-formed and free of duplicate keys
};

// The members a snapshot must hold, as bits of Frame::seen.
enum SnapshotMember : unsigned {
  kKind = 1u << 0,
  kBaseTree = 1u << 1,
  kCandidateTree = 1u << 2,
  kPathsDigest = 1u << 3,
  kPaths = 1u << 4,
  kIdentity = 1u << 5,
};
constexpr unsigned kSnapshotRequired =
    kKind | kBaseTree | kCandidateTree | kPathsDigest | kPaths | kIdentity;

// The members the envelope and the state must hold.
enum RecordMember : unsigned {
  kSchema = 1u << 0,
  kRevision = 1u << 1,
  kStateObject = 1u << 2,
  kStateSchema = 1u << 3,
  kLineage = 1u << 4,
  kGeneration = 1u << 5,
  kStateName = 1u << 6,
  kInitial = 1u << 7,
  kCurrent = 1u << 8,
};
constexpr unsigned kRecordRequired = kSchema | kRevision | kStateObject | kStateSchema | kLineage |
                                     kGeneration | kStateName | kInitial | kCurrent;

// The members of state whose non-empty presence marks a record as historical (ParseRecordFile's
// CarriesRetiredFields).
constexpr std::array<std::string_view, 8> kRetiredMembers = {"zero_edit_escalation",
                                                             "candidate_artifact_required",
                                                             "risk_source",
                                                             "lens_results",
                                                             "findings",
                                                             "classifications",
                                                             "outcomes",
                                                             "follow_ups"};

bool IsRetired(std::string_view key) {
  return std::find(kRetiredMembers.begin(), kRetiredMembers.end(), key) != kRetiredMembers.end();
}

struct Frame {
  Ctx ctx;
  bool object;
  std::vector<std::string> keys;  // objects: the keys so far; back() is the member being read
  Snapshot* snapshot = nullptr;   // kSnapshot
  unsigned seen = 0;              // kSnapshot: SnapshotMember bits
  std::vector<std::string>* strings = nullptr;  // kStrings
};

// The SAX handler store/json_event_reader.h drives. Every method returns false for a shape the
// DOM path must answer, which ends the read.
class Handler {
 public:
  explicit Handler(RecordFields* out) : out_(out) {}

  bool null() { return Scalar(nullptr, nullptr, nullptr); }
  bool boolean(bool value) { return Scalar(nullptr, nullptr, &value); }
  bool number_integer(int64_t) { return Negative(); }
  bool number_unsigned(uint64_t value) { return Scalar(nullptr, &value, nullptr); }
  bool number_float(double, const std::string&) { return false; }
  bool string(std::string& value) { return Scalar(&value, nullptr, nullptr); }
  bool start_object(size_t) { return Open(true); }
  bool start_array(size_t) { return Open(false); }
  bool end_object() { return Close(); }
  bool end_array() { return Close(); }

  bool key(std::string& name) {
    Frame& frame = frames_.back();
    if (frame.keys.size() >= kMaxKeysPerObject) return false;
    if (std::find(frame.keys.begin(), frame.keys.end(), name) != frame.keys.end()) return false;
    if (frame.ctx == Ctx::kRetired) out_->historical_compat = true;
    if (frame.ctx == Ctx::kRecovery && name == "review_start") out_->historical_compat = true;
    frame.keys.push_back(name);
    return true;
  }

  // Whether the whole document was read and held every member the record needs.
  bool Complete() const {
    return frames_.empty() && (members_ & kRecordRequired) == kRecordRequired;
  }

 private:
  bool TooDeep() const { return frames_.size() > kMaxRecordDepth; }

  // The key of the member being read in the innermost object.
  const std::string& Key() const { return frames_.back().keys.back(); }

  // A negative integer: only in places whose value is never read.
  bool Negative() {
    if (frames_.empty() || TooDeep()) return false;
    Frame& frame = frames_.back();
    switch (frame.ctx) {
      case Ctx::kState:
        if (IsRetired(Key())) out_->historical_compat = true;
        return Key() != "schema" && Key() != "lineage_id" && Key() != "generation" &&
               Key() != "state" && Key() != "initial_snapshot" && Key() != "current_snapshot";
      case Ctx::kSnapshot:
        return !IsSnapshotTyped(Key());
      case Ctx::kRetired:
        out_->historical_compat = true;
        return true;
      case Ctx::kAtomicStart:
      case Ctx::kRecovery:
      case Ctx::kIgnored:
        return true;
      case Ctx::kEnvelope:
      case Ctx::kStrings:
        return false;
    }
    return false;
  }

  // Members of a snapshot whose type ParseRecordFile requires (or refuses when wrong).
  static bool IsSnapshotTyped(const std::string& key) {
    return key == "kind" || key == "projection" || key == "unborn_head" || key == "base_tree" ||
           key == "candidate_tree" || key == "paths_digest" || key == "intended_untracked" ||
           key == "ledger_ids" || key == "paths" || key == "identity";
  }

  // A scalar: exactly one of `text` (a string), `number` (non-negative integer), `flag` (boolean)
  // is set, or none (null).
  bool Scalar(std::string* text, const uint64_t* number, const bool* flag) {
    if (frames_.empty() || TooDeep()) return false;
    Frame& frame = frames_.back();
    switch (frame.ctx) {
      case Ctx::kEnvelope:
        return EnvelopeScalar(text);
      case Ctx::kState:
        return StateScalar(text, number, flag);
      case Ctx::kSnapshot:
        return SnapshotScalar(&frame, text, flag);
      case Ctx::kStrings:
        if (text == nullptr) return false;
        frame.strings->push_back(std::move(*text));
        return true;
      case Ctx::kAtomicStart:
        if (text != nullptr && Key() == "worktree_identity") {
          out_->worktree_identity = std::move(*text);
        }
        return true;
      case Ctx::kRetired:
        out_->historical_compat = true;
        return true;
      case Ctx::kRecovery:
      case Ctx::kIgnored:
        return true;
    }
    return false;
  }

  bool EnvelopeScalar(std::string* text) {
    const std::string& key = Key();
    if (text == nullptr) return false;
    if (key == "schema") {
      out_->schema = std::move(*text);
      members_ |= kSchema;
      return true;
    }
    if (key == "revision") {
      out_->revision = std::move(*text);
      members_ |= kRevision;
      return true;
    }
    return false;
  }

  bool StateScalar(std::string* text, const uint64_t* number, const bool* flag) {
    const std::string& key = Key();
    auto take = [&](std::string* into, unsigned bit) {
      if (text == nullptr) return false;
      *into = std::move(*text);
      members_ |= bit;
      return true;
    };
    if (key == "schema") return take(&out_->state_schema, kStateSchema);
    if (key == "lineage_id") return take(&out_->lineage_id, kLineage);
    if (key == "state") return take(&out_->state, kStateName);
    if (key == "generation") {
      if (number == nullptr || *number > static_cast<uint64_t>(INT64_MAX)) return false;
      out_->generation = *number;
      members_ |= kGeneration;
      return true;
    }
    if (key == "initial_snapshot" || key == "current_snapshot") return false;
    if (key == "created_at") {
      if (text != nullptr) out_->created_at = std::move(*text);
      return true;
    }
    // Null is empty; any string (as nlohmann's empty() answers, "" too), number or boolean counts.
    if (IsRetired(key) && (text != nullptr || number != nullptr || flag != nullptr)) {
      out_->historical_compat = true;
    }
    return true;
  }

  bool SnapshotScalar(Frame* frame, std::string* text, const bool* flag) {
    const std::string& key = Key();
    Snapshot* s = frame->snapshot;
    auto take = [&](std::string* into, unsigned bit) {
      if (text == nullptr) return false;
      *into = std::move(*text);
      frame->seen |= bit;
      return true;
    };
    if (key == "kind") return take(&s->kind, kKind);
    if (key == "base_tree") return take(&s->base_tree, kBaseTree);
    if (key == "candidate_tree") return take(&s->candidate_tree, kCandidateTree);
    if (key == "paths_digest") return take(&s->paths_digest, kPathsDigest);
    if (key == "identity") return take(&s->identity, kIdentity);
    if (key == "projection") return take(&s->projection, 0);
    if (key == "unborn_head") {
      if (flag == nullptr) return false;
      s->unborn_head = *flag;
      return true;
    }
    if (key == "intended_untracked" || key == "ledger_ids" || key == "paths") return false;
    if (key == "intended_untracked_proof" && text != nullptr) {
      s->intended_untracked_proof = std::move(*text);
    }
    return true;
  }

  bool Open(bool object) {
    if (TooDeep()) return false;
    if (frames_.empty()) {
      if (!object) return false;
      frames_.push_back(Frame{Ctx::kEnvelope, true, {}});
      return true;
    }
    Frame child{Ctx::kIgnored, object, {}};
    if (!Classify(&frames_.back(), object, &child)) return false;
    frames_.push_back(std::move(child));
    return true;
  }

  // What the container opening now in `parent` is; false when the record cannot have it there.
  bool Classify(Frame* parent, bool object, Frame* child) {
    switch (parent->ctx) {
      case Ctx::kEnvelope:
        if (Key() != "state" || !object) return false;
        members_ |= kStateObject;
        child->ctx = Ctx::kState;
        return true;
      case Ctx::kState: {
        const std::string& key = Key();
        if (key == "initial_snapshot" || key == "current_snapshot") {
          if (!object) return false;
          const bool initial = key == "initial_snapshot";
          members_ |= initial ? kInitial : kCurrent;
          child->ctx = Ctx::kSnapshot;
          child->snapshot = initial ? &out_->initial_snapshot : &out_->current_snapshot;
          return true;
        }
        if (key == "schema" || key == "lineage_id" || key == "state" || key == "generation") {
          return false;
        }
        if (key == "initial_atomic_start" && object) child->ctx = Ctx::kAtomicStart;
        if (key == "recovery" && object) child->ctx = Ctx::kRecovery;
        if (IsRetired(key)) child->ctx = Ctx::kRetired;
        return true;
      }
      case Ctx::kSnapshot: {
        const std::string& key = Key();
        if (key == "intended_untracked" || key == "ledger_ids" || key == "paths") {
          if (object) return false;
          Snapshot* s = parent->snapshot;
          child->ctx = Ctx::kStrings;
          child->strings = key == "paths"        ? &s->paths
                           : key == "ledger_ids" ? &s->ledger_ids
                                                 : &s->intended_untracked;
          if (key == "paths") parent->seen |= kPaths;
          return true;
        }
        return !IsSnapshotTyped(key);
      }
      case Ctx::kStrings:
        return false;
      case Ctx::kRetired:
        out_->historical_compat = true;
        return true;
      case Ctx::kAtomicStart:
      case Ctx::kRecovery:
      case Ctx::kIgnored:
        return true;
    }
    return false;
  }

  bool Close() {
    const Frame& frame = frames_.back();
    if (frame.ctx == Ctx::kSnapshot && (frame.seen & kSnapshotRequired) != kSnapshotRequired) {
      return false;
    }
    frames_.pop_back();
    return true;
  }

  RecordFields* const out_;
  std::vector<Frame> frames_;
  unsigned members_ = 0;
};

}  // namespace

std::optional<RecordFields> ReadRecordEvents(std::string_view bytes) {
  RecordFields fields;
  Handler handler(&fields);
  if (ReadJsonEvents(bytes, &handler) != JsonEventResult::kAccepted || !handler.Complete()) {
    return std::nullopt;
  }
  return fields;
}

}  // namespace gentle::store
