// CurlApi: the libcurl functions the forge transport calls (watch/http_transport.cc), resolved
// from libcurl.so.4 the first time a forge is asked, never at the program's start: every other
// command of the binary keeps starting with glibc alone (docs/design.md, "Decisions"; the .deb
// recommends libcurl4). Compiled against the libcurl headers CMake's find_package(CURL) finds, so
// the signatures are libcurl's own; watch/ is the only module that includes them (the link check in
// watch/CMakeLists.txt proves the store, transaction and export libraries reach no curl symbol).
//
// LoadCurl() is thread-safe and loads once: a library that cannot be loaded (missing, or not a
// usable shared object) or lacks a symbol is `not_found` with one line naming the library, its
// Debian package and the loader's reason, and a later call tries again (so a daemon picks up a
// libcurl installed while it runs; the watcher backs the host off meanwhile).
#ifndef GENTLE_WATCH_CURL_API_H_
#define GENTLE_WATCH_CURL_API_H_

#include <curl/curl.h>

#include "store/status.h"

namespace gentle::watch {

struct CurlApi {
  CURLcode (*global_init)(long flags);
  CURL* (*easy_init)();
  CURLcode (*easy_setopt)(CURL* curl, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL* curl);
  CURLcode (*easy_getinfo)(CURL* curl, CURLINFO info, ...);
  void (*easy_cleanup)(CURL* curl);
  const char* (*easy_strerror)(CURLcode code);
  curl_slist* (*slist_append)(curl_slist* list, const char* line);
  void (*slist_free_all)(curl_slist* list);
};

Result<const CurlApi*> LoadCurl();

}  // namespace gentle::watch

#endif  // GENTLE_WATCH_CURL_API_H_
