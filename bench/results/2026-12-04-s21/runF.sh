#!/usr/bin/env bash
# session 21 call F: sm_90a cases with the reciprocal epilogue and contracted score
# modifiers (forward defaults of every variant at d = 64/256, decoding and packed
# batches, runtime-input forwards and block masks) + sanitizers; every variant's
# d = 128 forward next to FlexAttention (twice, alternating with Flex).
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s21/cases-f.tgz
ls -d gpu-cases* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 400 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases*
V=dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,document,document_shuffled
for rep in 1 2; do
  timeout 150 python3 bench/variants.py --ptx-dir carry/s21/v-rcp --variants $V,sliding_window_softcap --seqlens 8192,16384 --json $OUT/r/var-$rep.json > $OUT/r/var-$rep.txt 2>&1; echo "var $rep rc $? $(( $(date +%s)-t0 ))s"
  timeout 200 python3 carry/peer_flex.py --seqlens 8192,16384 --variants $V --json $OUT/r/flex-$rep.json > $OUT/r/flex-$rep.txt 2>&1; echo "flex $rep rc $? $(( $(date +%s)-t0 ))s"
done
python3 - $OUT/r <<'PY'
import json, sys
d = sys.argv[1]
ours = {}
for rep in (1, 2):
    for r in json.load(open(f"{d}/var-{rep}.json"))["rows"]:
        ours.setdefault((r["variant"], r["N"]), []).append(r["ms"])
flex = {}
for rep in (1, 2):
    for r in json.load(open(f"{d}/flex-{rep}.json"))["rows"]:
        flex.setdefault((r["variant"], r["N"]), []).append(r["ms"])
for k in sorted(ours):
    o = ours[k]; f = flex.get(k, [])
    ratio = f" {min(f)/max(o):.2f}-{max(f)/min(o):.2f}x" if f else ""
    print(k[0], k[1], "tilec", " ".join(f"{x:.3f}" for x in o), "| flex", " ".join(f"{x:.3f}" for x in f), ratio)
PY
cd $OUT && tar czf r.tgz r && rm -rf r
