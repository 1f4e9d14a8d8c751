#!/usr/bin/env python3
"""Renames identifiers in C++ code tokens only (scripts/dev/rename-concepts.sh).

String and character literals (raw strings included), comments and #include lines are kept as
they are, so on-disk names, JSON members, messages and help text never change. Idempotent: it
rewrites only the old names. Usage: rename_code.py FILE...
"""
import re
import sys

# Whole-identifier renames, applied to every code token.
RENAMES = [
    (re.compile(r"(?<!\w)generation(?!\w)"), "round"),
    (re.compile(r"(?<!\w)CheckRebaseRevisions(?!\w)"), "CheckRebaseRevs"),
]

# ReadRoundContext (store/round_context.cc) has a local `round` beside its parameter
# `generation`: the local becomes `opened` (the round a start or revise commit opens) first.
LOCAL_ROUND = re.compile(r"(?<![\w.>])round(?!\w)")

RAW_STRING = re.compile(r'(?:u8|[uUL])?R"([^()\\ ]{0,16})\(')
STRING_START = re.compile(r'(?:u8|[uUL])?"')


def segments(text):
    """Yields (is_code, piece) covering `text` in order."""
    i, n, start = 0, len(text), 0
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
        elif c == "#" and re.match(r"#\s*include\b", text[i:i + 20]) and (
                i == 0 or text[i - 1] == "\n"):
            end = text.find("\n", i)
            end = n if end < 0 else end
        elif (m := RAW_STRING.match(text, i)) and (i == 0 or not (text[i - 1].isalnum() or
                                                                   text[i - 1] == "_")):
            close = ")" + m.group(1) + '"'
            end = text.find(close, m.end())
            end = n if end < 0 else end + len(close)
        elif (m := STRING_START.match(text, i)) and (i == 0 or not (text[i - 1].isalnum() or
                                                                     text[i - 1] == "_")):
            j = m.end()
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
        elif c == "'" and not (i > 0 and text[i - 1].isalnum()):  # not a digit separator
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            end = min(j + 1, n)
        else:
            i += 1
            continue
        if start < i:
            yield True, text[start:i]
        yield False, text[i:end]
        i = start = end
    if start < n:
        yield True, text[start:]


def rename_code(text, rules):
    out = []
    for is_code, piece in segments(text):
        if is_code:
            for pattern, new in rules:
                piece = pattern.sub(new, piece)
        out.append(piece)
    return "".join(out)


def has_code(text, pattern):
    return any(is_code and pattern.search(piece) for is_code, piece in segments(text))


def rename_local_round(path, text):
    if not path.endswith("store/round_context.cc") or not has_code(text, RENAMES[0][0]):
        return text
    start = text.find("ReadRoundContext(const git::Repository& repo")
    if start < 0:
        return text
    end = text.find("\n}\n", start)
    end = len(text) if end < 0 else end + 3
    body = rename_code(text[start:end], [(LOCAL_ROUND, "opened")])
    return text[:start] + body + text[end:]


def main(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        new = rename_code(rename_local_round(path, text), RENAMES)
        if new != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)


if __name__ == "__main__":
    main(sys.argv[1:])
