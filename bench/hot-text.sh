#!/usr/bin/env bash
# hot-text.sh: regenerates cli/hot_text.ld, the list of the code a small export-context and a small
# verify run, then what a large export-context runs besides, which the release link places first
# in the text (docs/performance.md, "Small export and verify" and "The record without a DOM, the
# configuration read, the large export"). The list follows the code only when regenerated: a name
# that no longer exists matches nothing and costs nothing, a function missing from it stays where
# the linker puts it.
#
#   bench/hot-text.sh --build DIR --repo DIR --lineage ID --against COMMIT [--large-lineage ID]
#
# REPO holds the approved commit-range lineage ID (as bench/compare.sh's small section makes it)
# and, with --large-lineage, a lineage of a large patch (git.git v2.38.0..v2.39.0, as its large
# section makes it: many files, the engine's two threads, the spool of export/patch_spool.h);
# each command runs once under callgrind (--demangle=no), and every function of the executable they
# reach is written in first-call order, the small export's and verify's first, so the large
# export's own code follows theirs and leaves their pages as they were: a function of an object
# compiled without its own section
# (libgit2, SQLite, zlib, libcrypto and this project's objects) as its object's `.text`, any other
# (libstdc++'s, inline and template code) as its own `.text.NAME` section.
set -euo pipefail
build="" repo="" lineage="" against="" large=""
while [ $# -gt 0 ]; do
  case $1 in
    --build) build=$2; shift 2 ;;
    --repo) repo=$2; shift 2 ;;
    --lineage) lineage=$2; shift 2 ;;
    --against) against=$2; shift 2 ;;
    --large-lineage) large=$2; shift 2 ;;
    *) echo "hot-text.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$build" ] || [ -z "$repo" ] || [ -z "$lineage" ] || [ -z "$against" ]; then
  echo "usage: bench/hot-text.sh --build DIR --repo DIR --lineage ID --against COMMIT" \
    "[--large-lineage ID]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gai=$build/gentle-ai
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/export.cg" \
  "$gai" review export-context --cwd "$repo" --lineage "$lineage" >/dev/null 2>&1
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/verify.cg" \
  "$gai" review verify --cwd "$repo" --lineage "$lineage" --against "$against" >/dev/null 2>&1
if [ -n "$large" ]; then
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/large.cg" \
    "$gai" review export-context --cwd "$repo" --lineage "$large" >/dev/null 2>&1
fi
ninja -C "$build" -t commands gentle-ai | tail -1 >"$work/link"
python3 - "$work" "$build" "$here/../cli/hot_text.ld" <<'PY'
import os, re, subprocess, sys
work, build, out = sys.argv[1:4]
# Every function callgrind saw in the executable, in the order it first appears.
order, seen = [], set()
for name in ("export.cg", "verify.cg", "large.cg"):
    if name == "large.cg" and not os.path.exists(f"{work}/{name}"):
        continue
    lines = open(f"{work}/{name}").read().splitlines()
    objects, functions = {}, {}
    for line in lines:
        m = re.match(r"c?(ob|fn)=\((\d+)\) (.+)", line)
        if m:
            (objects if m.group(1) == "ob" else functions)[m.group(2)] = m.group(3)
    current = None
    for line in lines:
        m = re.match(r"ob=\((\d+)\)", line)
        if m:
            current = objects.get(m.group(1), "")
            continue
        m = re.match(r"fn=\((\d+)\)", line)
        # Code an earlier list placed sits outside .text, where callgrind names no object
        # ("???"): it is the executable's too, so the list can be made from a build linked with it.
        if m and (current.endswith("/gentle-ai") or current == "???"):
            fn = re.sub(r"'\d+$", "", functions.get(m.group(1), ""))
            if re.fullmatch(r"[A-Za-z0-9_.$]+", fn) and not fn.startswith("_GLOBAL__sub_I") and fn not in seen:
                seen.add(fn)
                order.append(fn)
# The archive member that defines each global or local function of the link's archives.
archives = list(dict.fromkeys(re.findall(r"(\S+\.a)\b", open(f"{work}/link").read())))
member_of = {}
for archive in archives:
    listing = subprocess.run(["nm", "-A", "--defined-only", archive], cwd=build,
                             capture_output=True, text=True).stdout
    for line in listing.splitlines():
        m = re.match(r"(.+?):(.+?):\s*[0-9a-f]+\s+[Tt]\s+(\S+)", line)
        if m:
            member_of.setdefault(m.group(3), (archive.split("/")[-1], m.group(2)))
# callgrind names a constructor or destructor by its complete-object symbol (C1, D1), an alias
# that GCC emits in the section named after the base-object one (C2, D2): the rule names both.
def sections_of(fn):
    base = re.sub(r"([CD])1(E|I)", r"\g<1>2\2", fn, count=1)
    return [fn] if base == fn else [fn, base]
rules, written = [], set()
for fn in order:
    where = member_of.get(fn)
    candidates = ([f"    *{where[0]}:{where[1]}(.text)"] if where
                  else [f"    *(.text.{name})" for name in sections_of(fn)])
    for rule in candidates:
        if rule not in written:
            written.add(rule)
            rules.append(rule)
with open(out, "w") as f:
    f.write("/* cli/hot_text.ld: generated by bench/hot-text.sh; do not edit. The code a small\n"
            "   export-context and verify run, then a large export-context's own, placed first in\n"
            "   the text (docs/performance.md). */\n")
    f.write("SECTIONS\n{\n  .text.gentle_hot :\n  {\n" + "\n".join(rules) + "\n  }\n}\nINSERT BEFORE .text;\n")
print(f"hot-text.sh: {len(rules)} rules from {len(order)} functions -> {out}")
PY
