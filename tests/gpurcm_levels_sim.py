#!/usr/bin/env python3
# Design check of the cuda level kernels of gpurcm (not run by make check): a sequential transliteration of
# GPURCMLevelsBFSKernel + the host root-finder loop (ties repeated in queue order) and of GPURCMLevelsNumberKernel
# (narrow/wide levels, grid shares, rounds, scans, CAP) compared with SPARSEPACK genrcm on grids, tori, cycles,
# stars, hubs with heavy rows and random graphs, for several -mat_gpurcm_cuda_narrow values and grid sizes.
# It checks the algorithm and index logic only, not the CUDA concurrency. Usage: python3 tests/gpurcm_levels_sim.py
import random, sys
BLOCK=1024; CAP=4096; LIGHT=8
def rowlen(ia,v): return ia[v+1]-ia[v]

# ---------------- SPARSEPACK reference (0-based)
def rootls(root, ia, ja, mask):
    ls=[root]; mask[root]=0; xls=[]; lend=0
    while True:
        lbeg=lend; lend=len(ls); xls.append(lbeg)
        for i in range(lbeg,lend):
            u=ls[i]
            for k in range(ia[u],ia[u+1]):
                v=ja[k]
                if mask[v]: mask[v]=0; ls.append(v)
        if len(ls)<=lend: break
    for v in ls: mask[v]=1
    return len(xls), xls, ls
def fnroot(root, ia, ja, mask):
    nlvl,xls,ls=rootls(root,ia,ja,mask); cc=len(ls)
    if nlvl==1 or nlvl==cc: return root
    while True:
        jstrt=xls[nlvl-1]; mindeg=cc; root=ls[jstrt]
        if jstrt!=cc-1:
            for j in range(jstrt,cc):
                node=ls[j]; nd=sum(1 for k in range(ia[node],ia[node+1]) if mask[ja[k]]>0)
                if nd<mindeg: root=node; mindeg=nd
        nun,xls,ls=rootls(root,ia,ja,mask)
        if nun<=nlvl: return root
        nlvl=nun
        if nlvl>=cc: return root
def rcm(root, ia, ja, mask):
    deg={}
    # degrees in section graph
    perm=[root]; mask[root]=0; i=0
    while i<len(perm):
        node=perm[i]; fnbr=len(perm)
        for k in range(ia[node],ia[node+1]):
            v=ja[k]
            if mask[v]: mask[v]=0; perm.append(v)
        grp=perm[fnbr:]
        grp_sorted=sorted(range(len(grp)), key=lambda a:(rowlen(ia,grp[a]),a))  # stable by degree (row length == masked degree here)
        perm[fnbr:]=[grp[a] for a in grp_sorted]
        i+=1
    return perm[::-1]
def genrcm(n, ia, ja):
    mask=[1]*n; out=[]; roots=[]
    for i in range(n):
        if mask[i]:
            r=fnroot(i,ia,ja,mask); roots.append(r)
            p=rcm(r,ia,ja,mask); out+=p
    return out, roots

# ---------------- simulation of the kernels
class Ctl: pass
def levels_bfs(ia, ja, vis, L, root, stamp, narrow, grid):
    # returns nlvl, lend(cc), nmin, pick, maxwidth
    c=Ctl(); c.lvlcnt=0; c.pending=0; c.mindeg=2**32-1; c.nmin=0; c.pick=root; c.maxwidth=1
    L[0]=root; vis[root]=max(vis[root],stamp)
    def append_next(cntref, out_base, v, sbuf):
        p=cntref[0]; cntref[0]+=1
        L[out_base+p]=v
        if sbuf is not None and p<CAP: sbuf[p]=v
    def round_(cur, i0, i1, cntref, out_base, sbuf):
        # light and heavy both: per node in order of threads
        for t in range(BLOCK):
            i=i0+t
            if i<i1:
                u=cur[i]
                for k in range(ia[u],ia[u+1]):
                    v=ja[k]; old=vis[v]; vis[v]=max(old,stamp)
                    if old<stamp: append_next(cntref,out_base,v,sbuf)
    def narrow_(s, fromL):
        lbeg,lend,nlvl=s['lbeg'],s['lend'],s['nlvl']; done=0; maxw=0; cb=0
        buf=[[None]*CAP,[None]*CAP]
        if lend-lbeg<=narrow:
            if fromL:
                for j in range(lend-lbeg): buf[0][j]=L[lbeg+j]
            else: buf[0][0]=L[0]
            while True:
                size=lend-lbeg; cnt=[0]
                for r0 in range(0,size,BLOCK): round_(buf[cb], r0, size, cnt, lend, buf[1-cb])
                nn=cnt[0]
                if nn==0: done=1; break
                lbeg=lend; lend+=nn; nlvl+=1; cb=1-cb; maxw=max(maxw,nn)
                if nn>narrow: break
        c.plbeg,c.plend,c.pnlvl,c.pdone=lbeg,lend,nlvl,done; c.maxwidth=max(c.maxwidth,maxw); c.pending=1
    def barrier(update):
        if update:
            if c.pending: c.lbeg,c.lend,c.nlvl,c.done=c.plbeg,c.plend,c.pnlvl,c.pdone; c.pending=0
            else:
                cnt=c.lvlcnt
                if not cnt: c.done=1
                else:
                    c.lbeg=c.lend; c.lend+=cnt; c.nlvl+=1; c.maxwidth=max(c.maxwidth,cnt)
                c.lvlcnt=0
    narrow_({'lbeg':0,'lend':1,'nlvl':1}, 0)
    barrier(1)
    while True:
        lbeg,lend=c.lbeg,c.lend
        if c.done: break
        if lend-lbeg<=narrow: narrow_({'lbeg':lbeg,'lend':lend,'nlvl':c.nlvl},1)
        else:
            size=lend-lbeg; per=(size+grid-1)//grid
            cnt=[0]
            for b in range(grid):
                lo=lbeg+b*per; hi=min(lo+per,lend)
                for r0 in range(lo,hi,BLOCK): round_(L, r0, hi, cnt, lend, None)
            c.lvlcnt=cnt[0]
        barrier(1)
    cc=lend
    degs=[min(rowlen(ia,L[j]),cc) for j in range(lbeg,lend)]
    md=min(degs); cnt=sum(1 for d in degs if d==md); pick=[L[j] for j in range(lbeg,lend) if min(rowlen(ia,L[j]),cc)==md][-1]
    return c.nlvl, cc, cnt, pick, c.maxwidth

def nmkey(rank,pos): return ((rank+1)<<32)|pos
def levels_number(ia, ja, key, L, root, narrow, grid):
    c=Ctl(); c.lvlcnt=0; c.pending=0
    L[0]=root; key[root]=0
    def claim_round(cur, i0, i1, rankoff):
        for t in range(BLOCK):
            i=i0+t
            if i<i1:
                u=cur[i]
                for j,k in enumerate(range(ia[u],ia[u+1])):
                    v=ja[k]; key[v]=min(key[v],nmkey(rankoff+i,j))
    def collect(u, rank):
        k0,k1=ia[u],ia[u+1]
        ch=[(rowlen(ia,ja[k]),k-k0,ja[k]) for k in range(k0,k1) if key[ja[k]]==nmkey(rank,k-k0)]
        ch.sort()  # (degree, position): the stable order
        return [x[2] for x in ch]
    def narrow_(s, fromL):
        lbeg,lend,nlvl=s['lbeg'],s['lend'],s['nlvl']; done=0; cb=0
        buf=[[None]*CAP,[None]*CAP]
        if lend-lbeg<=narrow:
            if fromL:
                for j in range(lend-lbeg): buf[0][j]=L[lbeg+j]
            else: buf[0][0]=L[0]
            while True:
                size=lend-lbeg; nn=0
                for r0 in range(0,size,BLOCK): claim_round(buf[cb], r0, size, lbeg)
                for r0 in range(0,size,BLOCK):
                    cnts=[]; lists=[]
                    for t in range(BLOCK):
                        i=r0+t
                        if i<size: l=collect(buf[cb][i], lbeg+i)
                        else: l=[]
                        lists.append(l)
                    off=0
                    for l in lists:
                        for q,v in enumerate(l):
                            p=nn+off+q; L[lend+p]=v
                            if p<CAP: buf[1-cb][p]=v
                        off+=len(l)
                    nn+=off
                if not nn: done=1; break
                lbeg=lend; lend+=nn; nlvl+=1; cb=1-cb
                if nn>narrow: break
        c.plbeg,c.plend,c.pnlvl,c.pdone=lbeg,lend,nlvl,done; c.pending=1
    def barrier(update):
        if update:
            if c.pending: c.lbeg,c.lend,c.nlvl,c.done=c.plbeg,c.plend,c.pnlvl,c.pdone; c.pending=0
            else:
                cnt=c.lvlcnt
                if not cnt: c.done=1
                else: c.lbeg=c.lend; c.lend+=cnt; c.nlvl+=1
                c.lvlcnt=0
    narrow_({'lbeg':0,'lend':1,'nlvl':1},0)
    barrier(1)
    while True:
        lbeg,lend=c.lbeg,c.lend
        if c.done: break
        if lend-lbeg<=narrow: narrow_({'lbeg':lbeg,'lend':lend,'nlvl':c.nlvl},1)
        else:
            size=lend-lbeg; per=(size+grid-1)//grid
            for b in range(grid):
                lo=lbeg+b*per; hi=min(lo+per,lend)
                for r0 in range(lo,hi,BLOCK): claim_round(L,r0,hi,0)
            # barrier
            poff={}; pcnt={}; lists={}; bsum=[0]*grid
            for b in range(grid):
                lo=lbeg+b*per; hi=min(lo+per,lend); carry=0
                for r0 in range(lo,hi,BLOCK):
                    off=0
                    for t in range(BLOCK):
                        i=r0+t
                        cnt=0
                        if i<hi:
                            l=collect(L[i],i); lists[i]=l; cnt=len(l); pcnt[i]=cnt
                            poff[i]=carry+off
                        off+=cnt
                    carry+=off
                bsum[b]=carry
            # barrier
            nnall=sum(bsum)
            for b in range(grid):
                lo=lbeg+b*per; hi=min(lo+per,lend); base=sum(bsum[:b])
                for i in range(lo,hi):
                    for q in range(pcnt[i]): L[lend+base+poff[i]+q]=lists[i][q]
            c.lvlcnt=nnall
        barrier(1)
    return c.nlvl, c.lend

def gpu_order(n, ia, ja, narrow, grid, use_levels_number=True):
    # components by smallest index
    comp=[-1]*n; order=[]
    for i in range(n):
        if comp[i]<0:
            st=[i]; comp[i]=i; mem=[]
            while st:
                u=st.pop(); mem.append(u)
                for k in range(ia[u],ia[u+1]):
                    v=ja[k]
                    if comp[v]<0: comp[v]=i; st.append(v)
            order.append((i,len(mem)))
    vis=[0]*n; L=[None]*n; key=[2**64-1]*n; stamp=0; perm=[]; reps=0
    mask=[1]*n
    for root,cc in order:
        # (small components are handled serially on the GPU; simulate all through the level path here)
        stamp+=1; nlvl,c2,nmin,pick,w=levels_bfs(ia,ja,vis,L,root,stamp,narrow,grid); assert c2==cc
        rootnlvl=nlvl
        if not (nlvl==1 or nlvl==cc):
            while True:
                if nmin==1: root=pick
                else:
                    reps+=1
                    nl2,xls,ls=rootls(root,ia,ja,mask); assert nl2==nlvl
                    jstrt=xls[nl2-1]; mindeg=cc; cand=ls[jstrt]
                    for j in range(jstrt,cc):
                        d=min(rowlen(ia,ls[j]),cc)
                        if d<mindeg: cand=ls[j]; mindeg=d
                    root=cand
                stamp+=1; nun,c2,nmin,pick,w=levels_bfs(ia,ja,vis,L,root,stamp,narrow,grid); assert c2==cc
                rootnlvl=nun
                if nun<=nlvl or nun>=cc: break
                nlvl=nun
        nl,c3=levels_number(ia,ja,key,L,root,narrow,grid); assert c3==cc and nl==rootnlvl,(nl,rootnlvl)
        perm+= [L[k] for k in range(cc)][::-1]
        for k in range(cc): mask[L[k]]=0
    return perm, reps

def csr_from_edges(n, edges, diag):
    rows=[set() for _ in range(n)]
    for a,b in edges: rows[a].add(b); rows[b].add(a)
    for i in diag: rows[i].add(i)
    ia=[0]; ja=[]
    for r in rows: ja+=sorted(r); ia.append(len(ja))
    return ia, ja

def graphs():
    rnd=random.Random(7)
    # grid
    def grid(nx,ny,diag=True,perm=None):
        idx=lambda i,j:(perm[i+nx*j] if perm else i+nx*j)
        e=[]
        for j in range(ny):
            for i in range(nx):
                if i+1<nx: e.append((idx(i,j),idx(i+1,j)))
                if j+1<ny: e.append((idx(i,j),idx(i,j+1)))
        return csr_from_edges(nx*ny,e,range(nx*ny) if diag else [])
    yield "grid 30x20", 600, *grid(30,20)
    yield "grid 150x40 nodiag", 6000, *grid(150,40,False)
    p=list(range(900)); rnd.shuffle(p)
    yield "grid 30x30 permuted", 900, *grid(30,30,True,p)
    def torus(nx,ny):
        e=[]
        for j in range(ny):
            for i in range(nx):
                e.append((i+nx*j,(i+1)%nx+nx*j)); e.append((i+nx*j,i+nx*((j+1)%ny)))
        return csr_from_edges(nx*ny,e,range(nx*ny))
    yield "torus 15x15", 225, *torus(15,15)
    yield "cycle 101", 101, *csr_from_edges(101,[(i,(i+1)%101) for i in range(101)],range(101))
    yield "star 5000", 5001, *csr_from_edges(5001,[(0,i) for i in range(1,5001)],range(5001))
    yield "star hub last", 3001, *csr_from_edges(3001,[(3000,i) for i in range(3000)],range(3001))
    for trial in range(6):
        n=rnd.choice([200,2000,6000]); m=rnd.choice([n//2,n,2*n,4*n])
        e=[(rnd.randrange(n),rnd.randrange(n)) for _ in range(m)]
        yield "random %d/%d"%(n,m), n, *csr_from_edges(n,e,[i for i in range(n) if rnd.random()<0.7])
    # hub with varied degrees (heavy rows > 8, mixed degrees)
    e=[(0,k) for k in range(1,3000)]+[(k,k+1) for k in range(1,2999)]+[(k,(k*7)%2999+1) for k in range(1,2999,5)]
    yield "hub+path+chords", 3000, *csr_from_edges(3000,e,[k for k in range(3000) if k%3])
    # 3D box 27-point small
    nx=ny=nz=9; e=[]
    for k in range(nz):
        for j in range(ny):
            for i in range(nx):
                for dk in (-1,0,1):
                    for dj in (-1,0,1):
                        for di in (-1,0,1):
                            a,b_,c_=i+di,j+dj,k+dk
                            if 0<=a<nx and 0<=b_<ny and 0<=c_<nz: e.append((i+nx*(j+ny*k),a+nx*(b_+ny*c_)))
    yield "3D 27pt 9^3", 729, *csr_from_edges(729,[x for x in e if x[0]!=x[1]],range(729))

sys.setrecursionlimit(10000)
bad=0
for name,n,ia,ja in graphs():
    ref,roots=genrcm(n,ia,ja)
    for narrow,grid in ((4096,3),(37,5),(1,2),(0,4),(0,1),(2,132)):
        got,reps=gpu_order(n,ia,ja,narrow,grid)
        ok= got==ref
        if not ok: bad+=1
        print(name, "narrow",narrow,"grid",grid, "identical" if ok else "DIFFERS", "repeats",reps)
print("bad",bad)
