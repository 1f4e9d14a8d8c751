#!/usr/bin/env bash
# trivial-rebase-sweep.sh: `verify --allow-trivial-rebase` against the git CLI on real histories
# (docs/ci.md, "Rebased changes", where the numbers of the last runs are).
#
#   bench/trivial-rebase-sweep.sh (--repo GIT_DIR | --gen [--gen-commits N]) [--build DIR]
#       [--work DIR] [--commits N] [--offsets "1 10"] [--no-negatives] [--no-merges]
#       [--require-all-kinds]
#
# --repo reads GIT_DIR's HEAD (only read: the sweep works in a scratch `git clone --shared`);
# --gen first makes a repository with bench/make-gen-repo.sh (300 small files, large C-like and
# binary files) and a generated linear history of N commits on it (default 80) that edit, insert
# and delete lines, rewrite binary bytes, add files and flip modes, for a machine without one.
#
# For N first-parent, non-merge commits C (evenly spaced), one lineage approves C^..C
# (`review start --kind commit-range`, `verdict APPROVE`), and for each offset k these HEADs are
# verified with `verify --lineage L --against HEAD --base-ref REF --allow-trivial-rebase`:
#   pick-older   C cherry-picked onto O = C~(k+1)                             REF = O
#   pick-later   C cherry-picked onto B = (k commits after C) with C reverted  REF = B
#   for every pick that verify accepts, three that must be refused:
#   neg-line     the pick plus one line appended to a file the change edits
#   neg-file     the pick plus one new file
#   neg-context  the pick and its base with one context line of the change edited in both
#   and merges, with REF = C^ (a base that moved on from O):
#   merge-pr     C^ merging the older pick --no-ff: the merge commit a forge builds for a pull
#                request forked at O (first parent the base's tip)
#   merge-x      X = C^ plus a new unreviewed file, HEAD = merge(X, the older pick): the laundering
#                merge (its first-parent change is the approved patch)
#   merge-past   the older pick's tree on parents O and C^ (first parent on the base, the other
#                parent past it): merging it would undo O..C^
# A pick or merge that conflicts, comes out empty or equals its base is skipped.
#
# The oracle is the git CLI: the change that lands, merge-base(REF, HEAD)..HEAD (there must be one
# merge base, `git merge-base --all`; a merge HEAD's first parent must be on REF, `git merge-base
# --is-ancestor`), as the pinned `git diff` (OracleArgv of export/git_flags.h) prints it, context
# lines included, must equal the pinned diff of C^..C up to the start lines of `@@` headers and
# the blob ids of `index` lines. A HEAD whose tree is the approved tree itself (`"match":"exact"`) is
# no trivial_rebase answer and is counted apart (`exact`). Printed per kind: tried, skipped, accepted, refused (by
# `details.reason`), and how many of each the oracle calls the same change; a disagreement is an
# accepted HEAD the oracle calls another change; stricter is a refused one it calls the same. Exit
# 1 on any disagreement or a verify answer other than 0 / not_reviewed, and with
# --require-all-kinds (the CTest smoke) also when a kind was never tried. SIGTERM to its python
# process ends the sweep early and prints the table of the commits swept so far.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo= gen= gen_commits=80 build=build work= commits=40 offsets="1 10" negatives=1 merges=1
all_kinds=
while [ $# -gt 0 ]; do
  case $1 in
    --repo) repo=$2; shift 2 ;;
    --gen) gen=1; shift ;;
    --gen-commits) gen_commits=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --commits) commits=$2; shift 2 ;;
    --offsets) offsets=$2; shift 2 ;;
    --no-negatives) negatives=; shift ;;
    --no-merges) merges=; shift ;;
    --require-all-kinds) all_kinds=1; shift ;;
    *) echo "usage: $0 (--repo GIT_DIR | --gen [--gen-commits N]) [--build DIR] [--work DIR]" \
         "[--commits N] [--offsets LIST] [--no-negatives] [--no-merges] [--require-all-kinds]" >&2
       exit 2 ;;
  esac
done
if [ -n "$repo" ] && [ -n "$gen" ]; then gen=conflict; fi
if [ "$gen" = conflict ] || { [ -z "$repo" ] && [ -z "$gen" ]; }; then
  echo "$0: exactly one of --repo GIT_DIR or --gen" >&2
  exit 2
fi
gentle_ai=$(cd "$build" && pwd)/gentle-ai
[ -x "$gentle_ai" ] || { echo "$0: no $gentle_ai (build first)" >&2; exit 2; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null LC_ALL=C
export GIT_AUTHOR_NAME=Sweep GIT_AUTHOR_EMAIL=sweep@example.invalid GIT_COMMITTER_NAME=Sweep
export GIT_COMMITTER_EMAIL=sweep@example.invalid
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"
work=$(cd "$work" && pwd)

if [ -n "$gen" ]; then
  repo=$work/gen
  bash "$here/make-gen-repo.sh" "$repo" 300 >/dev/null
  python3 - "$repo" "$gen_commits" <<'PY'
import os, random, subprocess, sys
repo, count = sys.argv[1], int(sys.argv[2])
r = random.Random(45)
def git(*args):
    subprocess.run(["git", "-C", repo, *args], check=True, stdout=subprocess.DEVNULL)
def edit_text(path):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    for _ in range(r.randint(1, 3)):
        at = r.randrange(len(lines))
        op = r.random()
        if op < 0.5:
            lines[at] = lines[at] + b" /* edited %d */" % r.getrandbits(16)
        elif op < 0.8:
            lines.insert(at, b"    inserted(%d);" % r.getrandbits(16))
        elif len(lines) > 2:
            del lines[at]
    with open(path, "wb") as f:
        f.write(b"\n".join(lines))
for n in range(count):
    for _ in range(r.randint(1, 2)):
        edit_text(os.path.join(repo, "big/big%02d.c" % r.randrange(64)))
    roll = r.random()
    if roll < 0.15:
        edit_text(os.path.join(repo, "tree/d%03d/f%05d.txt" % (n % 300, n % 300)))
    elif roll < 0.25:
        path = os.path.join(repo, "assets/a%03d.bin" % r.randrange(256))
        with open(path, "r+b") as f:
            f.seek(r.randrange(16000)); f.write(bytes(r.getrandbits(8) for _ in range(16)))
    elif roll < 0.32:
        with open(os.path.join(repo, "tree/added%03d.txt" % n), "w") as f:
            f.write("added by commit %d\n" % n)
    elif roll < 0.36:
        path = os.path.join(repo, "big/big%02d.c" % r.randrange(64))
        os.chmod(path, os.stat(path).st_mode ^ 0o111)
    git("add", "-A")
    git("commit", "-q", "-m", "generated commit %d" % n)
PY
fi

clone=$work/clone
rm -rf "$clone"
git clone -q --shared "$repo" "$clone"
mkdir -p "$work/home"
HOME=$work/home python3 - "$clone" "$gentle_ai" "$commits" "$offsets" "$negatives" "$merges" \
  "$repo" "$all_kinds" <<'PY'
import json, os, re, signal, subprocess, sys
from collections import defaultdict
clone, gentle_ai, commits, offsets, negatives, merges, source, all_kinds = sys.argv[1:9]
commits, offsets = int(commits), [int(k) for k in offsets.split()]
os.chdir(clone)
PINNED = ["-c", "core.quotePath=true", "-c", "diff.suppressBlankEmpty=false",
          "-c", "diff.interHunkContext=0", "-c", "core.loosecompression=1",
          "-c", "diff.relative=false"]
DIFF = ["diff", "--binary", "--full-index", "--no-color", "--no-renames", "--no-ext-diff",
        "--no-textconv", "--diff-algorithm=myers", "--no-indent-heuristic", "--unified=3",
        "--ignore-submodules=none", "--src-prefix=a/", "--dst-prefix=b/", "-O/dev/null"]

def run(args, check=True, data=None):
    p = subprocess.run(args, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if check and p.returncode != 0:
        raise RuntimeError("%s: %s" % (" ".join(args[:4]), p.stderr.decode(errors="replace")))
    return p

def git(*args, check=True):
    return run(["git", *args], check=check).stdout.decode().strip()

def ok(*args):
    return run(["git", *args], check=False).returncode == 0

def pinned(a, b):  # the pinned diff between two commits' trees, as bytes
    return run(["git", *PINNED, *DIFF, a + "^{tree}", b + "^{tree}", "--"]).stdout

HUNK = re.compile(rb"^@@ -\d+((?:,\d+)?) \+\d+((?:,\d+)?) @@")
INDEX = re.compile(rb"^index [0-9a-f]+\.\.[0-9a-f]+")
def normal(patch):  # up to @@ start lines and index blob ids
    out = []
    for line in patch.split(b"\n"):
        line = HUNK.sub(rb"@@ -\1 +\2 @@", line)
        out.append(INDEX.sub(b"index ..", line))
    return b"\n".join(out)

def oracle(ref, head, approved):  # does the change that lands equal the approved patch?
    bases = git("merge-base", "--all", ref, head, check=False).split()
    if len(bases) != 1:
        return False
    parents = git("rev-list", "--parents", "-n", "1", head).split()[1:]
    if len(parents) >= 2 and not ok("merge-base", "--is-ancestor", parents[0], ref):
        return False
    return normal(pinned(bases[0], head)) == approved

def verify(lineage, head, ref):
    p = run([gentle_ai, "review", "verify", "--lineage", lineage, "--against", head,
             "--base-ref", ref, "--allow-trivial-rebase", "--json"], check=False)
    if p.returncode == 0:  # an exact tree is no trivial_rebase answer: counted apart
        return ("exact" if json.loads(p.stdout).get("match") == "exact" else "accepted"), None
    try:
        error = json.loads(p.stdout)["error"]
    except (ValueError, KeyError):
        error = {}
    if p.returncode == 10 and error.get("code") == "not_reviewed":
        return "refused", error["details"].get("reason", "none")
    return "unexpected", "exit %d: %s" % (p.returncode, p.stdout.decode(errors="replace")[:300])

def reset():
    for what in ("cherry-pick", "merge", "revert"):
        run(["git", what, "--abort"], check=False)
    run(["git", "reset", "-q", "--hard"], check=False)
    run(["git", "clean", "-q", "-f", "-d"], check=False)

def commit_all(message):
    git("add", "-A")
    git("commit", "-q", "--allow-empty", "-m", message)
    return git("rev-parse", "HEAD")

def pick(commit, onto):  # the commit cherry-picked onto `onto`, or None
    git("checkout", "-q", "--detach", onto)
    if not ok("cherry-pick", "--allow-empty", commit):
        reset()
        return None
    head = git("rev-parse", "HEAD")
    return None if git("rev-parse", head + "^{tree}") == git("rev-parse", onto + "^{tree}") else head

def text_sections(patch):  # (path, lines) of each text section with a new side
    sections, current = [], None
    for line in patch.split(b"\n"):
        if line.startswith(b"diff --git "):
            current = [None, []]
            sections.append(current)
        elif current is None:
            continue
        if line.startswith(b"+++ b/"):
            current[0] = line[6:]
        current[1].append(line)
    return [(p, l) for p, l in sections if p and b"GIT binary patch" not in l and b'"' not in p]

def context_line(patch):  # (path, old line number, new line number) of a first context line
    for path, lines in text_sections(patch):
        old = new = None
        for line in lines:
            m = re.match(rb"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@", line)
            if m:
                old, new = int(m.group(1)), int(m.group(2))
                continue
            if old is None:
                continue
            if line.startswith(b" "):
                return path.decode(), old, new
            if line.startswith(b"-"):
                old += 1
            elif line.startswith(b"+"):
                new += 1
    return None

def edit_line(path, number):
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    lines[number - 1] += b" sweep-edited"
    with open(path, "wb") as f:
        f.write(b"\n".join(lines))

tally = defaultdict(lambda: defaultdict(int))
problems = []
def judge(kind, lineage, head, ref, approved):
    answer, reason = verify(lineage, head, ref)
    t = tally[kind]
    if answer == "exact":  # the HEAD's tree is the approved tree itself
        t["exact"] += 1
        return "accepted"
    same = oracle(ref, head, approved)
    t["tried"] += 1
    t["oracle_same"] += same
    if answer == "accepted":
        t["accepted"] += 1
        if not same:
            t["disagreements"] += 1
            problems.append("DISAGREEMENT %s: %s onto %s accepted, the git CLI's change differs"
                            % (kind, head, ref))
    elif answer == "refused":
        t["refused " + reason] += 1
        if same:
            t["stricter"] += 1
            print("STRICTER %s: %s onto %s: %s" % (kind, head, ref, reason), file=sys.stderr)
    else:
        t["unexpected"] += 1
        problems.append("UNEXPECTED %s: %s onto %s: %s" % (kind, head, ref, reason))
    return answer

def skip(kind):
    tally[kind]["skipped"] += 1

def negatives_of(lineage, head, base, approved):
    patch = pinned(base, head)
    sections = text_sections(patch)
    if sections:  # neg-line: one line appended to a file the change edits
        git("checkout", "-q", "--detach", head)
        with open(sections[0][0].decode(), "ab") as f:
            f.write(b"sweep: one more line\n")
        judge("neg-line", lineage, commit_all("one more line"), base, approved)
    else:
        skip("neg-line")
    git("checkout", "-q", "--detach", head)  # neg-file: one more file
    with open("sweep-extra-file.txt", "w") as f:
        f.write("not reviewed\n")
    judge("neg-file", lineage, commit_all("one more file"), base, approved)
    found = context_line(patch)  # neg-context: a context line edited in the base and the head
    if not found:
        skip("neg-context")
        return
    path, old, new = found
    git("checkout", "-q", "--detach", base)
    edit_line(path, old)
    base2 = commit_all("context edited")
    git("checkout", "-q", "--detach", head)
    edit_line(path, new)
    edited = commit_all("context edited")
    head2 = git("commit-tree", edited + "^{tree}", "-p", base2, "-m", "context edited")
    judge("neg-context", lineage, head2, base2, approved)

def merges_of(lineage, commit, older_base, older_pick, approved):
    parent = commit + "^"
    git("checkout", "-q", "--detach", parent)  # merge-pr
    if ok("merge", "-q", "--no-ff", "--no-edit", older_pick):
        judge("merge-pr", lineage, git("rev-parse", "HEAD"), parent, approved)
    else:
        reset()
        skip("merge-pr")
    git("checkout", "-q", "--detach", parent)  # merge-x
    with open("sweep-unreviewed.sh", "w") as f:
        f.write("echo unreviewed\n")
    commit_all("main plus unreviewed code")
    if ok("merge", "-q", "--no-ff", "--no-edit", older_pick):
        judge("merge-x", lineage, git("rev-parse", "HEAD"), parent, approved)
    else:
        reset()
        skip("merge-x")
    past = git("commit-tree", older_pick + "^{tree}", "-p", older_base, "-p", parent, "-m", "past")
    judge("merge-past", lineage, past, parent, approved)

def interrupted(signum, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGTERM, interrupted)
line = git("rev-list", "--first-parent", "--no-merges", "HEAD").split()
step = max(1, len(line) // commits)
first_parent = git("rev-list", "--first-parent", "HEAD").split()
position = {c: i for i, c in enumerate(first_parent)}
def sweep_commit(c):
    if not ok("rev-parse", "-q", "--verify", c + "^{commit}") or c not in position:
        return
    started = run([gentle_ai, "review", "start", "--kind", "commit-range", "--base", c + "^",
                   "--head", c, "--json"], check=False)
    if started.returncode != 0:  # e.g. a patch above the budget, or a root commit
        skip("lineage")
        return
    lineage = json.loads(started.stdout)["lineage"]
    run([gentle_ai, "review", "verdict", "--lineage", lineage, "--verdict", "APPROVE", "--actor",
         "sweep", "--role", "reviewer", "--body", "sweep", "--json"])
    approved = normal(pinned(c + "^", c))
    for k in offsets:
        older = git("rev-parse", "-q", "--verify", "%s~%d^{commit}" % (c, k + 1), check=False)
        picked = pick(c, older) if older else None
        if picked:
            if judge("pick-older", lineage, picked, older, approved) == "accepted" and negatives:
                negatives_of(lineage, picked, older, approved)
            if merges:
                merges_of(lineage, c, older, picked, approved)
        else:
            skip("pick-older")
        at = position[c] - k
        later = first_parent[at] if at >= 0 else None
        base = None
        if later:
            git("checkout", "-q", "--detach", later)
            if ok("revert", "--no-edit", c):
                base = git("rev-parse", "HEAD")
            else:
                reset()
        picked = pick(c, base) if base else None
        if picked:
            if judge("pick-later", lineage, picked, base, approved) == "accepted" and negatives:
                negatives_of(lineage, picked, base, approved)
        else:
            skip("pick-later")

swept, stopped = 0, False
try:
    for i in range(0, min(len(line), step * commits), step):
        sweep_commit(line[i])
        swept += 1
except KeyboardInterrupt:  # SIGTERM: report what was swept
    stopped = True
    reset()

print("repository: %s (%s)" % (source, run(["git", "-C", source, "rev-parse", "HEAD"]).stdout.decode().strip()))
print("commits swept: %d of %d%s" % (swept, min(commits, len(line)),
                                     " (stopped by SIGTERM)" if stopped else ""))
print("%-12s %6s %7s %5s %8s %7s %8s %11s %8s  refused by reason"
      % ("kind", "tried", "skipped", "exact", "accepted", "refused", "oracle=", "disagreeing",
         "stricter"))
total = defaultdict(int)
for kind in ["pick-older", "pick-later", "neg-line", "neg-file", "neg-context", "merge-pr",
             "merge-x", "merge-past", "lineage"]:
    t = tally[kind]
    refused = {k[8:]: v for k, v in t.items() if k.startswith("refused ")}
    for key in ("tried", "skipped", "accepted", "disagreements", "stricter", "unexpected"):
        total[key] += t[key]
    total["refused"] += sum(refused.values())
    print("%-12s %6d %7d %5d %8d %7d %8d %11d %8d  %s"
          % (kind, t["tried"], t["skipped"], t["exact"], t["accepted"], sum(refused.values()),
             t["oracle_same"], t["disagreements"], t["stricter"],
             " ".join("%s=%d" % kv for kv in sorted(refused.items())) or "-"))
print("total: %d tried, %d accepted, %d refused, %d disagreements, %d stricter, %d unexpected"
      % (total["tried"], total["accepted"], total["refused"], total["disagreements"],
         total["stricter"], total["unexpected"]))
kinds = ["pick-older", "pick-later"] + (["neg-line", "neg-file", "neg-context"] if negatives else [])
kinds += ["merge-pr", "merge-x", "merge-past"] if merges else []
if all_kinds:
    problems += ["NOT TRIED: %s" % kind for kind in kinds
                 if not tally[kind]["tried"] + tally[kind]["exact"]]
for p in problems:
    print(p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
