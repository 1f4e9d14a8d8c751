// SQLite's math functions, resolved from libm when first called.
//
// The static SQLite (cmake/StaticDeps.cmake) calls nineteen libm functions, all from its SQL math
// functions (`exp()`, `ln()`, `pow()`, `sqrt()`, `acos()`, `mod()`, ...) and FTS5's ranking.
// gentle-ai's own SQL calls none of them, yet a libm.so.6 named by the executable is loaded and
// relocated at every start (9 system calls and about 21K instructions before main;
// docs/performance.md, "Start-up"). Every executable is linked with `ld --wrap` for these symbols,
// so SQLite's references resolve to the definitions below, the executable names only libc, and the
// first call loads the same glibc's libm.so.6 with dlopen and calls its function: the answers are
// libm's own.
//
// A glibc without libm.so.6 is not a glibc: if it cannot be loaded, the process stops with a
// message instead of answering a number libm did not compute.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

void* LibmSymbol(const char* name) {
  static void* const libm = dlopen("libm.so.6", RTLD_NOW | RTLD_LOCAL);
  void* symbol = libm != nullptr ? dlsym(libm, name) : nullptr;
  if (symbol == nullptr) {
    std::fprintf(stderr, "gentle-ai: cannot load %s from libm.so.6\n", name);
    std::abort();
  }
  return symbol;
}

using Unary = double (*)(double);
using Binary = double (*)(double, double);

template <typename Fn>
Fn Resolve(const char* name) {
  return reinterpret_cast<Fn>(LibmSymbol(name));
}

}  // namespace

// Each wrapper resolves its function once (a thread-safe static) and calls it.
#define GENTLE_LIBM_UNARY(name)                    \
  double __wrap_##name(double x) {                 \
    static const Unary fn = Resolve<Unary>(#name); \
    return fn(x);                                  \
  }
#define GENTLE_LIBM_BINARY(name)                     \
  double __wrap_##name(double x, double y) {         \
    static const Binary fn = Resolve<Binary>(#name); \
    return fn(x, y);                                 \
  }

extern "C" {

GENTLE_LIBM_UNARY(acos)
GENTLE_LIBM_UNARY(acosh)
GENTLE_LIBM_UNARY(asin)
GENTLE_LIBM_UNARY(asinh)
GENTLE_LIBM_UNARY(atan)
GENTLE_LIBM_UNARY(atanh)
GENTLE_LIBM_UNARY(cos)
GENTLE_LIBM_UNARY(cosh)
GENTLE_LIBM_UNARY(exp)
GENTLE_LIBM_UNARY(log)
GENTLE_LIBM_UNARY(sin)
GENTLE_LIBM_UNARY(sinh)
GENTLE_LIBM_UNARY(sqrt)
GENTLE_LIBM_UNARY(tan)
GENTLE_LIBM_UNARY(tanh)
GENTLE_LIBM_UNARY(trunc)
GENTLE_LIBM_BINARY(atan2)
GENTLE_LIBM_BINARY(fmod)
GENTLE_LIBM_BINARY(pow)

}  // extern "C"
