"""tilec from Python: load the PTX + metadata that `tilec --emit=ptx` writes and
launch it through the CUDA driver (tilec.driver, tilec.metadata), and
FlashAttention forward + backward as a torch autograd function
(tilec.attention; needs torch)."""
