#!/usr/bin/env bash
# Session 41's call D (make-carry-D.sh): call C again, the last program now
# converting 64 KiB of dq_acc a step.
# On the device: rm -rf carry && mv carry-D carry first.
LP=lp2 exec bash bench/results/2026-12-06-s41/runC.sh
