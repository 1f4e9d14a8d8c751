// The SSH signature format (OpenSSH's PROTOCOL.sshsig) as `ssh-keygen -Y sign` armors it: what the
// signature says about itself, read without trusting it.
//
// ParseSshSignatureBlob takes the armored text ("-----BEGIN SSH SIGNATURE-----", base64 lines,
// "-----END SSH SIGNATURE-----") and returns the signing public key (its wire-format blob, the
// bytes an allowed signers line holds in base64) and the namespace the signature was made for.
// The blob: "SSHSIG", uint32 version 1, then the strings publickey, namespace, reserved,
// hash_algorithm and signature (each a uint32 length and its bytes). nullopt when the text or the
// blob does not parse. Nothing here checks the signature: ssh-keygen does
// (export/approval_signature.h); this only names why ssh-keygen refused it.
#ifndef GENTLE_EXPORT_SSH_SIGNATURE_BLOB_H_
#define GENTLE_EXPORT_SSH_SIGNATURE_BLOB_H_

#include <optional>
#include <string>
#include <string_view>

namespace gentle::exporter {

struct SshSignatureBlob {
  std::string public_key;  // wire-format key blob
  std::string name_space;  // "git" for a commit signature
};

std::optional<SshSignatureBlob> ParseSshSignatureBlob(std::string_view armored);

}  // namespace gentle::exporter

#endif  // GENTLE_EXPORT_SSH_SIGNATURE_BLOB_H_
