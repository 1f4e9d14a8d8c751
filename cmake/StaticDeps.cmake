# GENTLE_STATIC_DEPS: link libgit2 and what it needs, SQLite, OpenSSL's libcrypto and zlib from the
# static archives that the same Debian -dev packages ship (libgit2.a, libsqlite3.a, libcrypto.a,
# ...), instead of their shared objects.
#
# Why: Debian builds every library with BIND_NOW, so each start of gentle-ai resolved ~9,500 symbol
# relocations across 19 shared objects (libcrypto alone 4,194) before main: 6.4M of the 13M
# instructions of a small export-context (docs/performance.md). Static archives are resolved at
# link time. libgit2's GSSAPI calls (HTTP Negotiate auth; libkrb5-dev ships no archive) and its
# TLS/SSH initialisers are replaced with `ld --wrap` by store/no_network.cc, linked into every
# executable: gentle-ai opens no remote. SQLite's libm functions are wrapped the same way by
# store/lazy_libm.cc, which loads libm.so.6 when one is first called: the binary needs only libc.
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
# An archive placed after libgit2.a: its member is pulled in by the __wrap_ references libgit2 makes.
add_library(gentle_no_network STATIC ${PROJECT_SOURCE_DIR}/store/no_network.cc)
set(no_network_wraps)
foreach(symbol git_mbedtls_stream_global_init git_transport_ssh_global_init
    gss_delete_sec_context gss_display_status gss_import_name gss_indicate_mechs
    gss_init_sec_context gss_release_buffer gss_release_name gss_release_oid_set)
  list(APPEND no_network_wraps "-Wl,--wrap=${symbol}")
endforeach()
set_target_properties(PkgConfig::LIBGIT2 PROPERTIES
  INTERFACE_LINK_LIBRARIES
    "${git2_archives};gentle_no_network;${GENTLE_SYSTEM_LIBS}"
  INTERFACE_LINK_DIRECTORIES ""
  INTERFACE_LINK_OPTIONS "${no_network_wraps}")
set_target_properties(OpenSSL::Crypto PROPERTIES
  IMPORTED_LOCATION ${GENTLE_CRYPTO_A}
  INTERFACE_LINK_LIBRARIES "${GENTLE_SYSTEM_LIBS}")
# After libsqlite3.a, like gentle_no_network after libgit2.a.
add_library(gentle_lazy_libm STATIC ${PROJECT_SOURCE_DIR}/store/lazy_libm.cc)
set(lazy_libm_wraps)
foreach(symbol acos acosh asin asinh atan atan2 atanh cos cosh exp fmod log pow sin sinh sqrt tan
    tanh trunc)
  list(APPEND lazy_libm_wraps "-Wl,--wrap=${symbol}")
endforeach()
set_target_properties(SQLite::SQLite3 PROPERTIES
  IMPORTED_LOCATION ${GENTLE_SQLITE_A}
  INTERFACE_LINK_LIBRARIES "gentle_lazy_libm;${GENTLE_SYSTEM_LIBS}"
  INTERFACE_LINK_OPTIONS "${lazy_libm_wraps}")
# FindZLIB records per-configuration locations (IMPORTED_LOCATION_RELEASE, ...), which win over
# IMPORTED_LOCATION: drop them, or libz.so stays on the link line.
set_target_properties(ZLIB::ZLIB PROPERTIES IMPORTED_LOCATION ${GENTLE_Z_A} IMPORTED_CONFIGURATIONS "")
foreach(config RELEASE DEBUG)
  set_property(TARGET ZLIB::ZLIB PROPERTY IMPORTED_LOCATION_${config} ${GENTLE_Z_A})
endforeach()
