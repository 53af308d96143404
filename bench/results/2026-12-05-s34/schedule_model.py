#!/usr/bin/env python3
"""Session 34: how evenly tile-persistent-grid's static order spreads the
causal forward's tiles over the programs (P = 132, one an SM), against a
dynamic order (each tile to the program that is free first). A tile of
query block q (longest first: index 0 has Q key blocks) costs its key
blocks plus c (its prologue and epilogue, in key blocks). Balance = mean
program load / largest. Mirrors lib/Transforms/PersistentGrid.cpp's
longestFirstProgram (sections of heads, snake rounds). Prints the grid
of variants.py's shapes (B = 16384 / N, H = 16, d = 128)."""
def order(total, P, Q, inner, rps):
    # returns list of (t -> (qidx, head)) for the snake-with-sections static schedule
    def snake(i, count):
        rnd = i // P; rs = rnd * P; lane = i - rs; re = rs + P
        return re - 1 - lane if (rnd & 1) and re <= count else i
    if rps == 0:
        return lambda t: (snake(t, total) // inner, snake(t, total) % inner)
    heads_for_rounds = (P * rps + Q - 1) // Q
    width = min(inner, max(1, heads_for_rounds))
    st = width * Q
    def f(t):
        s = t // st; first = s * width; sw = min(width, inner - first)
        w = snake(t - s * st, sw * Q)
        return w // sw, first + w % sw
    return f
def sim(N, heads, P=132, blk=128, c=1.3, rps=2, dynamic=False):
    Q = N // blk; total = Q * heads
    f = order(total, P, Q, heads, rps)
    cost = lambda t: (Q - f(t)[0]) + c   # longest first: index 0 = Q blocks
    if not dynamic:
        load = [sum(cost(t) for t in range(p, total, P)) for p in range(P)]
    else:
        import heapq
        h = [(0.0, p) for p in range(P)]; heapq.heapify(h)
        for t in range(total):
            l, p = heapq.heappop(h); heapq.heappush(h, (l + cost(t), p))
        load = [l for l, p in h]
    m = max(load); avg = sum(load) / P
    return avg / m
for N, H in [(1024, 256), (2048, 128), (4096, 64), (8192, 32), (16384, 16)]:
    print(N, " ".join(f"rps{r}:{sim(N,H,rps=r):.3f}" for r in (0, 1, 2, 4)), f"dyn:{sim(N,H,dynamic=True):.3f}", f"dyn-nosec:{sim(N,H,rps=0,dynamic=True):.3f}")

def pairs_order(Q, heads, P):
    # tiles as (qcost) sequence: chunks of P pairs, longs then shorts reversed
    assert Q % 2 == 0
    pairs = [(h, j) for h in range(heads) for j in range(Q // 2)]
    seq = []
    for c in range(0, len(pairs), P):
        chunk = pairs[c:c + P]
        seq += [Q - j for h, j in chunk]          # long: cost Q - j
        seq += [j + 1 for h, j in reversed(chunk)]  # short: cost j + 1
    total = len(seq)
    def snake(i):
        rnd = i // P; rs = rnd * P; lane = i - rs; re = rs + P
        return re - 1 - lane if (rnd & 1) and re <= total else i
    return [seq[snake(t)] for t in range(total)]
def sim_pairs(N, heads, P=132, blk=128, c=1.3):
    Q = N // blk
    costs = pairs_order(Q, heads, P)
    load = [sum(costs[t] + c for t in range(p, len(costs), P)) for p in range(P)]
    return sum(load) / P / max(load)
print("pairs:")
for N, H in [(1024, 256), (2048, 128), (4096, 64), (8192, 32), (16384, 16)]:
    print(N, f"{sim_pairs(N, H):.3f}", f"B=1 H=16: {sim_pairs(N, 16):.3f}" )
print("rps sweep (c=1.3 and c=0.5):")
for N, H in [(1024, 256), (2048, 128), (4096, 64), (8192, 32), (16384, 16)]:
    print(N, " ".join(f"{r}:{sim(N,H,rps=r):.3f}/{sim(N,H,rps=r,c=0.5):.3f}" for r in (2, 3, 4, 5, 6, 8)))
