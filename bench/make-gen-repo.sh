#!/usr/bin/env bash
# make-gen-repo.sh DIR [FILES]: a generated repository for bench/compare.sh (docs/performance.md).
#
# Deterministic (seeded) content: FILES small text files (default 30,000) in 300 directories, 64
# large C-like files (~40 KB each) and 256 binary files (16 KB, random with NULs), committed on
# branch `base`, plus one commit per diff shape, each a child of `base`:
#   small   two lines changed in one file             (~1 KB patch)
#   text2m  ~half the lines of 28 large files rewritten (~2 MB patch)
#   binary  64 bytes rewritten in 200 binary files, 40 binary files added
#   near4m  every line of 43 large files rewritten    (just under the 4 MiB budget)
# The worktree is left clean on `base`.
set -euo pipefail
dir=${1:?usage: make-gen-repo.sh DIR [FILES]}
files=${2:-30000}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
rm -rf "$dir"
git init -q -b base "$dir"
cd "$dir"

gen() {  # gen MODE: writes or mutates the worktree for one shape
  python3 - "$1" "$files" <<'PY'
import os, random, sys
mode, nfiles = sys.argv[1], int(sys.argv[2])
def big_lines(i):
    r = random.Random(i)
    out = []
    for n in range(1000):
        if n % 25 == 0:
            out.append("static int function_%d_%d(struct state *s)\n" % (i, n))
        else:
            out.append("    s->field_%d = compute(s, %d, 0x%08x);\n" % (n % 17, n, r.getrandbits(32)))
    return out
def write(path, data, binary=False):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if binary else data.encode())
def blob(i, size):
    r = random.Random(1000000 + i)
    b = bytearray(r.getrandbits(8) for _ in range(size))
    b[0] = 0
    return b
if mode == "base":
    for i in range(nfiles):
        write("tree/d%03d/f%05d.txt" % (i % 300, i), "file %d\nline two of %d\nline three\n" % (i, i))
    for i in range(64):
        write("big/big%02d.c" % i, "".join(big_lines(i)))
    for i in range(256):
        write("assets/a%03d.bin" % i, blob(i, 16384), True)
elif mode == "small":
    p = "tree/d007/f00007.txt"
    write(p, "file 7 changed\nline two of 7\nline three, too\n")
elif mode in ("text2m", "near4m"):
    count, step = (28, 2) if mode == "text2m" else (43, 1)
    for i in range(count):
        lines = big_lines(i)
        for n in range(0, len(lines), step):
            if n % 25:
                lines[n] = lines[n].replace("compute(", "recompute(")
        write("big/big%02d.c" % i, "".join(lines))
elif mode == "binary":
    for i in range(200):
        b = blob(i, 16384)
        r = random.Random(7 + i)
        for k in range(64):
            b[8000 + k] = r.getrandbits(8)
        write("assets/a%03d.bin" % i, b, True)
    for i in range(40):
        write("assets/new%02d.bin" % i, blob(5000 + i, 8192), True)
PY
}

gen base
git add -A && git commit -qm base
for shape in small text2m binary near4m; do
  git checkout -q -B "$shape" base
  gen "$shape"
  git add -A && git commit -qm "$shape"
done
git checkout -q base
git update-index -q --refresh || true
