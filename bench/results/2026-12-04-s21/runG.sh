#!/usr/bin/env bash
# session 21 call G: the persistent grid (--persistent) vs the default, both with the reciprocal
# epilogue: dense and causal at d = 64/128/256
# x 1k/4k/16k, alternating, next to peer_sdpa.py.
mkdir -p $OUT/r
t0=$(date +%s)
for rep in 1 2; do
  for c in rcp pers; do
    timeout 120 python3 bench/variants.py --ptx-dir carry/s21/v-$c --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/grid-$c-$rep.json > $OUT/r/grid-$c-$rep.txt 2>&1; echo "grid $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 150 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
python3 - $OUT/r <<'PY'
import json, sys, glob, collections
d = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/grid-*.json")):
    c = f.split("grid-")[1].split("-")[0]
    for r in json.load(open(f))["rows"]:
        t[(r["variant"], r["d"], r["N"], c)].append(r["tflops"])
keys = sorted({k[:3] for k in t})
for k in keys:
    print(*k, "default", " ".join(f"{x:.1f}" for x in t[k + ("rcp",)]), "| persistent", " ".join(f"{x:.1f}" for x in t[k + ("pers",)]))
PY
grep -v "^#" $OUT/r/sdpa.txt
cd $OUT && tar czf r.tgz r && rm -rf r
