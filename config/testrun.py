#!/usr/bin/env python3
"""Test runner of PETSc SparseGPU (called by `make check`).

Finds the PETSc-style /*TEST ... TEST*/ blocks at the end of tests/*.c, tutorials/*.c and
tests/petsc_examples/*.test, builds each program through the makefile, runs every test (under
`mpiexec -n nsize` when nsize > 1), and compares the output with the reference in output/.

Supported keys (PETSc's meanings): build:/test:/testset: blocks, suffix, nsize, args (with
{{a b c}separate output} and {{a b c}shared output} loops; {{...}} alone means shared), requires
(cuda, !cuda, gpu: the test runs only where PETSc has CUDA and a GPU is visible), output_file, filter
(a shell pipeline applied to the output), filter_output (applied to the reference), env (VAR=value
pairs), and petsc_example (path of an unmodified PETSc example below share/petsc/examples).

In args and env, ${SPARSEGPU_LIB} is the library and ${SPARSEGPU_MATRICES} the directory of the shared
matrices ($SPARSEGPU_MATRICES, else ../shared/matrices, else .gpu/matrices); both are also in the environment.

Output comparison: tokens are compared one by one; numbers within a relative tolerance (1e-6 by
default, `tolerance:` per test) and an absolute floor of 1e-12, everything else exactly (whitespace
runs are equal). Unlike petscdiff, which masks every floating-point number, a wrong number fails.

Ends with the line 'N passed, N failed, N skipped'; exit status 1 on any failure.
Options: --pattern REGEX (select tests by name), --list, --update (write references: review them!), --update-missing (only absent ones),
--keep-going is the default; --timeout S is a hang guard only (default 1800 s), never a performance limit; --jobs N runs
N tests at a time (default 1; the programs are built first, one after the other; results are printed in test order).
"""
import argparse
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("SPARSEGPU_BUILD", os.path.join(ROOT, "build"))
LIB = os.environ.get("SPARSEGPU_LIB", os.path.join(BUILD, "lib", "libpetscsparsegpu.so"))
MAKE = os.environ.get("MAKE", "make")


def matrices_dir():
    """The shared SuiteSparse matrices: $SPARSEGPU_MATRICES, ../shared/matrices (CI, here) or .gpu/matrices (GPU machine)."""
    for d in (os.environ.get("SPARSEGPU_MATRICES"), os.path.join(ROOT, "..", "shared", "matrices"), os.path.join(ROOT, ".gpu", "matrices")):
        if d and os.path.isfile(os.path.join(d, "MANIFEST.tsv")):
            return os.path.abspath(d)
    return os.path.abspath(os.path.join(ROOT, "..", "shared", "matrices"))


MATRICES = matrices_dir()


# ---------------------------------------------------------------- parsing of /*TEST blocks
def parse_block(text):
    """Parse PETSc's indentation-based TEST YAML subset into nested dicts/lists."""
    lines = []
    for raw in text.splitlines():
        if not raw.strip() or raw.strip().startswith("#"):
            continue
        indent = len(raw) - len(raw.lstrip(" "))
        lines.append((indent, raw.strip()))

    def parse(i, base):
        node = {"_children": []}
        while i < len(lines):
            indent, line = lines[i]
            if indent < base:
                break
            key, _, value = line.partition(":")
            key, value = key.strip(), value.strip()
            if key in ("test", "testset", "build") and value == "":
                child_indent = lines[i + 1][0] if i + 1 < len(lines) and lines[i + 1][0] > indent else indent + 1
                child, i = parse(i + 1, child_indent)
                child["_kind"] = key
                node["_children"].append(child)
                continue
            if value.startswith(("'", '"')) and value.endswith(value[0]) and len(value) > 1:
                value = value[1:-1]
            node[key] = value
            i += 1
        return node, i

    node, _ = parse(0, lines[0][0] if lines else 0)
    return node


def find_tests(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"/\*TEST(.*?)TEST\*/", text, re.S)
    if not m:
        return None, []
    root = parse_block(m.group(1))
    build = {}
    tests = []

    def walk(node, inherited):
        for child in node["_children"]:
            if child["_kind"] == "build":
                build.update({k: v for k, v in child.items() if not k.startswith("_")})
                continue
            merged = dict(inherited)
            for k, v in child.items():
                if k.startswith("_"):
                    continue
                if k in ("args", "requires", "env") and k in merged:
                    merged[k] = merged[k] + " " + v
                elif k == "suffix" and "suffix" in merged:
                    merged[k] = merged[k] + "_" + v
                else:
                    merged[k] = v
            if child["_kind"] == "test":
                tests.append(merged)
            walk(child, merged if child["_kind"] in ("testset", "test") else inherited)

    walk(root, {})
    return build, tests


LOOP = re.compile(r"\{\{(.*?)\}(separate output|shared output)?\}")


def expand_loops(args):
    """Yield (args, variant-label or None if shared) for every combination of {{...}} loops."""
    m = LOOP.search(args)
    if not m:
        yield args, ""
        return
    values = m.group(1).split()
    separate = m.group(2) == "separate output"
    for v in values:
        for rest, label in expand_loops(args[: m.start()] + v + args[m.end():]):
            tag = re.sub(r"[^A-Za-z0-9.+-]", "-", v) if separate else ""
            yield rest, "_".join(t for t in (tag, label) if t)


# ---------------------------------------------------------------- environment
def have_gpu():
    if os.environ.get("HAVE_CUDA") != "1":
        return False
    try:
        return subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=60).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def mpiexec_cmd(n):
    mpiexec = shlex.split(os.environ.get("MPIEXEC") or "mpiexec")
    try:
        version = subprocess.run(mpiexec + ["--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.TimeoutExpired):
        version = ""
    extra = []
    if "Open MPI" in version or "OpenRTE" in version:
        extra = [a for a in ("--oversubscribe", "--bind-to", "none") if a not in mpiexec]
    return mpiexec + extra + ["-n", str(n)]


def requirements_met(requires, gpu):
    """Return None if met, else the reason for skipping."""
    for tok in requires.split():
        neg = tok.startswith("!")
        name = tok.lstrip("!")
        if name in ("cuda", "gpu"):
            have = gpu
        elif name == "double":
            have = True
        elif name == "mpi":
            have = True
        else:
            raise ValueError("unknown requirement '%s'" % tok)
        if have == neg:
            return "requires %s" % tok
    return None


# ---------------------------------------------------------------- comparison
NUM = re.compile(r"^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def tokens(text):
    return [t for line in text.splitlines() for t in (line.split() or [""]) if t != ""]


def numbers_equal(a, b, rtol):
    x, y = float(a), float(b)
    if x == y:
        return True
    return abs(x - y) <= max(1e-12, rtol * max(abs(x), abs(y)))


def compare(expected, actual, rtol):
    ta, tb = tokens(expected), tokens(actual)
    if len(ta) == len(tb):
        for a, b in zip(ta, tb):
            if a == b:
                continue
            # split punctuation such as "1.0e-3," or "(2)"
            pa, pb = re.split(r"([,;:()\[\]=])", a), re.split(r"([,;:()\[\]=])", b)
            if len(pa) != len(pb):
                return False
            for u, v in zip(pa, pb):
                if u == v:
                    continue
                if NUM.match(u) and NUM.match(v) and numbers_equal(u, v, rtol):
                    continue
                return False
        return True
    return False


def unified_diff(expected, actual, exp_name):
    import difflib
    return "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True), exp_name, "output", n=2))


def expand_vars(text):
    """${SPARSEGPU_LIB} (the library) and ${SPARSEGPU_MATRICES} (the shared matrices) in args and env."""
    return text.replace("${SPARSEGPU_LIB}", LIB).replace("${SPARSEGPU_MATRICES}", MATRICES)


# ---------------------------------------------------------------- building
def build_target(target):
    r = subprocess.run([MAKE, "--no-print-directory", "-s", "-C", ROOT, target], capture_output=True, text=True)
    return r.returncode == 0, r.stdout + r.stderr


def done(result):
    """A result known at once (skipped, or its program failed to build), queued with the tests that run."""
    f = Future()
    f.set_result(result)
    return f


def run_test(opts, env_base, exe, srcdir, base, name, t, args, label):
    """Run one test and compare it with its reference: ("ok" | "fail", name, seconds, command, detail)."""
    nsize = int(t.get("nsize", "1"))
    cmd = (mpiexec_cmd(nsize) if nsize > 1 else []) + shlex.split(opts.wrap) + [exe] + shlex.split(expand_vars(args))
    env = dict(env_base)
    for kv in shlex.split(t.get("env", "")):
        k, _, v = kv.partition("=")
        env[k] = expand_vars(v)
    outname = t.get("output_file") or ("output/%s%s%s.out" % (base, "_" + t["suffix"] if t.get("suffix") else "", "_" + label if label else ""))
    ref = os.path.join(srcdir, outname)
    t0 = time.time()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=srcdir, timeout=opts.timeout)
        out, rc = r.stdout + r.stderr, r.returncode
    except subprocess.TimeoutExpired as e:
        out, rc = (e.stdout or b"").decode(errors="replace") + "\n[hung: killed by the runner's hang guard]\n", -9
    dt = time.time() - t0
    if t.get("filter"):
        out = subprocess.run(t["filter"], shell=True, input=out, capture_output=True, text=True, env=env, cwd=srcdir).stdout  # env: LC_ALL=C for sort
    if opts.update or (opts.update_missing and not os.path.exists(ref)):
        os.makedirs(os.path.dirname(ref), exist_ok=True)
        open(ref, "w").write(out)
    expected = open(ref).read() if os.path.exists(ref) else None
    if expected is not None and t.get("filter_output"):
        expected = subprocess.run(t["filter_output"], shell=True, input=expected, capture_output=True, text=True, env=env, cwd=srcdir).stdout
    rtol = float(t.get("tolerance", "1e-6"))
    if rc != 0 and not t.get("expect_error"):
        return "fail", name, dt, cmd, "exit status %d\n%s" % (rc, out[-4000:])
    if expected is None:
        return "fail", name, dt, cmd, "missing reference %s" % os.path.relpath(ref, ROOT)
    if not compare(expected, out, rtol):
        return "fail", name, dt, cmd, unified_diff(expected, out, os.path.relpath(ref, ROOT))
    return "ok", name, dt, cmd, ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pattern", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--update-missing", action="store_true", help="write only the references that do not exist yet")
    ap.add_argument("--timeout", type=float, default=1800.0)
    ap.add_argument("--jobs", type=int, default=1, help="tests run at a time (references are written one at a time)")
    ap.add_argument("--wrap", default="", help="a command put before every test program (after mpiexec), e.g. "
                    "'valgrind -q --log-file=/tmp/vg/%%p.log': a checker whose reports go to files, not to the output compared")
    ap.add_argument("-v", "--verbose", action="store_true")
    opts = ap.parse_args()
    if opts.jobs < 1:
        ap.error("--jobs must be at least 1")
    if opts.update or opts.update_missing:
        opts.jobs = 1  # tests sharing an output_file must not write it at once

    gpu = have_gpu()
    sources = sorted(glob.glob(os.path.join(ROOT, "tests", "*.c")) + glob.glob(os.path.join(ROOT, "tutorials", "*.c"))
                     + glob.glob(os.path.join(ROOT, "tests", "petsc_examples", "*.test")))
    pattern = re.compile(opts.pattern) if opts.pattern else None
    passed = failed = skipped = 0
    failures = []
    env_base = dict(os.environ)
    env_base.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env_base.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    env_base.setdefault("OMPI_MCA_rmaps_base_oversubscribe", "1")
    env_base["SPARSEGPU_LIB"] = LIB
    env_base["SPARSEGPU_MATRICES"] = MATRICES
    env_base["LC_ALL"] = "C"  # sort orders and number formats independent of the machine
    print("# PETSc SparseGPU tests: PETSC_DIR=%s, CUDA=%s, GPU present=%s" % (os.environ.get("PETSC_DIR"), os.environ.get("HAVE_CUDA") == "1", gpu))
    sys.stdout.flush()

    pool = ThreadPoolExecutor(max_workers=opts.jobs)
    results = []
    for src in sources:
        build, tests = find_tests(src)
        if not tests:
            continue
        rel = os.path.relpath(src, ROOT)
        base = os.path.splitext(os.path.basename(src))[0]
        srcdir = os.path.dirname(src)
        selected = []
        for t in tests:
            for args, label in expand_loops(t.get("args", "")):
                name = rel.rsplit(".", 1)[0].replace("/", "-") + ("_" + t["suffix"] if t.get("suffix") else "") + ("_" + label if label else "")
                if pattern and not pattern.search(name):
                    continue
                selected.append((name, t, args, label))
        if not selected:
            continue
        if opts.list:
            for name, *_ in selected:
                print(name)
            continue
        build_skip = requirements_met(build.get("requires", ""), gpu)
        if build_skip:
            results.extend(done(("skip", name, build_skip)) for name, *_ in selected)
            continue
        example = build.get("petsc_example")
        if example:
            exe = os.path.join(BUILD, "petsc-examples", example.replace("/", "+").rsplit(".", 1)[0])
        else:
            exe = os.path.join(BUILD, os.path.relpath(srcdir, ROOT), base)
        ok, log = build_target(exe)
        if not ok:
            results.extend(done(("build failed", name, log if k == len(selected) - 1 else "")) for k, (name, *_) in enumerate(selected))
            continue
        for name, t, args, label in selected:
            why = requirements_met(t.get("requires", ""), gpu)
            if why:
                results.append(done(("skip", name, why)))
                continue
            results.append(pool.submit(run_test, opts, env_base, exe, srcdir, base, name, t, args, label))

    for fut in results:  # in test order, each as soon as it and those before it are done
        r = fut.result()
        if r[0] == "skip":
            print("skip %s (%s)" % (r[1], r[2]))
            skipped += 1
        elif r[0] == "build failed":  # the build log after the last test of the program
            failed += 1
            failures.append(r[1])
            print("not ok %s (build failed)" % r[1])
            if r[2]:
                print("\n".join("#   " + l for l in r[2].splitlines()[-40:]))
        elif r[0] == "ok":
            passed += 1
            print("ok %s (%.1f s)" % (r[1], r[2]))
        else:
            failed += 1
            failures.append(r[1])
            print("not ok %s (%.1f s)" % (r[1], r[2]))
            print("#   " + " ".join(shlex.quote(c) for c in r[3]))
            print("\n".join("#   " + l for l in r[4].splitlines()[:80]))
        sys.stdout.flush()
    pool.shutdown()

    if opts.list:
        return 0
    if failures:
        print("# failed: " + " ".join(failures))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
