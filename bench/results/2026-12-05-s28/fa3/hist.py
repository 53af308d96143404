#!/usr/bin/env python3
"""Per-function loop analysis of cuobjdump -sass output.
For each function: total instrs; each backward-branch loop containing HGMMA (skipping retry blocks that contain EXIT):
range, size, HGMMA count, and an opcode histogram. Usage: hist.py file.sass [--func substr] [--loop start_hex] [--all]"""
import re, sys, collections, argparse
ap = argparse.ArgumentParser(); ap.add_argument('sass'); ap.add_argument('--func', default='')
ap.add_argument('--loop', default=None); ap.add_argument('--detail', action='store_true'); ap.add_argument('--out', default=None)
a = ap.parse_args()
funcs = collections.OrderedDict(); cur = None
for line in open(a.sass):
    m = re.match(r'\s*Function : (\S+)', line)
    if m: cur = m.group(1); funcs[cur] = []; continue
    m = re.search(r'/\*([0-9a-f]{4,6})\*/\s+(.*?)\s*;', line)
    if m and cur: funcs[cur].append((int(m.group(1), 16), m.group(2)))
def op(t, detail=False):
    toks = t.split()
    if toks[0].startswith('@'): toks = toks[1:]
    o = toks[0]
    if detail: return o
    base = o.split('.')[0]
    if base in ('HGMMA',): return '.'.join(o.split('.')[:2])  # shape
    if base in ('WARPGROUP','SYNCS','BAR','MUFU','DEPBAR','WARPSYNC','UTMALDG','UBLKCP','ELECT'):
        return '.'.join(o.split('.')[:2])
    return base
def loops(ins):
    idx = {ad: i for i, (ad, _) in enumerate(ins)}; out = []
    for i, (ad, t) in enumerate(ins):
        if 'BRA' not in t: continue
        m = re.search(r'0x([0-9a-f]+)', t)
        if not m: continue
        tg = int(m.group(1), 16)
        if tg >= ad or tg not in idx: continue
        body = [x for _, x in ins[idx[tg]:i+1]]
        if any(x.split()[-1] == 'EXIT' for x in body): continue
        out.append((tg, ad, body))
    return out
for f, ins in funcs.items():
    if a.func not in f: continue
    n_h = sum('HGMMA' in t for _, t in ins)
    print(f'== {f[:160]}\n   {len(ins)} instructions (incl. NOP: {sum(t.split()[0]=="NOP" for _,t in ins)}), {n_h} HGMMA')
    for tg, ad, body in sorted(loops(ins), key=lambda l: l[0]):
        h = sum('HGMMA' in t for t in body)
        print(f'   loop {tg:#06x}-{ad:#06x}: {len(body)} instrs, {h} HGMMA')
        if a.loop and int(a.loop, 16) == tg:
            c = collections.Counter(op(t, a.detail) for t in body)
            for k, v in sorted(c.items(), key=lambda kv: -kv[1]): print(f'      {v:5d} {k}')
