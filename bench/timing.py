"""The benchmark convention every bench script here times with (BENCHMARKS.md):
CUDA events, the median over `repeats` of the mean of `iters` back-to-back
calls, after `warmup` calls."""
import torch


def bench_ms(fn, warmup=5, iters=20, repeats=7):
    for _ in range(warmup):
        fn()
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
