// Why an allowed signers file (git's gpg.ssh.allowedSignersFile, ssh-keygen(1) "ALLOWED
// SIGNERS") does not let a key sign at a given time: the reason `verify --require-signature`
// names after ssh-keygen refused a signature (export/approval_signature.h).
//
// ssh-keygen decides; this only explains. A line is `principals [options] keytype base64-key
// [comment]`; blank lines and `#` comments are skipped, as is a line that does not parse. Options
// read: `cert-authority` (such a line names a CA, not the signing key, and is not matched here),
// `namespaces="a,b"` (patterns the key may sign for), `valid-after=` and `valid-before=`
// (YYYYMMDD[Z] or YYYYMMDDHHMM[SS][Z], the system time zone unless suffixed Z, as ssh-keygen
// reads them; valid-after is inclusive, valid-before too).
//
// PrincipalsOfKey, PrincipalEmails and PublicKeyBlob serve the approval policy (who signed,
// by which addresses: export/approval_policy.h) and `verdict APPROVE --sign` without --actor.
//
// DiagnoseSignerRefusal, over the lines whose key is `public_key` (wire-format blob):
//   none                                                     kUnknownKey
//   one valid at `time` whose namespaces exclude `name_space` kWrongNamespace
//   else one whose valid-before is before `time`              kExpired
//   else one whose valid-after is after `time`                kNotYetValid
//   one valid at `time` for `name_space` (ssh-keygen refused for another reason) kNotAllowed
// The principal of the line that decided is returned with it ("" for kUnknownKey).
#ifndef GENTLE_EXPORT_ALLOWED_SIGNERS_H_
#define GENTLE_EXPORT_ALLOWED_SIGNERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gentle::exporter {

enum class SignerRefusal { kUnknownKey, kWrongNamespace, kExpired, kNotYetValid, kNotAllowed };

// "unknown_key", "wrong_namespace", "expired", "not_yet_valid", "not_allowed": the
// details.reason of the `untrusted` refusal.
std::string_view SignerRefusalName(SignerRefusal refusal);

struct SignerDiagnosis {
  SignerRefusal refusal = SignerRefusal::kUnknownKey;
  std::string principal;
};

SignerDiagnosis DiagnoseSignerRefusal(std::string_view allowed_signers, std::string_view public_key,
                                      int64_t time, std::string_view name_space);

// The principals of the entries (cert-authority lines aside) whose key is `public_key`, in file
// order, each once: a line's principals are its comma-separated first field.
std::vector<std::string> PrincipalsOfKey(std::string_view allowed_signers,
                                         std::string_view public_key);

// The email addresses a principal is known by (docs/ci.md, "Who is an author"), each once: the
// principal itself when it is an address (`local@domain`), then every address (`a@b` or `<a@b>`)
// among the comment words after the key of each entry whose key is `public_key` and whose
// principals include `principal`. Compared case-insensitively by the caller.
std::vector<std::string> PrincipalEmails(std::string_view allowed_signers,
                                         std::string_view public_key, const std::string& principal);

// One line of the file that parses, as this reader reads it (see above): for grouping the
// principals and keys into persons (export/signer_persons.h).
struct SignerEntry {
  size_t line = 0;                      // 1-based line number in the file
  std::vector<std::string> principals;  // the comma-separated first field, as written
  std::string public_key;               // wire-format blob
  bool cert_authority = false;
  std::vector<std::string> comment_emails;  // the addresses among the comment words
};
std::vector<SignerEntry> SignerEntries(std::string_view allowed_signers);

// The wire-format blob of an OpenSSH public key text (`type base64 [comment]`, one line), nullopt
// when the text is not one.
std::optional<std::string> PublicKeyBlob(std::string_view text);

// "YYYYMMDDHHMMSSZ" for `time` (seconds since the epoch): the form ssh-keygen's -Overify-time=
// and the validity options take.
std::string SshTimestamp(int64_t time);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_ALLOWED_SIGNERS_H_
