#!/usr/bin/env bash
# SASS of a kernel on this machine (no GPU needed): compiles PTX (or takes a
# cubin) with ptxas and disassembles it with cuobjdump, then summarizes each
# loop that issues wgmma (HGMMA): its instructions, HGMMAs and R2URs (moves
# of a vector register into a uniform one, e.g. a wgmma descriptor ptxas
# could not keep uniform). The CUDA toolkit here has ptxas but no
# cuobjdump/nvdisasm: they come from NVIDIA's PyPI wheels
# (nvidia-cuda-cuobjdump, nvidia-cuda-nvdisasm), fetched once into
# ${TILEC_SASS_TOOLS:-~/.cache/tilec/sass-tools}.
#
#   bash scripts/sass.sh k.ptx [more.ptx|.cubin ...]     # loop summary per file
#   SASS_OUT=dir bash scripts/sass.sh k.ptx               # also keeps dir/k.sass
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=${TILEC_SASS_TOOLS:-$HOME/.cache/tilec/sass-tools}
if [ ! -x "$tools/cuobjdump" ] || [ ! -x "$tools/nvdisasm" ]; then
  mkdir -p "$tools/wheels"
  python3 -m pip download --quiet --no-deps -d "$tools/wheels" nvidia-cuda-cuobjdump \
    nvidia-cuda-nvdisasm >&2
  python3 - "$tools" <<'EOF'
import glob, os, sys, zipfile
tools = sys.argv[1]
for wheel in glob.glob(os.path.join(tools, "wheels", "*.whl")):
    with zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            tool = os.path.basename(name)
            if name.endswith("/bin/" + tool) and tool in ("cuobjdump", "nvdisasm"):
                with open(os.path.join(tools, tool), "wb") as out:
                    out.write(z.read(name))
                os.chmod(os.path.join(tools, tool), 0o755)
EOF
fi
[ $# -ge 1 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for input in "$@"; do
  name=$(basename "${input%.*}")
  cubin=$input
  if [ "${input##*.}" = ptx ]; then
    arch=$(sed -n 's/^\.target \(sm_[0-9a-z]*\).*/\1/p' "$input" | head -1)
    cubin=$work/$name.cubin
    ptxas -arch="${arch:-sm_90a}" "$input" -o "$cubin"
  fi
  PATH="$tools:$PATH" "$tools/cuobjdump" -sass "$cubin" >"$work/$name.sass"
  [ -z "${SASS_OUT:-}" ] || { mkdir -p "$SASS_OUT" && cp "$work/$name.sass" "$SASS_OUT/"; }
  python3 "$root/scripts/sass_loops.py" "$work/$name.sass" --name "$input"
done
