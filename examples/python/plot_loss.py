"""Plots the loss curves that train_tiny_transformer.py logged.

    python3 examples/python/plot_loss.py loss.json loss.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(log_path, png_path):
    with open(log_path) as f:
        log = json.load(f)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    styles = {"tilec": ("tilec attention (fwd + bwd kernels)", "-", 2.0),
              "sdpa": ("torch SDPA, same seed", "--", 1.5),
              "sdpa_other_seed": ("torch SDPA, other seed (noise)", ":", 1.2)}
    for name, run in log["runs"].items():
        label, style, width = styles.get(name, (name, "-", 1.0))
        ax.plot(run["loss"], style, linewidth=width, label=label)
    ax.axhline(log["chance"], color="gray", linewidth=0.8)
    ax.text(0, log["chance"], " chance (ln vocab)", va="bottom", color="gray", fontsize=8)
    c = log["config"]
    ax.set_title(f"tiny causal transformer, copy task: {c['layers']} layers, width {c['width']}, "
                 f"{c['heads']} heads (d = {c['width'] // c['heads']}), length {2 * c['half']}, "
                 f"batch {c['batch']}\n{log['device']}, torch {log['torch']}", fontsize=9)
    ax.set_xlabel("step")
    ax.set_ylabel("cross-entropy on the copied half")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)


if __name__ == "__main__":
    main(*sys.argv[1:3])
