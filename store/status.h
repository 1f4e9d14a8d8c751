// Status and Result: errors as values.
//
// Every expected failure in the store, the transaction layer and the export layer is a Status
// carrying one Code from DESIGN.md section 7. The vocabulary is append-only: a code's name and exit
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

namespace gentle {

enum class Code {
  kOk = 0,
  kInternal,
  kUsage,
  kNotFound,
  kConsumed,
  kRetired,
  kReadOnly,
  kReconciliationPrepared,
  kWrongState,
  kForbidden,
  kCorrupted,
  kAmbiguous,
  kObjectsMissing,
  kBudgetExceeded,
  kIntegrityMismatch,
  kNotReviewed,
  kConflict,
  kBusy,
  kUntrusted,
  kContextUnavailable,
};

// The stable machine-readable name of a code ("not_found", ...).
std::string_view CodeName(Code code);
// The documented process exit code of a code (section 7).
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
  // Extra string facts for the JSON error envelope's "details" object.
  const std::map<std::string, std::string>& details() const { return details_; }

  Status& WithLineage(std::string lineage) {
    lineage_ = std::move(lineage);
    return *this;
  }
  Status& WithDetail(std::string key, std::string value) {
    details_[std::move(key)] = std::move(value);
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
