// Startup cost of network support gentle-ai never uses (it opens no remote). With the default
// static link, store/no_network.cc replaces libgit2's TLS, SSH and GSSAPI entry points at link
// time. With shared libraries (-DGENTLE_STATIC_DEPS=OFF) only one call can be interposed: the
// mbedTLS read of the whole system CA bundle inside git_libgit2_init() (~50M instructions, 15-20
// ms, 76% of a small export-context when it was measured). This definition is resolved from the
// executable before libmbedx509 and answers "could not read"; libgit2 then carries on with no
// default certificate store (a failed load means "no default certificates" to it, not an error).
#ifndef GENTLE_STATIC_DEPS
extern "C" int mbedtls_x509_crt_parse_file(void* /*chain*/, const char* /*path*/) {
  return -0x2900;  // MBEDTLS_ERR_X509_FILE_IO_ERROR
}
#endif
