# Prints a SASS file's order of HGMMA, WARPGROUP.DEPBAR, MUFU, barriers and
# mbarrier waits/arrivals, runs of one kind counted (e.g. "12xHGMMA 1xDEPBAR").
import re,sys
lines=[l for l in open(sys.argv[1]) if re.search(r'/\*[0-9a-f]{4}\*/',l)]
ops=[]
for l in lines:
    k=None
    for key in ['HGMMA','DEPBAR','MUFU','BAR.SYNC','BAR.ARV','SYNCS.ARRIVE','TRYWAIT']:
        if key in l: k=key; break
    if k: ops.append(k)
out=[];prev=None;c=0
for o in ops:
    if o==prev: c+=1
    else:
        if prev: out.append(f"{c}x{prev}")
        prev=o;c=1
out.append(f"{c}x{prev}")
print(" ".join(out))
