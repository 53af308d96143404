#!/usr/bin/env bash
# session 21 call J: Q (and the last V block) by TMA from the producer in warp-specialized
# kernels that are not persistent (their body run as a loop of one tile): the sm_90a cases of
# every warp-specialized kernel (forward d = 128/256, dK/dV, packed) + sanitizers; dense and
# causal at d = 128/256 x 1k/4k, alternating with the previous kernels (rcp).
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s21/cases-q.tgz
ls -d gpu-cases* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 200 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases*
for rep in 1 2; do
  for c in rcp q; do
    timeout 40 python3 bench/variants.py --ptx-dir carry/s21/v-$c --variants dense,causal --dims 128,256 --seqlens 1024,4096 --json $OUT/r/grid-$c-$rep.json > $OUT/r/grid-$c-$rep.txt 2>&1; echo "grid $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
python3 - $OUT/r <<'PY'
import json, sys, glob, collections
d = sys.argv[1]
t = collections.defaultdict(list)
for f in sorted(glob.glob(d + "/grid-*.json")):
    c = f.split("grid-")[1].split("-")[0]
    for r in json.load(open(f))["rows"]:
        t[(r["variant"], r["d"], r["N"], c)].append(r["tflops"])
for k in sorted({k[:3] for k in t}):
    print(*k, "rcp", " ".join(f"{x:.1f}" for x in t[k + ("rcp",)]), "| q", " ".join(f"{x:.1f}" for x in t[k + ("q",)]))
PY
cd $OUT && tar czf r.tgz r && rm -rf r
