# Session 37: the Python launch path's host cost on the CPU machine with a stand-in
# libcuda (python/tests FakeCuda): a launch prepared once against one prepared
# on every call. Needs carry-C/head (make it with
# DIMS=128 VARIANTS=causal bash bench/compile-variants.sh carry-C/head). Run from python/.
import sys, time, os, json, tempfile, ctypes, shutil
sys.path.insert(0,'.'); sys.path.insert(0,'tests')
from test_metadata import FakeCuda
from tilec import driver
from tilec.metadata import TensorArg, load_metadata
d=tempfile.mkdtemp()
for ext in ('json','ptx'): shutil.copy(f'/work/main/carry-C/head/flash_attention_fwd_causal-d128.{ext}', f'{d}/k.{ext}')
meta=load_metadata(f'{d}/k.json')
b,h,n,dd=16,16,1024,128
base=0x7f0000000000
cuda=FakeCuda({base: 1<<40})
fake=driver.Driver.__new__(driver.Driver); fake.lib=cuda; fake.context=None; fake.device=0
fake._encode=lambda *a: 0
cuda.cuOccupancyMaxActiveBlocksPerMultiprocessor=lambda r,*a: (setattr(r._obj,'value',1) or 0)
cuda.cuDeviceGetAttribute=lambda r,*a: (setattr(r._obj,'value',132) or 0)
cuda.cuFuncSetAttribute=lambda *a: 0
driver.Driver._instance=fake
k=driver.Kernel(f'{d}/k.ptx')
def t(shape,off,dt='bf16'):
    st=[1]*len(shape)
    for i in range(len(shape)-2,-1,-1): st[i]=st[i+1]*shape[i+1]
    return TensorArg(base+off,tuple(shape),tuple(st),dt)
S=b*h*n*dd*2
args=[t((b*h,n,dd),0),t((b*h,n,dd),S),t((b*h,n,dd),2*S),t((b*h,n,dd),3*S),t((b*h,n),4*S,'f32')]
k(*args)
N=3000; t0=time.perf_counter()
for _ in range(N): k(*args)
print(f"prepared (hit): {(time.perf_counter()-t0)/N*1e6:.1f} us/call (fake driver calls included)")
t0=time.perf_counter()
for _ in range(300): fake.launch(k._loaded[0][1], meta, (8,256,1), args, 0, 132)
print(f"unprepared: {(time.perf_counter()-t0)/300*1e6:.1f} us/call")
