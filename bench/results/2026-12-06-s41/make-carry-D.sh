#!/usr/bin/env bash
# Makes carry-D/ for runD.sh: call C again with the last program converting
# 64 KiB of dq_acc a step (b-lp2; call C converted one 128-row block a step):
# its GPU cases, and the backward sets at d = 64 and 128 beside the landed
# defaults (b-base).
CALL=D LP=lp2 exec bash bench/results/2026-12-06-s41/make-carry-C.sh
