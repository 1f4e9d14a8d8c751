#!/usr/bin/env python3
"""Black-box probes of git's binary delta encoder (no git source involved).

Re-derives, from `git diff --binary` output alone, the two facts export/git_delta.cc relies on
beyond the pack delta format:
  1. how git thins a hash bucket holding more than 64 entries (which entries survive), and
  2. the modulus of git's 16-byte window fingerprint (x^31 + LOW), from which bucket of a
     crowded table a crafted window lands in.
Usage: scripts/probe-git-delta.py [workdir]   (needs git; takes a few seconds)
"""
import os, random, subprocess, sys, zlib

AL = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"


def b85dec(lines):
    out = b''
    for ln in lines:
        n = ord(ln[0]) - ord('A') + 1 if ln[0] <= 'Z' else ord(ln[0]) - ord('a') + 27
        bs = b''
        for g in range(1, len(ln), 5):
            v = 0
            for ch in ln[g:g + 5]:
                v = v * 85 + AL.index(ch)
            bs += v.to_bytes(4, 'big')
        out += bs[:n]
    return out


def copy_offsets(delta):
    pos = 0

    def varint():
        nonlocal pos
        v = s = 0
        while True:
            b = delta[pos]; pos += 1; v |= (b & 0x7f) << s; s += 7
            if not b & 0x80:
                return v
    varint(); varint()
    offs = []
    while pos < len(delta):
        op = delta[pos]; pos += 1
        if op & 0x80:
            off = 0
            for i in range(7):
                if op & (1 << i):
                    if i < 4:
                        off |= delta[pos] << (8 * i)
                    pos += 1
            offs.append(off)
        else:
            pos += op
    return offs


def forward_deltas(pairs, d):
    """Commits old then new versions of f<i>; returns f<i> -> copy offsets of the forward delta."""
    subprocess.run(['rm', '-rf', d]); os.makedirs(d)
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM='1', GIT_CONFIG_GLOBAL='/dev/null', HOME=d, LC_ALL='C')
    def git(*a):
        return subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t',
                               '-c', 'core.loosecompression=1'] + list(a),
                              cwd=d, env=env, capture_output=True, check=True).stdout
    git('init', '-q', '.')
    open(d + '/.git/info/attributes', 'w').write('* binary\n')
    for side in (0, 1):
        for i, p in enumerate(pairs):
            open(f'{d}/f{i}', 'wb').write(p[side])
        git('add', '-A'); git('commit', '-qm', str(side))
    res = {}
    for sec in git('diff', '--binary', '--no-renames', 'HEAD~1', 'HEAD').decode('latin1').split('diff --git a/')[1:]:
        hunk = sec.split('GIT binary patch\n')[1].split('\n\n')[0].split('\n')
        res[sec.split(' ')[0]] = copy_offsets(zlib.decompress(b85dec(hunk[1:]))) if hunk[0].startswith('delta') else []
    return res


def thinning(work, rnd):
    """Block A repeated N times, each copy followed by marker U0, except copy i* followed by U1.
    A target "A U1" copies from copy i* exactly when git kept that entry."""
    R = lambda n: bytes(rnd.getrandbits(8) for _ in range(n))
    A, U0, U1 = R(16), R(16), R(16)
    pairs, meta = [], []
    for N in (65, 66, 67, 80, 100, 129, 200):
        for i in range(N):
            src = b'\0' + b''.join(A + (U1 if j == i else U0) for j in range(N)) + R(16)
            pairs.append((src, R(16) + A + U1 + R(16) + src)); meta.append((N, i))
    res = forward_deltas(pairs, work)
    def model(N):
        keep, acc, k = set(), 0, 0
        while k < N:
            keep.add(k); acc += N - 64
            while acc > 0 and k + 1 < N:
                k += 1; acc -= 64
            k += 1
        return keep
    agree = sum((1 + 32 * i in res[f'f{x}']) == (i in model(N)) for x, (N, i) in enumerate(meta))
    print(f'thinning model agrees on {agree}/{len(meta)} probed entries')


def modulus(work, rnd):
    """65 zero blocks separated by S = 0..01 (one separator 0..02), then window W_k ^ v.
    The zero bucket holds 65 entries (one dropped) or 66 (two dropped, among them zero block #34)
    when fp(W_k ^ v) & 31 == 0, i.e. v == fp(x^k) & 31. Low 5 bits of x^k mod P, k = 31..127,
    then give P through the shift-register recurrence."""
    N, Z, S, S2 = 65, bytes(16), bytes(15) + b'\1', bytes(15) + b'\2'
    def window(k, v):
        w = bytearray(16); w[15 - k // 8] |= 1 << (k % 8); w[15] ^= v; return bytes(w)
    pairs, meta = [], []
    for k in range(31, 128):
        for v in range(32):
            src = b'\0' + b''.join(Z + (S2 if i == 34 else S) for i in range(N)) + window(k, v) + b'\0'
            pairs.append((src, bytes(rnd.getrandbits(8) for _ in range(16)) + Z + S2 + bytes(16) + src))
            meta.append((k, v))
    res = forward_deltas(pairs, work)
    cands = {}
    for x, (k, v) in enumerate(meta):
        if 1 + 32 * 34 not in res[f'f{x}'][:3]:
            cands.setdefault(k, []).append(v)
    low = cands[31]
    chains = [([c], []) for c in low]  # low 5 bits of r_k, and the carries bit30(r_k)
    for k in range(31, 127):
        nxt = []
        for bits, carries in chains:
            for carry in (0, 1):
                b = ((bits[-1] << 1) & 31) ^ (bits[0] if carry else 0)
                if b in cands.get(k + 1, []):
                    nxt.append((bits + [b], carries + [carry]))
        chains = nxt
    for bits, carries in chains:
        # r_31 = p; r_{k+1} = (r_k << 1 mod 2^31) ^ carry_k * p; carry_k == bit 30 of r_k.
        forms = [(1 << j, 0) for j in range(31)]
        eqs = []
        for step, carry in enumerate(carries):
            eqs.append((forms[30][0], forms[30][1] ^ carry))
            for j in range(5):
                eqs.append((forms[j][0], forms[j][1] ^ ((bits[step] >> j) & 1)))
            forms = [((forms[j - 1][0] if j else 0) ^ ((1 << j) if carry else 0),
                      forms[j - 1][1] if j else 0) for j in range(31)]
        piv, ok = {}, True
        for m, c in eqs:
            for b in sorted(piv, reverse=True):
                if m >> b & 1:
                    m ^= piv[b][0]; c ^= piv[b][1]
            if not m:
                ok &= not c; continue
            b = m.bit_length() - 1
            for bb in list(piv):
                if piv[bb][0] >> b & 1:
                    piv[bb] = (piv[bb][0] ^ m, piv[bb][1] ^ c)
            piv[b] = (m, c)
        if ok and len(piv) == 31:
            print('fingerprint modulus: x^31 + %#x' % sum(piv[b][1] << b for b in range(31)))


if __name__ == '__main__':
    work = sys.argv[1] if len(sys.argv) > 1 else '/tmp/gentle-probe-git-delta'
    rnd = random.Random(1)
    thinning(work + '/thin', rnd)
    modulus(work + '/modulus', rnd)
