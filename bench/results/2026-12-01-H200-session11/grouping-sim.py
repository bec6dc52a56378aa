import itertools
def grid2d(N):
    n=N*N; L=[[] for _ in range(n)]
    for y in range(N):
        for x in range(N):
            i=y*N+x
            if y>0: L[i].append(i-N)
            if x>0: L[i].append(i-1)
    return n,L
def grid3d(N):
    n=N**3; L=[[] for _ in range(n)]
    for z in range(N):
        for y in range(N):
            for x in range(N):
                i=(z*N+y)*N+x
                if z>0: L[i].append(i-N*N)
                if y>0: L[i].append(i-N)
                if x>0: L[i].append(i-1)
    return n,L
def groups(n,rows,lower,new,maxchain=32,maxsuper=32):
    # rows: for lower, row i's entries (j<i) sorted; for upper, represent by column entries (k<i) sorted = same as L^T cols
    gptr=[0];sptr=[0];glinked=False
    for i in range(1,n):
        e=rows[i]
        link = len(e)>0 and e[-1]==i-1
        if not new:
            cut = (not link) or i-gptr[-1]>=maxchain
        else:
            k=len(e)-1; other=False
            if k>=0 and e[k]==i-1: k-=1
            if k>=0 and e[k]>=gptr[-1]: other=True
            if (not link) and glinked: other=True
            cut = other or i-gptr[-1]>=maxchain
        if cut:
            glinked=False
            gptr.append(i)
            if (not link) or len(gptr)-1-sptr[-1]>=maxsuper: sptr.append(len(gptr)-1)
        elif link: glinked=True
    gptr.append(n); sptr.append(len(gptr)-1)
    return gptr,sptr
for name,(n,L) in [("2d",grid2d(60)),("3d",grid3d(20))]:
    a=groups(n,L,True,False); b=groups(n,L,True,True)
    print(name, a==b, len(a[0]), len(b[0]), len(a[1]), len(b[1]))
from collections import deque
def adj3d(N):
    n=N**3; A=[[] for _ in range(n)]
    for z in range(N):
        for y in range(N):
            for x in range(N):
                i=(z*N+y)*N+x
                for dx,dy,dz in [(1,0,0),(-1,0,0),(0,1,0),(0,-1,0),(0,0,1),(0,0,-1)]:
                    X,Y,Z=x+dx,y+dy,z+dz
                    if 0<=X<N and 0<=Y<N and 0<=Z<N: A[i].append((Z*N+Y)*N+X)
    return n,A
n,A=adj3d(24)
# CM from node 0 with degree-sorted children, then reverse
order=[];seen=[False]*n;q=deque([0]);seen[0]=True
while q:
    u=q.popleft();order.append(u)
    for v in sorted(A[u],key=lambda v:len(A[v])):
        if not seen[v]: seen[v]=True;q.append(v)
order=order[::-1]; pos=[0]*n
for k,u in enumerate(order): pos[u]=k
L=[sorted(pos[v] for v in A[order[i]] if pos[v]<i) for i in range(n)]
def groups_j9(n,rows,maxchain=32,maxsuper=32):
    gptr=[0];sptr=[0]
    for i in range(1,n):
        e=rows[i]; link=len(e)>0 and e[-1]==i-1
        k=len(e)-1; other=False
        if k>=0 and e[k]==i-1: k-=1
        if k>=0 and e[k]>=gptr[-1]: other=True
        if other or i-gptr[-1]>=maxchain:
            gptr.append(i)
            if (not link) or len(gptr)-1-sptr[-1]>=maxsuper: sptr.append(len(gptr)-1)
    gptr.append(n); sptr.append(len(gptr)-1)
    return gptr,sptr
for nm,(g,s) in [("old",groups(n,L,True,False)),("new",groups(n,L,True,True)),("job9",groups_j9(n,L))]:
    print(nm, "rows",n,"groups",len(g)-1,"tickets",len(s)-1, "avg rows/group %.1f"%(n/(len(g)-1)))
def ilu_levels_pattern(n, A_rows, k):
    # symbolic ILU(k) lower pattern for rows (A_rows[i]: full row pattern, sorted), standard level-of-fill
    import heapq
    Upat=[None]*n; Llist=[None]*n
    for i in range(n):
        lev={j:0 for j in A_rows[i]}
        h=[j for j in lev if j<i]; heapq.heapify(h); done=set()
        while h:
            j=heapq.heappop(h)
            if j in done: continue
            done.add(j)
            for (c,lc) in Upat[j]:
                if c<=j: continue
                nl=lev[j]+lc+1
                if nl<=k and (c not in lev or lev[c]>nl):
                    if c not in lev and c<i: heapq.heappush(h,c)
                    lev[c]=nl
        Upat[i]=[(c,l) for c,l in sorted(lev.items()) if c>=i]
        Llist[i]=sorted(c for c in lev if c<i)
    return Llist
N=14
n,A=adj3d(N)
order=[];seen=[False]*n;q=deque([0]);seen[0]=True
while q:
    u=q.popleft();order.append(u)
    for v in sorted(A[u],key=lambda v:len(A[v])):
        if not seen[v]: seen[v]=True;q.append(v)
order=order[::-1]; pos=[0]*n
for kk,u in enumerate(order): pos[u]=kk
Arows=[sorted([pos[v] for v in A[order[i]]]+[i]) for i in range(n)]
for lvl in (0,1):
    L=ilu_levels_pattern(n,Arows,lvl)
    for nm,(g,s) in [("old",groups(n,L,True,False)),("new",groups(n,L,True,True)),("job9",groups_j9(n,L))]:
        print("rcm ILU(%d)"%lvl, nm, "groups",len(g)-1,"tickets",len(s)-1, "max rows/ticket", max(g[s[t+1]]-g[s[t]] for t in range(len(s)-1)))
