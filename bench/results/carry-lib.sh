# shellcheck shell=bash
# Functions the carry makers (bench/results/*/make-carry-*.sh, from session
# 47 on) share: source it from the repository root after setting $carry (the
# ignored folder a device call carries) and $cases (where GPU cases are
# exported). Earlier makers repeat these lines themselves.

# comp DIR DIMS SETS: bench/compile-variants.sh's forwards ($VARIANTS,
# default dense and causal) at head dims DIMS with SETS (driver flags) into
# $carry/DIR, for bench/compare.py.
comp() {
  DIMS="$2" VARIANTS="${VARIANTS:-dense causal}" SETS="$3" bash bench/compile-variants.sh \
    "$carry/$1" > /dev/null
}

# exp NAME KERNEL ARGS...: KERNEL's GPU case (inputs and the reference's
# outputs) for ${ARCH:-sm_90a} with $CASE_FLAGS and ARGS into $cases/NAME.
exp() {
  local name=$1 kernel=$2
  shift 2
  # shellcheck disable=SC2086 # CASE_FLAGS is a list of flags
  build/bin/tilec --kernel="$kernel" --arch="${ARCH:-sm_90a}" ${CASE_FLAGS:-} "$@" \
    --export-case="$cases/$name" > /dev/null
}
