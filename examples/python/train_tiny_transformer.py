"""Trains a tiny causal transformer twice on a synthetic task, once with
tilec's attention (forward + backward kernels, through tilec.attention) and
once with torch's scaled_dot_product_attention, from the same initial
weights and the same batches, and writes both loss curves.

The task needs attention: each sequence is 128 random tokens followed by the
same 128 tokens again; the loss is taken on the copy, which a model can only
predict by attending back (an induction head). Chance is ln(vocab).

    python3 examples/python/train_tiny_transformer.py --ptx-dir torch-ptx \
        --steps 600 --log loss.json

The attention runs in bf16 for both (the rest of the model in f32).
--backward fused trains through tilec's fused backward instead.
Plot with examples/python/plot_loss.py.
"""

import argparse
import json
import math
import os
import sys
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))
import tilec.attention as ta  # noqa: E402


class Block(nn.Module):
    def __init__(self, width, heads, attend):
        super().__init__()
        self.heads, self.attend = heads, attend
        self.norm1, self.norm2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x):
        b, n, w = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, n, 3, self.heads, w // self.heads) \
            .permute(2, 0, 3, 1, 4)
        o = self.attend(q.bfloat16(), k.bfloat16(), v.bfloat16()).float()
        x = x + self.proj(o.transpose(1, 2).reshape(b, n, w))
        return x + self.mlp(self.norm2(x))


class TinyTransformer(nn.Module):
    def __init__(self, vocab, width, heads, layers, length, attend):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.position = nn.Parameter(torch.randn(length, width) * 0.02)
        self.blocks = nn.ModuleList(Block(width, heads, attend) for _ in range(layers))
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab)

    def forward(self, tokens):
        x = self.embed(tokens) + self.position[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x))


def batches(steps, batch, half, vocab, seed):
    gen = torch.Generator(device="cuda").manual_seed(seed)
    for _ in range(steps):
        first = torch.randint(0, vocab, (batch, half), device="cuda", generator=gen)
        yield torch.cat([first, first], dim=1)


def train(attend, args, seed):
    torch.manual_seed(seed)  # the same initial weights for runs of one seed
    model = TinyTransformer(args.vocab, args.width, args.heads, args.layers, 2 * args.half,
                            attend).cuda()
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    losses = []
    start = time.time()
    for step, seq in enumerate(batches(args.steps, args.batch, args.half, args.vocab, seed)):
        logits = model(seq[:, :-1])
        # The loss on the copy: predicting tokens half+1 .. 2*half-1 from what precedes them.
        target = seq[:, args.half + 1:]
        loss = F.cross_entropy(logits[:, args.half:].reshape(-1, args.vocab), target.reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        losses.append(loss.item())
        if step % 25 == 0 or step == args.steps - 1:
            print(f"  step {step:4d}  loss {losses[-1]:.4f}", flush=True)
    torch.cuda.synchronize()
    return losses, time.time() - start


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--ptx-dir", default="torch-ptx", help="scripts/compile-torch-kernels.sh's output")
    p.add_argument("--steps", type=int, default=600)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--half", type=int, default=128, help="tokens before the copy (length 2*half)")
    p.add_argument("--vocab", type=int, default=64)
    p.add_argument("--width", type=int, default=256)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--backward", default="separate", choices=["separate", "fused", "auto"],
                   help="tilec's backward: the dK/dV and dQ kernels (bitwise repeatable) or the "
                        "fused one (dQ added atomically; tilec.attention.AttentionKernels)")
    p.add_argument("--log", default="loss.json")
    args = p.parse_args()

    head_dim = args.width // args.heads
    kernels = ta.AttentionKernels(args.ptx_dir, variant="causal", dtype="bf16", head_dim=head_dim,
                                  backward=args.backward)
    tilec = lambda q, k, v: ta.attention(q, k, v, kernels)  # noqa: E731
    sdpa = lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True)  # noqa: E731
    # The third run is the noise: SDPA again from other weights and batches.
    runs = {"tilec": (tilec, args.seed), "sdpa": (sdpa, args.seed),
            "sdpa_other_seed": (sdpa, args.seed + 1)}
    log = {"config": vars(args), "device": torch.cuda.get_device_name(), "torch": torch.__version__,
           "chance": math.log(args.vocab), "runs": {}}
    for name, (attend, seed) in runs.items():
        print(f"{name} (seed {seed}):", flush=True)
        losses, seconds = train(attend, args, seed)
        log["runs"][name] = {"loss": losses, "seconds": seconds}
    loss = {name: run["loss"] for name, run in log["runs"].items()}
    window = 20
    tail = lambda xs: sum(xs[-window:]) / window  # noqa: E731
    mean_gap = lambda a, b: sum(abs(x - y) for x, y in zip(a, b)) / len(a)  # noqa: E731
    log["summary"] = {
        **{f"final_loss_{name} (mean of last {window})": tail(xs) for name, xs in loss.items()},
        "mean_abs_step_difference tilec vs sdpa (same seed)": mean_gap(loss["tilec"], loss["sdpa"]),
        "max_abs_step_difference tilec vs sdpa (same seed)":
            max(abs(x - y) for x, y in zip(loss["tilec"], loss["sdpa"])),
        "mean_abs_step_difference sdpa vs sdpa (other seed): the noise":
            mean_gap(loss["sdpa_other_seed"], loss["sdpa"]),
        "seconds": {name: run["seconds"] for name, run in log["runs"].items()},
    }
    print(json.dumps(log["summary"], indent=2))
    with open(args.log, "w") as f:
        json.dump(log, f)


if __name__ == "__main__":
    main()
