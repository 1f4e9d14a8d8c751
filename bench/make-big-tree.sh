#!/usr/bin/env bash
# make-big-tree.sh DIR [FILES] [SEED]: a generated repository of Linux-kernel size for
# bench/compare.sh --sections bigtree (docs/performance.md).
#
# Deterministic for one FILES and SEED (default 80,000 files, seed 1): FILES files in about
# FILES/16 directories (5,000 for 80,000) nested up to six deep, directory sizes skewed (a few
# directories hold hundreds of files, most a handful). Sizes follow a log-normal spread: median
# ~4 KB, most files 1–16 KB, a long tail up to 512 KB; 2% of the files are binaries (random bytes
# with NULs), the rest C-like text. Everything is streamed into one `git fast-import` (one pack, no
# loose objects, no git call per file), committed once on branch `base`, then checked out by git
# (so the index holds real stat data) and the index rewritten a second later, so that no entry is
# racily clean; `git write-tree` then gives the index a valid cache-tree, as a clone, checkout or
# commit leaves it (BIGTREE_CACHE_TREE=0 leaves the index without one, as `git reset` writes it).
# Then the small change, left in the worktree uncommitted: three tracked files edited (one
# appended to, one rewritten in the middle, one truncated) and one new untracked file.
#
# Prints the tree's shape on stdout. Needs python3 and git; ~0.9 GB of disk for 80,000 files.
set -euo pipefail
dir=${1:?usage: make-big-tree.sh DIR [FILES] [SEED]}
files=${2:-80000}
seed=${3:-1}
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com
rm -rf "$dir"
git init -q -b base "$dir"
cd "$dir"

python3 - "$files" "$seed" <<'PY' | git fast-import --quiet --done
import math, random, sys
nfiles, seed = int(sys.argv[1]), int(sys.argv[2])
r = random.Random(seed)
out = sys.stdout.buffer

# Directories: each new one under a random existing one (the root more likely), six deep at most.
ndirs = max(1, nfiles // 16)
dirs, depth = [""], [0]
for i in range(ndirs):
    parent = 0 if r.random() < 0.02 else r.randrange(len(dirs))
    while depth[parent] >= 6:
        parent = r.randrange(len(dirs))
    name = "%s%s" % (r.choice(["drivers", "fs", "net", "arch", "lib", "core", "sub", "mm", "io"]), i)
    dirs.append((dirs[parent] + "/" if dirs[parent] else "") + name)
    depth.append(depth[parent] + 1)
dirs = dirs[1:]
# Skewed directory sizes: weights from a Pareto law.
weights = [r.paretovariate(1.2) for _ in dirs]

words = ["struct", "static", "int", "return", "unsigned", "long", "const", "void", "if", "else",
         "for", "while", "break", "case", "switch", "goto", "err", "out", "dev", "buf", "len", "ret",
         "flags", "lock", "spin_lock", "kfree", "kmalloc", "GFP_KERNEL", "NULL", "sizeof", "u32",
         "u64", "page", "inode", "file", "mutex", "list_head", "pr_err", "EINVAL", "ENOMEM"]
pool = []
for i in range(20000):
    n = r.randrange(0, 12)
    indent = "\t" * r.randrange(0, 4)
    pool.append((indent + " ".join(r.choice(words) for _ in range(n)) + ";\n").encode())

def size_of():
    s = int(math.exp(r.gauss(math.log(4096), 1.1)))
    return max(16, min(s, 512 * 1024))

def text(size):
    lines, total = [], 0
    while total < size:
        chunk = r.choices(pool, k=64)
        lines += chunk
        total += sum(map(len, chunk))
    data = b"".join(lines)
    return data[:data.rfind(b"\n", 0, size) + 1] or data[:size]

paths = set()
names = []
chosen = r.choices(range(len(dirs)), weights=weights, k=nfiles)
for i, d in enumerate(chosen):
    binary = r.random() < 0.02
    name = "%s/%s%d.%s" % (dirs[d], r.choice(["file", "main", "util", "ops", "core"]), i,
                           "bin" if binary else r.choice(["c", "c", "h", "txt"]))
    names.append((name, binary))

out.write(b"commit refs/heads/base\n")
out.write(b"committer bench <bench@example.com> 1767225600 +0000\n")
out.write(b"data 4\nbase\n")
for name, binary in names:
    size = size_of()
    if binary:
        data = bytearray(r.randbytes(size)); data[0] = 0; data = bytes(data)
    else:
        data = text(size)
    mode = b"100755" if (not binary and r.random() < 0.01) else b"100644"
    out.write(b"M " + mode + b" inline " + name.encode() + b"\n")
    out.write(b"data %d\n" % len(data))
    out.write(data)
    out.write(b"\n")
out.write(b"\ndone\n")
PY

git checkout -q -f base
# Rewrite the index a second after the checkout's last write, so that no entry is racily clean
# (both tools would otherwise re-hash every file written in the index's second).
sleep 1
rm -f .git/index
git reset -q
git update-index -q --refresh || true
if [[ ${BIGTREE_CACHE_TREE:-1} != 0 ]]; then
  git write-tree >/dev/null  # the cache-tree extension, every directory valid
fi

# The small change: three tracked files edited, one new untracked file.
mapfile -t picks < <(git ls-files -- '*.c' | awk -v n="$(git ls-files -- '*.c' | wc -l)" \
  'NR == int(n / 7) || NR == int(n / 2) || NR == int(n * 6 / 7)')
echo "/* benchmark change */" >>"${picks[0]}"
python3 - "${picks[1]}" <<'PY'
import sys
p = sys.argv[1]
data = open(p, "rb").read()
mid = len(data) // 2
open(p, "wb").write(data[:mid] + b"\n/* edited in the middle */\n" + data[mid:])
PY
head -c 100 "${picks[2]}" >"${picks[2]}.tmp" && mv "${picks[2]}.tmp" "${picks[2]}"
printf 'new untracked file\n' >"$(dirname "${picks[0]}")/untracked-new.c"

echo "files=$(git ls-files | wc -l) directories=$(git ls-tree -r -d --name-only HEAD | wc -l)" \
     "worktree_kb=$(du -sk --exclude=.git . | cut -f1) pack_kb=$(du -sk .git/objects | cut -f1)" \
     "cache_tree=${BIGTREE_CACHE_TREE:-1} changed=${picks[*]}"
