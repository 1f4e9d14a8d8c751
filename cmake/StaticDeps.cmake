# GENTLE_STATIC_DEPS: link libgit2 and what it needs, SQLite, OpenSSL's libcrypto and zlib from the
# static archives that the same Debian -dev packages ship (libgit2.a, libsqlite3.a, libcrypto.a,
# ...), instead of their shared objects.
#
# Why: Debian builds every library with BIND_NOW, so each start of gentle-ai resolved ~9,500 symbol
# relocations across 19 shared objects (libcrypto alone 4,194) before main: 6.4M of the 13M
# instructions of a small export-context (docs/performance.md). Static archives are resolved at
# link time. Only libgssapi_krb5 (libgit2's HTTP Negotiate auth; libkrb5-dev ships no archive)
# stays shared; it is installed with libgit2's runtime package.
#
# Included from the top-level CMakeLists.txt after the find_package calls; it re-points the
# imported targets, so every module keeps linking PkgConfig::LIBGIT2, SQLite::SQLite3,
# OpenSSL::Crypto and ZLIB::ZLIB.

function(gentle_find_archive var name)
  find_library(${var} NAMES lib${name}.a NO_CACHE)
  if(NOT ${var})
    message(FATAL_ERROR "GENTLE_STATIC_DEPS: lib${name}.a not found (install its -dev package, "
                        "or configure with -DGENTLE_STATIC_DEPS=OFF)")
  endif()
  set(${var} ${${var}} PARENT_SCOPE)
endfunction()

gentle_find_archive(GENTLE_CRYPTO_A crypto)
gentle_find_archive(GENTLE_SQLITE_A sqlite3)
gentle_find_archive(GENTLE_Z_A z)
find_library(GENTLE_GSSAPI NAMES gssapi_krb5 libgssapi_krb5.so.2 NO_CACHE)
if(NOT GENTLE_GSSAPI)
  message(FATAL_ERROR "GENTLE_STATIC_DEPS: libgssapi_krb5 not found")
endif()
find_package(Threads REQUIRED)
set(GENTLE_SYSTEM_LIBS Threads::Threads ${CMAKE_DL_LIBS} m rt)

# libgit2's own static link line (pkg-config --static): git2 mbedtls mbedx509 mbedcrypto
# http_parser ssh2 rt pcre2-8 z. libssh2.a is built on libcrypto, so libcrypto follows it.
set(git2_archives)
foreach(lib IN LISTS LIBGIT2_STATIC_LIBRARIES)
  if(lib STREQUAL "rt")
    continue()
  elseif(lib STREQUAL "z")
    list(APPEND git2_archives ${GENTLE_Z_A})
  else()
    gentle_find_archive(GENTLE_ARCHIVE_${lib} ${lib})  # one variable each: find_library skips a set one
    list(APPEND git2_archives ${GENTLE_ARCHIVE_${lib}})
    if(lib STREQUAL "ssh2")
      list(APPEND git2_archives ${GENTLE_CRYPTO_A})
    endif()
  endif()
endforeach()
set_target_properties(PkgConfig::LIBGIT2 PROPERTIES
  INTERFACE_LINK_LIBRARIES "${git2_archives};${GENTLE_GSSAPI};${GENTLE_SYSTEM_LIBS}"
  INTERFACE_LINK_DIRECTORIES ""
  INTERFACE_LINK_OPTIONS "")
set_target_properties(OpenSSL::Crypto PROPERTIES
  IMPORTED_LOCATION ${GENTLE_CRYPTO_A}
  INTERFACE_LINK_LIBRARIES "${GENTLE_SYSTEM_LIBS}")
set_target_properties(SQLite::SQLite3 PROPERTIES
  IMPORTED_LOCATION ${GENTLE_SQLITE_A}
  INTERFACE_LINK_LIBRARIES "${GENTLE_SYSTEM_LIBS}")
set_target_properties(ZLIB::ZLIB PROPERTIES IMPORTED_LOCATION ${GENTLE_Z_A})
