#!/usr/bin/env python3
"""A timing bound, not a correct kernel (session 51): in the fused backward's
PTX, the warps that do not issue dQ's bulk reduction only arrive on the
barrier after its staging stores (`bar.arrive 3, 256`) where they all waited
(`bar.sync 2, 256`); the issuing warp waits on barrier 3. With one dS buffer
a warpgroup may then overwrite dS while the other's dQ wgmma still reads it
(a second dS slot would be needed), so the outputs are not checked: this
measures what the wait costs.
  arrive_staging.py IN.ptx OUT.ptx"""
import re
import sys

src = open(sys.argv[1]).read()
pattern = re.compile(
    r"(fence\.proxy\.async\.shared::cta;\n)\tbar\.sync \t2, 256;\n\t@(%p\d+) bra \t(\$L__\w+);\n"
    r"(?=\telect\.sync[^\n]*\n(?:[^\n]*\n){0,6}?[^\n]*cp\.reduce\.async\.bulk)")
out, n = pattern.subn(
    lambda m: f"{m.group(1)}\t@{m.group(2)} bar.arrive 3, 256;\n\t@!{m.group(2)} bar.sync 3, 256;\n"
              f"\t@{m.group(2)} bra \t{m.group(3)};\n", src)
if n == 0:
    sys.exit("arrive_staging: no staging barrier before a bulk reduction found")
open(sys.argv[2], "w").write(out)
print(f"arrive_staging: {n} barriers")
