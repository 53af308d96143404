#!/usr/bin/env bash
# session 22 call L: the backward (prep + dK/dV + dQ; dK, dV and dQ now leave by TMA
# stores) main vs tma, alternating, next to peer_sdpa.py --pass bwd.
mkdir -p $OUT/r
t0=$(date +%s)
{ cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-gpu; } > $OUT/r/build.log 2>&1; echo "build rc $? $(( $(date +%s)-t0 ))s"
for rep in 1 2; do
  for c in main tma; do
    timeout 150 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/b-$c --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c-$rep.json > $OUT/r/bwd-$c-$rep.txt 2>&1; echo "bwd $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 200 python3 carry/peer_sdpa.py --pass bwd --dims 64,128 --seqlens 1024,4096,16384 --json $OUT/r/sdpa-bwd.json > $OUT/r/sdpa-bwd.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
head -30 $OUT/r/bwd-tma-1.txt
python3 - $OUT/r <<'PY'
import json, sys, glob, collections
d = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/bwd-*.json")):
    c = f.split("bwd-")[1].split("-")[0]
    rows = json.load(open(f))
    rows = rows["rows"] if isinstance(rows, dict) else rows
    for r in rows:
        t[(r.get("d"), r.get("N"), r.get("causal"), c)].append(r.get("tflops"))
for k in sorted({k[:3] for k in t}, key=str):
    print(*k, "main", t[k + ("main",)], "| tma", t[k + ("tma",)])
PY
grep -v "^#" $OUT/r/sdpa-bwd.txt
cd $OUT && tar czf r.tgz r && rm -rf r
