// Startup cost: Debian's libgit2 is built with mbedTLS and, inside git_libgit2_init(), parses the
// whole system CA bundle (~50 million instructions, 15-20 ms: measured with callgrind, 76% of a
// small export-context). gentle-ai never opens a network transport, so certificates are never used.
// This definition interposes the one mbedTLS call that reads the bundle: it is resolved from the
// executable before libmbedx509, returns "could not read" at once, and libgit2 carries on without a
// default certificate store (it treats a failed load as "no default certificates", not an error).
// If gentle-ai ever talks to a remote over TLS through libgit2, remove this file.
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
  return -0x2900;  // MBEDTLS_ERR_X509_FILE_IO_ERROR
}
