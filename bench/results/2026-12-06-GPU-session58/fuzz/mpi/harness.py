import subprocess, sys, time, os, re
start=int(sys.argv[1]); end=int(sys.argv[2]); tlimit=float(sys.argv[3]) if len(sys.argv)>3 else 1e9
extra=sys.argv[4:] 
os.makedirs('logs',exist_ok=True)
t0=time.time(); tot_cases=0; tot_mis=0; runs=0; bad=[]
summ=open(f'logs/summary_{start}_{end}.txt','a')
for seed in range(start,end):
    if time.time()-t0>tlimit: break
    cmd=['timeout','-s','KILL','60','mpiexec','-n','2','--oversubscribe','--allow-run-as-root','./fz_run','-dll_append','/tmp/fuzz_mpi/libpetscsparsegpu.so','-seed',str(seed),'-npc',str(3+seed%4),'-sections','15']+extra
    p=subprocess.run(cmd,capture_output=True,text=True)
    out=p.stdout+p.stderr; runs+=1
    m=re.search(r'DONE seed \d+ cases (\d+) mismatches (\d+)',out)
    status='ok'
    if p.returncode==137 or p.returncode==124: status='HANG/TIMEOUT'
    elif p.returncode!=0 or not m: status=f'CRASH rc={p.returncode}'
    elif int(m.group(2))>0: status='MISMATCH'
    if m: tot_cases+=int(m.group(1)); tot_mis+=int(m.group(2))
    cl=open(f'logs/cases_{start}_{end}.txt','a'); cl.write(''.join(l+'\n' for l in out.split('\n') if l.startswith('CASE') or l.startswith('seed '))); cl.close()
    if status!='ok' or 'NOTE' in out:
        open(f'logs/seed{seed}.log','w').write(' '.join(cmd)+'\n'+out)
    summ.write(f'{seed} {status} cases={m.group(1) if m else "?"} mis={m.group(2) if m else "?"}\n'); summ.flush()
    if status!='ok': bad.append((seed,status))
print('runs',runs,'cases',tot_cases,'mismatches',tot_mis,'bad',bad[:50], 'time',time.time()-t0)
