#!/usr/bin/env bash
# One name per concept (docs/design.md, "Glossary"): renames code identifiers, source files and
# comments to the glossary's names. Re-runnable and idempotent: it rewrites only the old names,
# so running it again (after a merge brings in code that still uses them) changes only what is
# new. On-disk names, JSON member names, CLI flags, fsck finding codes, human output and error
# messages are the contract and are never touched: identifiers are matched as whole words outside
# string literals, and prose only in comments (`//` to the end of the line) and in docs/*.md lines
# that quote no output.
#
#   pin ref            -> history ref   (one ref: refs/gentle-ai/reviews/<lineage>)
#   store/git/pin_ref* -> store/git/review_refs*  (listing and deleting those refs)
#   transaction's Standing (list's live/incomplete/consumed/retired) -> ListState
#                         (export's Standing, applicability and next by name, keeps its name)
#   LoadedIndex, LoadWorkspaceIndex (git's .git/index) -> LoadedGitIndex, LoadGitIndex
#                         ("index" alone is the SQLite index, index.sqlite)
#   PeelRevision (a git revision) -> PeelRev ("revision" alone is a record's digest)
#   CheckRebaseRevisions (git revisions) -> CheckRebaseRevs
#   generation (a record's round number) -> round: in code only. The record's JSON member keeps
#                         its name `generation` (gentle-ai's format), as do messages and help text:
#                         string literals and comments are not touched (scripts/dev/rename_code.py
#                         tells code from literals and comments, raw strings included).
#
# Usage: scripts/dev/rename-concepts.sh   (from anywhere inside the checkout)
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

# Source files: git mv when the old file is there and the new one is not.
move() {
  if [[ -e $1 && ! -e $2 ]]; then git mv "$1" "$2"; fi
}
move store/git/pin_ref.h store/git/review_refs.h
move store/git/pin_ref.cc store/git/review_refs.cc
move store/git/pin_ref_write.h store/git/review_refs_write.h
move store/git/pin_ref_write.cc store/git/review_refs_write.cc

mapfile -t code < <(git ls-files -- '*.cc' '*.h' '*CMakeLists.txt' '*.cmake')
mapfile -t docs < <(git ls-files -- 'docs/*.md' 'README.md')

# Identifiers: whole words, not inside a string literal (no quote right before or after).
perl -pi -e '
  next if /^\s*#\s*include\s*</;
  s/(?<!["\w])ListPinRefs(?!["\w])/ListHistoryRefs/g;
  s/(?<!["\w])DeletePinRefUnlessLocked(?!["\w])/DeleteHistoryRefUnlessLocked/g;
  s/(?<!["\w])DeletePinRef(?!["\w])/DeleteHistoryRef/g;
  s/(?<!["\w])PinRef(?!["\w])/HistoryRef/g;
  s/(?<!["\w])kPinMissing(?!["\w])/kHistoryRefMissing/g;
  s/(?<!["\w])kPinOrphan(?!["\w])/kHistoryRefOrphan/g;
  s/(?<![".\w])pin_refs(?!["\w])/history_refs/g;
  s/\.pin_refs\b/.history_refs/g;
  s/(?<!["\w])LoadedIndex(?!["\w])/LoadedGitIndex/g;
  s/(?<!["\w])LoadWorkspaceIndex(?!["\w])/LoadGitIndex/g;
  s/(?<!["\w])PeelRevision(?!["\w])/PeelRev/g;
  s{store/git/pin_ref_write\.h}{store/git/review_refs_write.h}g;
  s{store/git/pin_ref\.h}{store/git/review_refs.h}g;
  s{git/pin_ref_write\.cc}{git/review_refs_write.cc}g;
  s/GENTLE_STORE_GIT_PIN_REF_WRITE_H_/GENTLE_STORE_GIT_REVIEW_REFS_WRITE_H_/g;
  s/GENTLE_STORE_GIT_PIN_REF_H_/GENTLE_STORE_GIT_REVIEW_REFS_H_/g;
  # Prose, in comments only.
  s{(//.*)$}{ my $c = $1; $c =~ s/\bpin ref/history ref/g; $c =~ s/\bPin ref/History ref/g; $c }e;
' "${code[@]}"

# generation -> round, and git revisions named as such, in code tokens only.
python3 scripts/dev/rename_code.py "${code[@]}"

# transaction's Standing: in transaction/ and wherever it is named transaction::Standing.
mapfile -t standing < <(
  { git ls-files -- 'transaction/*.cc' 'transaction/*.h'; git grep -l 'transaction::Standing' -- '*.cc' '*.h' || true; } |
    sort -u)
if ((${#standing[@]})); then
  perl -pi -e '
    s/(?<!["\w])StandingName(?!["\w])/ListStateName/g;
    s/(?<![".\w])Standing(?![\w"])/ListState/g;
    s/transaction::Standing\b/transaction::ListState/g;
  ' "${standing[@]}"
fi

# Docs: the names in prose and in the source map; a line quoting output ("pin ref(s)") is kept.
perl -pi -e '
  next if /pin ref\(s\)/;
  s/\bpin ref/history ref/g;
  s/\bPin ref/History ref/g;
  s/`pin_ref_write`/`review_refs_write`/g;
  s/`pin_ref`/`review_refs`/g;
  s/\bDeletePinRef\b/DeleteHistoryRef/g;
  s/\bListPinRefs\b/ListHistoryRefs/g;
  s/\bLoadWorkspaceIndex\b/LoadGitIndex/g;
' "${docs[@]}"

# A renamed include sorts elsewhere: the repository's .clang-format puts it back in order.
mapfile -t changed < <(git diff --name-only --diff-filter=d HEAD -- '*.cc' '*.h' |
  while read -r f; do [[ -f $f ]] && echo "$f"; done)
if ((${#changed[@]})) && command -v clang-format >/dev/null; then clang-format -i "${changed[@]}"; fi
