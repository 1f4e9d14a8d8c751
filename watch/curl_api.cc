#include "watch/curl_api.h"

#include <dlfcn.h>

#include <mutex>
#include <string>

namespace gentle::watch {
namespace {

constexpr const char* kLibrary = "libcurl.so.4";

// dlerror's text on one line (it names the file and the loader's reason).
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return text;
}

template <typename F>
bool Resolve(void* handle, const char* name, F* out, std::string* missing) {
  *out = reinterpret_cast<F>(dlsym(handle, name));
  if (*out == nullptr && missing->empty()) *missing = name;
  return *out != nullptr;
}

Result<const CurlApi*> Load() {
  void* handle = dlopen(kLibrary, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    return Status(Code::kNotFound, std::string("the forge transport cannot load ") + kLibrary +
                                       " (Debian package libcurl4): " +
                                       OneLine(why == nullptr ? "unknown reason" : why));
  }
  static CurlApi api;
  std::string missing;
  Resolve(handle, "curl_global_init", &api.global_init, &missing);
  Resolve(handle, "curl_easy_init", &api.easy_init, &missing);
  Resolve(handle, "curl_easy_setopt", &api.easy_setopt, &missing);
  Resolve(handle, "curl_easy_perform", &api.easy_perform, &missing);
  Resolve(handle, "curl_easy_getinfo", &api.easy_getinfo, &missing);
  Resolve(handle, "curl_easy_cleanup", &api.easy_cleanup, &missing);
  Resolve(handle, "curl_easy_strerror", &api.easy_strerror, &missing);
  Resolve(handle, "curl_slist_append", &api.slist_append, &missing);
  Resolve(handle, "curl_slist_free_all", &api.slist_free_all, &missing);
  if (!missing.empty()) {
    dlclose(handle);
    return Status(Code::kNotFound, std::string("the forge transport cannot use ") + kLibrary +
                                       ": it has no " + missing);
  }
  if (api.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    return Status(Code::kInternal, std::string(kLibrary) + ": curl_global_init failed");
  }
  return static_cast<const CurlApi*>(&api);  // the library stays loaded for the process
}

}  // namespace

Result<const CurlApi*> LoadCurl() {
  static std::mutex mutex;
  static const CurlApi* loaded = nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  if (loaded != nullptr) return loaded;
  GENTLE_ASSIGN_OR_RETURN(loaded, Load());
  return loaded;
}
}  // namespace gentle::watch
