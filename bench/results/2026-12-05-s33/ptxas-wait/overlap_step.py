# Mimics one consumer step of the overlapped loop: S = Q·Kᵀ (group 1, QS
# steps, m64n64k16, A from registers), O += P·V (group 2, PS steps of
# m64n<PN>k16, A = P from registers), wait 1, softmax on S, wait 0, rescale O,
# P = cvt(softmax) (loop-carried A operand).
import sys
QS, PS, PN = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
mode = sys.argv[4] if len(sys.argv) > 4 else "base"
NS, NO = 32, PN // 2
s = ", ".join(f"%s{i}" for i in range(NS)); o = ", ".join(f"%o{i}" for i in range(NO))
L = [f""".version 8.4
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 desc_b, .param .u32 iters)
.maxntid 128, 1, 1
{{
  .reg .f32 %s<{NS}>, %o<{NO}>, %t<4>, %m;
  .reg .b32 %q<4>, %p<4>;
  .reg .b64 %bd;
  .reg .u64 %po;
  .reg .u32 %n, %i, %tx;
  .reg .pred %pr;
  ld.param.u64 %bd, [desc_b];
  ld.param.u64 %po, [out];
  ld.param.u32 %n, [iters];
  mov.u32 %tx, %tid.x;
  cvt.rn.f32.u32 %t0, %tx;
  cvt.rn.bf16x2.f32 %q0, %t0, %t0;
  mov.b32 %q1, %q0; mov.b32 %q2, %q0; mov.b32 %q3, %q0;
  mov.b32 %p0, %q0; mov.b32 %p1, %q0; mov.b32 %p2, %q0; mov.b32 %p3, %q0;
  mov.f32 %m, 0f00000000;"""]
for i in range(NO):
    L.append(f"  mov.f32 %o{i}, 0f00000000;")
L.append("  mov.u32 %i, 0;\nLOOP:")
L.append("  wgmma.fence.sync.aligned;")
for k in range(QS):
    L.append(f"  wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{{s}}}, {{%q0, %q1, %q2, %q3}}, %bd, {0 if k == 0 else 1}, 1, 1, 1;")
L.append("  wgmma.commit_group.sync.aligned;")
def pv():
    L.append("  wgmma.fence.sync.aligned;")
    for k in range(PS):
        L.append(f"  wgmma.mma_async.sync.aligned.m64n{PN}k16.f32.bf16.bf16 {{{o}}}, {{%p0, %p1, %p2, %p3}}, %bd, 1, 1, 1, 1;")
    L.append("  wgmma.commit_group.sync.aligned;")
if "pvlate" in mode:
    L.append("  wgmma.wait_group.sync.aligned 0;")
    pv()
else:
    pv()
    L.append("  wgmma.wait_group.sync.aligned 1;")
L.append("  max.f32 %t0, %s0, %s1;")
for i in range(2, NS):
    L.append(f"  max.f32 %t0, %t0, %s{i};")
L.append("  shfl.sync.bfly.b32 %t1, %t0, 1, 31, -1;\n  max.f32 %t0, %t0, %t1;\n  shfl.sync.bfly.b32 %t1, %t0, 2, 31, -1;\n  max.f32 %t0, %t0, %t1;")
L.append("  sub.f32 %t2, %m, %t0;\n  ex2.approx.ftz.f32 %t2, %t2;\n  mov.f32 %m, %t0;")
for i in range(NS):
    L.append(f"  sub.f32 %s{i}, %s{i}, %t0;\n  ex2.approx.ftz.f32 %s{i}, %s{i};")
if mode == "cvtbefore":
    for i in range(4):
        L.append(f"  cvt.rn.bf16x2.f32 %p{i}, %s{2*i}, %s{2*i+1};")
if "vote" in mode:
    # a warp-uniform branch on a value the softmax computes last
    L.append("  setp.eq.f32 %pr, %s31, 0f7FC00000;")
    L.append("  vote.sync.any.pred %pr, %pr, -1;")
    L.append("  @%pr bra.uni SKIP;")
    L.append("  add.f32 %m, %m, 0f00000000;")
    L.append("SKIP:")
L.append("  wgmma.wait_group.sync.aligned 0;")
if "norescale" not in mode:
    for i in range(NO):
        L.append(f"  mul.f32 %o{i}, %o{i}, %t2;")
else:
    L.append("  add.f32 %m, %m, %t2;")
if mode != "cvtbefore" and "nocvt" not in mode:
    for i in range(4):
        L.append(f"  cvt.rn.bf16x2.f32 %p{i}, %s{2*i}, %s{2*i+1};")
L.append("  add.u32 %i, %i, 1;\n  setp.lt.u32 %pr, %i, %n;\n  @%pr bra LOOP;")
for i in range(NO):
    L.append(f"  add.f32 %t0, %t0, %o{i};")
L.append("  st.global.f32 [%po], %t0;\n  ret;\n}")
print("\n".join(L))
