#!/usr/bin/env bash
# session 23 call D: base (main at db10bd5) vs new2 (the producer's Q/last-V loads, no
# barriers between the key loops, one barrier after the mbarrier inits): forward
# dense/causal d 64/128/256 at 1k/4k/16k alternating, 3 reps (bench/compare.py); the
# backward (prep + dK/dV + dQ) alternating; next to peer_sdpa.py forward and backward.
mkdir -p $OUT/r
t0=$(date +%s)
{ cmake -G Ninja -S . -B build-gpu -DTILEC_ENABLE_MLIR=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build build-gpu; } > $OUT/r/build.log 2>&1; echo "build rc $? $(( $(date +%s)-t0 ))s"
python3 bench/compare.py --dirs base=carry/v-base,new2=carry/v-new2 --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --reps 3 --out $OUT/r/cmp > $OUT/r/compare.txt 2>&1; echo "compare rc $? $(( $(date +%s)-t0 ))s"
for rep in 1 2; do
  for c in base new2; do
    timeout 150 build-gpu/bin/tilec-bench --pass=bwd --ptx-dir=carry/b-$c --seqlens=1024,4096,16384 --json=$OUT/r/bwd-$c-$rep.json > $OUT/r/bwd-$c-$rep.txt 2>&1; echo "bwd $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 150 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
cat $OUT/r/compare.txt
python3 - $OUT/r <<'PY'
import json, sys, glob, collections
d = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/bwd-*.json")):
    c = f.split("bwd-")[1].rsplit("-", 1)[0]
    rows = json.load(open(f))
    rows = rows["rows"] if isinstance(rows, dict) else rows
    for r in rows:
        t[(r.get("d"), r.get("N"), r.get("causal"), c)].append(r.get("tflops"))
for k in sorted({k[:3] for k in t}, key=str):
    print(*k, "base", t[k + ("base",)], "| new2", t[k + ("new2",)])
PY
grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
