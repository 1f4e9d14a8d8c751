// gentle-ai opens no remote: it never fetches, pushes or clones, so libgit2's network stack (TLS
// over mbedTLS, SSH over libssh2, HTTP Negotiate auth over GSSAPI) is dead weight at every start.
// With the static link (GENTLE_STATIC_DEPS, cmake/StaticDeps.cmake) every executable is linked
// with `ld --wrap` for the symbols below, so libgit2's references resolve to these definitions:
//
// - git_mbedtls_stream_global_init: seeds mbedTLS (HAVEGE entropy) and parses the system CA
//   bundle; git_transport_ssh_global_init: libssh2_init, which initialises OpenSSL. Both ran
//   inside git_libgit2_init (2.4M instructions of a 5M-instruction small export). They report
//   success and do nothing.
// - the GSSAPI calls of libgit2's Negotiate authenticator: the only reason the binary loaded
//   libgssapi_krb5 and six more Kerberos libraries (a third of the loader's time). They fail
//   (GSS_S_FAILURE), which libgit2 treats as "Negotiate unavailable"; it is never reached anyway.
//
// If gentle-ai ever talks to a remote through libgit2, delete this file and the wrap options.
#include <cstdint>

namespace {
constexpr uint32_t kGssFailure = 13u << 16;  // GSS_S_FAILURE
}  // namespace

extern "C" {

int __wrap_git_mbedtls_stream_global_init(void) { return 0; }
int __wrap_git_transport_ssh_global_init(void) { return 0; }

uint32_t __wrap_gss_delete_sec_context(void) { return kGssFailure; }
uint32_t __wrap_gss_display_status(void) { return kGssFailure; }
uint32_t __wrap_gss_import_name(void) { return kGssFailure; }
uint32_t __wrap_gss_indicate_mechs(void) { return kGssFailure; }
uint32_t __wrap_gss_init_sec_context(void) { return kGssFailure; }
uint32_t __wrap_gss_release_buffer(void) { return kGssFailure; }
uint32_t __wrap_gss_release_name(void) { return kGssFailure; }
uint32_t __wrap_gss_release_oid_set(void) { return kGssFailure; }
// A gss_OID constant that libgssapi_krb5 would define (data cannot be wrapped; nothing else
// defines it once that library is not linked).
void* GSS_C_NT_HOSTBASED_SERVICE = nullptr;

}  // extern "C"
