#!/usr/bin/env bash
# session 20 call C: every sm_80 runtime-input case + the sm_90a document forward and
# block-mask cases rebuilt with the final kernels (listed blocks pipelined, the seq_k check
# only on a block past the end) + sanitizers; document forward d = 128: main / call A's
# pipelined kernel (48 spilled bytes) / final (spill-free), alternating, next to FlexAttention.
mkdir -p $OUT/r
t0=$(date +%s)
tar xzf carry/s20/cases-c.tgz
ls -d gpu-cases-* | while read d; do echo "$d $(ls $d | wc -l)"; done
OUT=$OUT/r timeout 240 bash scripts/gpu-check.sh > $OUT/r/check.txt 2>&1; echo "gpu-check rc $? $(( $(date +%s)-t0 ))s"
for l in $OUT/r/gpu-cases-*.log; do echo "$(basename $l): $(tail -1 $l)"; grep -v '^PASS' $l | head -8; done
grep -E "^== |ERROR SUMMARY|RACECHECK SUMMARY|^exit" $OUT/r/memcheck.log | paste - - - | grep -v "0 errors.*exit 0\|0 hazards.*exit 0" | head; echo "sanitizer runs ok: $(grep -c 'exit 0' $OUT/r/memcheck.log)"
rm -rf gpu-cases-*
V=dense,document,document_shuffled
for rep in 1 2; do
  for c in main ov br; do
    timeout 60 python3 bench/variants.py --ptx-dir carry/s20/var-$c --variants $V --seqlens 8192,16384 --json $OUT/r/var-$c-$rep.json > $OUT/r/var-$c-$rep.txt 2>&1; echo "$c $rep rc $? $(( $(date +%s)-t0 ))s"
  done
done
timeout 120 python3 carry/peer_flex.py --seqlens 8192,16384 --variants dense,document,document_shuffled --json $OUT/r/flex.json > $OUT/r/flex.txt 2>&1; echo "flex rc $? $(( $(date +%s)-t0 ))s"
for f in $OUT/r/var-*.txt; do echo "== $(basename $f)"; grep -v "^#\|^variant" $f | cut -f1,3,4,7; done; cat $OUT/r/flex.txt
cd $OUT && tar czf r.tgz r && rm -rf r
