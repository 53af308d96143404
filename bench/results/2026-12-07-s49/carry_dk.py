#!/usr/bin/env python3
"""Session 49's experiment before the compiler emits it: in the fused
backward's PTX (dq_order=dot_before_dk, where dK's wgmma is the step's
last), each key loop carries dK's wgmma across its back edge unwaited.

Each loop's latch waited for every group (`wgmma.wait_group 0`) and then
released the step's ring slot (`mbarrier.arrive` on its "empty"
barrier). The edit drops that wait and keeps the slot's address; the next
step releases it right after its first wait (Sᵀ's, `wait_group 1` once
Sᵀ and dPᵀ are issued: groups complete in order, so dK's is done too),
and the loop's exit waits for everything and releases the last slot.

ptxas serializes every wgmma (C7515: "non wgmma instructions defining
accumulator registers ... between start and end of the pipeline stage")
while dK's and dV's accumulators are zeroed by movs before the loops. So
those movs go: the first wgmma step of each of the two (scale-d from a
predicate, false until that dot has run once) starts them instead, and
after the last loop a key block no query reached takes zeros (selp).
For d = 128's kernel (dK and dV the m64n128k16 accumulators).
usage: carry_dk.py IN.ptx OUT.ptx (prints the number of loops edited)."""
import re
import sys

src = open(sys.argv[1]).read()
lines = src.split("\n")
out = []
latch = re.compile(r"\tmbarrier\.arrive\.shared\.b64 \t%rd\d+, \[(%r\d+)\+(\d+)\];")
offsets = set()
edited, exits, pending_header = 0, set(), set()
i = 0
# The loop latches: wait_group 0, an empty inline asm pair, the arrive.
while i < len(lines):
    line = lines[i]
    m = latch.match(lines[i + 3]) if i + 3 < len(lines) else None
    if line == "\twgmma.wait_group.sync.aligned \t0;" and m and "begin inline asm" in lines[i + 1]:
        out.append(f"\tmov.b32 \t%rprev, {m.group(1)};")
        offsets.add(m.group(2))
        out.append("\tmov.pred \t%pprev, 1;")
        # the latch: add/add/setp, @p bra HEADER, bra.uni EXIT
        j = i + 4
        while not lines[j].startswith("\t@%p"):
            out.append(lines[j]); j += 1
        header = lines[j].split()[-1].rstrip(";")
        exit_ = lines[j + 1].split()[-1].rstrip(";")
        pending_header.add(header); exits.add(exit_)
        out.append(lines[j]); out.append(lines[j + 1])
        i = j + 2
        edited += 1
        continue
    out.append(line)
    i += 1
assert len(offsets) == 1, offsets
empty = offsets.pop()
# Second pass: the first wait_group 1 after each header, each exit label,
# the registers at the top of the function.
final, current, done_header = [], None, set()
for idx, line in enumerate(out):
    final.append(line)
    label = line[:-1] if line.endswith(":") and line.startswith("$L__") else None
    if label in pending_header:
        current = label
    if current and line == "\twgmma.wait_group.sync.aligned \t1;" and current not in done_header:
        final.append("\t@%pprev mbarrier.arrive.shared.b64 \t%rdprev, [%rprev+" + empty + "];")
        done_header.add(current); current = None
    if label in exits:
        final.append("\twgmma.wait_group.sync.aligned \t0;")
        final.append("\t@%pprev mbarrier.arrive.shared.b64 \t%rdprev, [%rprev+" + empty + "];")
        final.append("\tmov.pred \t%pprev, 0;")
# dK's and dV's accumulators: no zeroing movs; each one's first step of a
# group of four (k16 steps over 64 queries) takes scale-d from its flag.
accs = {}
for m in re.finditer(r"m64n128k16\.f32\.\w+\.\w+ \{([^}]*)\}", "\n".join(final)):
    regs = [r.strip() for r in m.group(1).split(",")]
    accs.setdefault(regs[0], regs)
assert len(accs) == 2, accs.keys()
flag = {first: f"%pacc{i}" for i, first in enumerate(accs)}
owned = {r: first for first, regs in accs.items() for r in regs}
zeroing = re.compile(r"\tmov\.b32 \t(%r\d+), (%r\d+|0f00000000|0);$")
edited_final, steps, removed = [], {}, 0
for idx, line in enumerate(final):
    m = zeroing.match(line)
    if m and m.group(1) in owned:
        removed += 1
        continue
    m = re.match(r"wgmma\.mma_async\.sync\.aligned\.m64n128k16\.f32\.\w+\.\w+ \{(%r\d+),", line)
    if m and m.group(1) in flag:
        first = m.group(1)
        steps[first] = steps.get(first, 0) + 1
        if steps[first] % 4 == 1:
            assert edited_final[-1].startswith("setp.ne.b32 p,"), edited_final[-1]
            edited_final[-1] = f"mov.pred p, {flag[first]};"
            edited_final.append(line)
            edited_final.append(f"mov.pred {flag[first]}, 1;")
            continue
    edited_final.append(line)
final = edited_final
# After the last loop's exit (the last exit label in the file): zeros
# where no step ran.
last_exit = max((i for i, l in enumerate(final) if l.endswith(":") and l[:-1] in exits))
fix = []
for first, regs in accs.items():
    fix += [f"\tselp.b32 \t{r}, {r}, 0, {flag[first]};" for r in regs]
final = final[: last_exit + 4] + fix + final[last_exit + 4 :]
text = "\n".join(final)
# Declarations after the function's last leading .reg line, then the flag.
regs = list(re.finditer(r"^\t\.reg .*;$", text, re.M))
at = regs[-1].end()
text = (text[:at] + "\n\t.reg .pred \t%pprev;\n\t.reg .b32 \t%rprev;\n\t.reg .b64 \t%rdprev;\n"
        "\t.reg .pred \t%pacc0;\n\t.reg .pred \t%pacc1;\n"
        "\tmov.pred \t%pprev, 0;\n\tmov.pred \t%pacc0, 0;\n\tmov.pred \t%pacc1, 0;" + text[at:])
assert edited == len(done_header), (edited, done_header)
open(sys.argv[2], "w").write(text)
print(edited)
