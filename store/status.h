// Status and Result: errors as values.
//
// Every expected failure in the store, the transaction layer and the export layer is a Status
// carrying one Code from docs/design.md. The vocabulary is append-only: a code's name and exit
// code never change once released. Exceptions never cross a module boundary; the CLI edge maps them
// to Status. Both are [[nodiscard]]: a Status or Result that is dropped unread is a compile error
// (-Werror). Reading the value of a Result that holds an error is a checked failure: it throws
// BadResultAccess, which the CLI edge reports as `internal`, never undefined behaviour.
#ifndef GENTLE_STORE_STATUS_H_
#define GENTLE_STORE_STATUS_H_

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include "store/detail_key.h"

namespace gentle {

// The error vocabulary. Each code has a stable name (CodeName), used in the JSON error envelope
// `{"schema":"gentle-ai.review-error/v1","error":{"code",...}}`, and a documented process exit
// code (ExitCodeFor); docs/design.md, "Error vocabulary", and docs/commands.md, "Errors and exit
// codes", list them. Append only: a released value, name or exit code never changes.
enum class Code {
  kOk = 0,                      // "ok", exit 0: not an error
  kInternal = 1,                // "internal", exit 1: a bug, including an escaped exception
  kUsage = 2,                   // "usage", exit 2: bad flags, lineage id syntax or verdict words
  kNotFound = 3,                // "not_found", exit 3: no record, tombstone or audit record
  kConsumed = 4,                // "consumed", exit 4: the lineage was burned (tombstone)
  kRetired = 5,                 // "retired", exit 5: abandoned or reclaimed (audit record)
  kReadOnly = 6,                // "read_only", exit 6: a historical-compat record
  kReconciliationPrepared = 7,  // "reconciliation_prepared", exit 6: a batch marker is present
  kWrongState = 8,              // "wrong_state", exit 6: the state does not allow the verb
  kForbidden = 9,               // "forbidden", exit 6: the role may not give that verdict
  kCorrupted = 10,              // "corrupted", exit 7: unparseable, unverifiable or unsafe data
  kAmbiguous = 11,              // "ambiguous", exit 7: two lineages or remotes claim one answer
  kObjectsMissing = 12,         // "objects_missing", exit 8: a tree or blob is not in the odb
  kBudgetExceeded = 13,         // "budget_exceeded", exit 9: past the export budget or a cap
  kIntegrityMismatch = 14,      // "integrity_mismatch", exit 10: a digest or size does not bind
  kNotReviewed = 15,            // "not_reviewed", exit 10: verify: the tree is not the approved one
  kConflict = 16,               // "conflict", exit 11: compare-and-swap lost; histories diverged
  kBusy = 17,                   // "busy", exit 12: a lock not obtained in time; safe to retry
  kUntrusted = 18,              // "untrusted", exit 10: a required signature does not hold
  kContextUnavailable = 19,     // "context_unavailable", exit 6: APPROVE in an uncontexted round
};

// The last code of the vocabulary: every value from kOk to kLastCode is a code.
inline constexpr Code kLastCode = Code::kContextUnavailable;

// The stable machine-readable name of a code ("not_found", ...).
std::string_view CodeName(Code code);
// The documented process exit code of a code (docs/design.md, "Error vocabulary").
int ExitCodeFor(Code code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return Status(); }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& message() const { return message_; }
  const std::string& lineage() const { return lineage_; }
  // Extra string facts for the JSON error envelope's "details" object, by key name (the byte
  // order of the names is the envelope's order).
  const std::map<std::string, std::string>& details() const { return details_; }
  // The detail `key`; nullptr when the status has none.
  const std::string* detail(DetailKey key) const {
    const auto found = details_.find(std::string(DetailKeyName(key)));
    return found == details_.end() ? nullptr : &found->second;
  }
  bool has_detail(DetailKey key) const { return detail(key) != nullptr; }

  Status& WithLineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  Status& WithDetail(DetailKey key, std::string value) {
    details_[std::string(DetailKeyName(key))] = std::move(value);
    return *this;
  }
  // A fetched history's tip under its remote's name: the one detail keyed outside DetailKey
  // (store/detail_key.h), for an `ambiguous` choice between remotes.
  Status& WithRemoteDetail(const std::string& remote, std::string tip) {
    details_[remote] = std::move(tip);
    return *this;
  }
  // Every detail of `cause` (replacing this status's value of a key both have), except `except`.
  Status& WithDetailsOf(const Status& cause, std::optional<DetailKey> except = std::nullopt) {
    for (const auto& [key, value] : cause.details_) {
      if (!except || key != DetailKeyName(*except)) details_[key] = value;
    }
    return *this;
  }

 private:
  Code code_ = Code::kOk;
  std::string message_;
  std::string lineage_;
  std::map<std::string, std::string> details_;
};

// Thrown by Result's accessors when the Result holds an error: a bug in the caller.
class BadResultAccess : public std::logic_error {
 public:
  explicit BadResultAccess(const Status& status)
      : std::logic_error("value of a failed Result read: " + std::string(CodeName(status.code())) +
                         ": " + status.message()) {}
};

// A value or the Status explaining why there is none.
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : value_(std::move(value)) {}          // NOLINT: implicit by design
  Result(Status status) : status_(std::move(status)) {}  // NOLINT: implicit by design

  bool ok() const { return status_.ok(); }
  const Status& status() const { return status_; }
  T& value() & { return Checked(); }
  const T& value() const& { return Checked(); }
  T&& value() && { return std::move(Checked()); }
  T* operator->() { return &Checked(); }
  const T* operator->() const { return &Checked(); }
  T& operator*() { return Checked(); }
  const T& operator*() const { return Checked(); }

 private:
  T& Checked() {
    if (!value_) throw BadResultAccess(status_);
    return *value_;
  }
  const T& Checked() const {
    if (!value_) throw BadResultAccess(status_);
    return *value_;
  }

  std::optional<T> value_;
  Status status_;
};

}  // namespace gentle

#define GENTLE_CONCAT_INNER(a, b) a##b
#define GENTLE_CONCAT(a, b) GENTLE_CONCAT_INNER(a, b)

// Propagates a non-ok Status from an expression yielding Status. Each expansion names its own
// temporary, so a lambda inside `expr` may use the macro again without shadowing (-Wshadow).
#define GENTLE_RETURN_IF_ERROR(expr) \
  GENTLE_RETURN_IF_ERROR_IMPL(GENTLE_CONCAT(_status_, __COUNTER__), expr)
#define GENTLE_RETURN_IF_ERROR_IMPL(tmp, expr) \
  do {                                         \
    ::gentle::Status tmp = (expr);             \
    if (!tmp.ok()) return tmp;                 \
  } while (0)

// Declares `lhs` from a Result-yielding expression, or returns its Status.
#define GENTLE_ASSIGN_OR_RETURN(lhs, expr) \
  GENTLE_ASSIGN_OR_RETURN_IMPL(GENTLE_CONCAT(_result_, __COUNTER__), lhs, expr)
#define GENTLE_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                 \
  if (!tmp.ok()) return tmp.status();                \
  lhs = std::move(tmp).value()

#endif  // GENTLE_STORE_STATUS_H_
