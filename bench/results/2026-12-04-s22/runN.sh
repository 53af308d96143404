#!/usr/bin/env bash
# session 22 call N: 86 sm_90a backward cases with the vectorized shared accesses,
# sanitizers; then the backward tma (TMA stores) vs vec (+ vector local_store/load),
# alternating.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/c4.tgz
OUT=$OUT/r bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "check rc $? $(( $(date +%s)-t0 ))s"
tail -n 1 $OUT/r/gpu-cases-bwd.log; echo "sanitizer ok $(grep -c 'exit 0' $OUT/r/memcheck.log) bad $(grep -c 'exit [1-9]' $OUT/r/memcheck.log)"
for rep in 1 2; do
  for c in tma vec; do
    timeout 150 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/b-$c --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c-$rep.json > $OUT/r/bwd-$c-$rep.txt 2>&1; echo "bwd $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
python3 - $OUT/r <<'PY'
import json, sys, glob, collections, statistics
d = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/bwd-*.json")):
    c = f.split("bwd-")[1].split("-")[0]
    rows = json.load(open(f))
    rows = rows["rows"] if isinstance(rows, dict) else rows
    for r in rows:
        if not r["kernel"].endswith("_fused"):
            t[(r["d"], r["N"], r["causal"], c)].append(r["tflops"])
for k in sorted({k[:3] for k in t}, key=str):
    a, b = t[k + ("tma",)], t[k + ("vec",)]
    print(*k, "tma", a, "| vec", b, "| vec/tma %.3f" % (statistics.median(b) / statistics.median(a)))
PY
cd $OUT && tar czf r.tgz r && rm -rf r
