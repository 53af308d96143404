"""The benchmark convention every bench script here times with (BENCHMARKS.md):
CUDA events, the median over `repeats` of the mean of `iters` back-to-back
calls, after warm-up: at least `warmup` calls and `warmup_ms` of them (as
Triton's do_bench), the first timing of a process at least `first_warmup_ms`
(the GPU may have idled while Python started; two runs of the same kernel
in one call came out up to 25 % apart at N = 1k: bench/RESULTS.md,
session 31)."""
import time

import torch

_warmed = False


def bench_ms(fn, warmup=5, iters=20, repeats=7, warmup_ms=25.0, first_warmup_ms=300.0):
    global _warmed
    least_ms = warmup_ms if _warmed else first_warmup_ms
    _warmed = True
    start_wall, calls = time.perf_counter(), 0
    while calls < warmup or (time.perf_counter() - start_wall) * 1e3 < least_ms:
        fn()
        calls += 1
        if calls % max(warmup, 1) == 0:
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    samples = []
    for _ in range(repeats):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(iters):
            fn()
        end.record()
        torch.cuda.synchronize()
        samples.append(start.elapsed_time(end) / iters)
    return sorted(samples)[len(samples) // 2]
