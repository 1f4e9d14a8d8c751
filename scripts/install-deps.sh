#!/usr/bin/env bash
# Installs the Debian packages the project builds and tests with, only when one is missing.
set -euo pipefail
packages=(build-essential cmake ninja-build ccache pkg-config git libgit2-dev libsqlite3-dev libssl-dev
  nlohmann-json3-dev libcli11-dev catch2 zlib1g-dev libbenchmark-dev strace clang-format openssh-client
  python3  # python3: tests/comment_test.cc runs the posting pipeline's regexes (docs/commands.md) with re
  python3-jsonschema  # tests/json_schema_test.cc validates outputs against docs/schema/ (/usr/bin/python3)
  bsdutils  # `script` (Essential on Debian): tests/progress_test.cc runs commands on a pseudo-terminal
  dpkg-dev file man-db groff-base  # the .deb: cpack's dpkg-shlibdeps; tests/package_check.sh
  zsh fish  # tests/command_docs_test.cc runs the generated completions in each shell
  valgrind  # tests/record_members_work_test.cc counts a rewrite's instructions under callgrind
  hyperfine  # bench_compare_verdict_smoke runs bench/compare.sh's verdict section once
  libcmark-gfm-dev  # review show --html renders verdict bodies from Markdown (export/markdown_html.h)
  chromium  # tests/show_test.cc opens the HTML view in headless chromium
  libcurl4-openssl-dev  # watch/: the forge transport of `review watch` and `review post` (the only user of libcurl)
  gh openssl)  # tests/watch_*_test.cc: the real gh's credential, a local HTTPS fake (openssl makes its certificate)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
