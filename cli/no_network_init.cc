// Startup cost of network support gentle-ai never uses. gentle-ai opens no remote: it never
// fetches, pushes or clones, so libgit2's TLS and SSH transports are never started. Yet
// git_libgit2_init() initialises both at every start: mbedTLS gathers entropy (HAVEGE) and, on
// Debian, parses the whole system CA bundle (~50M instructions before this file existed, 76% of a
// small export-context), and libssh2_init() initialises OpenSSL. With the static link
// (GENTLE_STATIC_DEPS, cmake/StaticDeps.cmake) the two libgit2 initialisers are replaced with
// ld --wrap by functions that report success and do nothing; with shared libraries only the
// CA-bundle read can be interposed. If gentle-ai ever talks to a remote through libgit2, delete
// this file and its link options in cli/CMakeLists.txt.
#ifdef GENTLE_STATIC_DEPS

// libgit2's src/libgit2/streams/mbedtls.c: seeds mbedTLS and loads the default certificates.
extern "C" int __wrap_git_mbedtls_stream_global_init(void) { return 0; }
// libgit2's src/libgit2/transports/ssh.c: libssh2_init(0).
extern "C" int __wrap_git_transport_ssh_global_init(void) { return 0; }

#else

// Resolved from the executable before libmbedx509: "could not read", so libgit2 carries on with no
// default certificate store (it treats a failed load as "no default certificates", not an error).
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
  return -0x2900;  // MBEDTLS_ERR_X509_FILE_IO_ERROR
}

#endif
