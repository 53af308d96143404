#!/usr/bin/env bash
# session 21 call B: the online softmax's lazy reference (m moves only when the row
# maximum passes it by more than 8, log2 units) and the rescale of the accumulators
# skipped where alpha = 1 in every lane of a warp (vote.sync.any), with score
# modifiers contracted (lazy) vs main (and ct: contraction only): correctness
# cases (sm_90a defaults of every variant at d = 64 and 256), then dense and causal
# at d = 64/128/256 x 1k/4k/16k, alternating, next to peer_sdpa.py; the variants at
# d = 128 next to peer_flex.py.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s21/cases-b.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 240 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
for rep in 1 2; do
  for c in main lazy; do
    timeout 120 python3 bench/variants.py --ptx-dir carry/s21/v-$c --variants dense,causal --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/grid-$c-$rep.json > $OUT/r/grid-$c-$rep.txt 2>&1; echo "grid $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 150 python3 carry/peer_sdpa.py --dims 64,128,256 --seqlens 1024,4096,16384 --json $OUT/r/sdpa.json > $OUT/r/sdpa.txt 2>&1; echo "sdpa rc $? $(( $(date +%s)-t0 ))s"
V=dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,sliding_window_softcap,document,document_shuffled
for rep in 1 2; do
  for c in ct lazy; do
    d=carry/s21/v-$c
    timeout 150 python3 bench/variants.py --ptx-dir $d --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "var $c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 200 python3 carry/peer_flex.py --seqlens 8192,16384 --variants dense,causal,sliding_window,softcap,alibi,gqa,prefix_lm,document,document_shuffled --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/grid-*.txt $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f; done; grep -v "^#" $OUT/r/sdpa.txt | head -40; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
