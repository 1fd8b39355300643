#!/usr/bin/python3
"""Pageturn's test runner (`make test`).

1. Host unit tests: every build/unit/test_* binary (cmocka, TAP output);
   each test case counts once.
2. The user test programs (user/tests/, static musl binaries) on the host
   Linux, through their runner: they are ordinary Linux programs, and
   Linux is the reference for what they check.  Each program counts once.
3. Host tests of the Python tools: every tests/tools/test_*.py
   (unittest, in a python3 of its own); each test case counts once.
4. QEMU integration tests (tests/qemu/cases.py), two at a time; each
   boots the ISO headless with its own command line, -m and timeout.  A
   failure prints its reasons and the tail of the serial log.
5. Documentation: every system call in kernel/syscall_64.c's table has a
   row in docs/syscalls.md (docs move with the code).

The last line is "N passed, N failed"; the exit status is 0 only when
nothing failed.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "qemu"))
import cases as qemu_cases  # noqa: E402
from harness import run_case  # noqa: E402

TAIL_LINES = 40


def run_unit_tests(build, only):
    passed = failed = 0
    for exe in sorted(glob.glob(os.path.join(build, "unit", "test_*"))):
        if not os.access(exe, os.X_OK) or "." in os.path.basename(exe):
            continue
        suite = "unit/" + os.path.basename(exe)[len("test_"):]
        if only and not re.search(only, suite):
            continue
        env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
        p = subprocess.run([exe], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        ok = re.findall(r"^ok \d+ - (.*)$", p.stdout, re.M)
        bad = re.findall(r"^not ok \d+ - (.*)$", p.stdout, re.M)
        passed += len(ok)
        failed += len(bad)
        if p.returncode != 0 and not bad:
            failed += 1      # crashed (sanitizer, signal) before reporting
            bad.append("(the binary exited with status %d)" % p.returncode)
        print("%s %s: %d passed, %d failed" % ("PASS" if not bad else "FAIL",
                                               suite, len(ok), len(bad)))
        if bad:
            print("  failed: " + ", ".join(bad))
            print("\n".join("  | " + l for l in p.stdout.splitlines()[-TAIL_LINES:]))
        sys.stdout.flush()
    return passed, failed


def run_host_user_tests(build, only):
    """build/user/tests/runner NAME... on this machine.  Files the tests
    expect on Pageturn's root filesystem come from the staged root
    (PAGETURN_ROOT=build/rootfs)."""
    names = [n for n in qemu_cases.user_test_names() if not only or re.search(only, "host/user/" + n)]
    if not names:
        return 0, 0
    runner = os.path.join(build, "user", "tests", "runner")
    if not os.access(runner, os.X_OK):
        print("FAIL host/user: %s is missing (make builds it)" % runner)
        return 0, 1
    env = dict(os.environ, PAGETURN_ROOT=os.path.abspath(os.path.join(build, "rootfs")))
    p = subprocess.run([runner] + names, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    output, current = {}, None
    for line in p.stdout.splitlines():
        m = re.match(r"^# test (\S+)$", line)
        if m:
            current = m.group(1)
        if current:
            output.setdefault(current, []).append(line)
    passed = failed = 0
    for name in names:
        lines = output.get(name, [])
        verdict = next((l for l in lines if l.startswith("# %s: " % name)), None)
        if verdict and verdict.startswith("# %s: PASS" % name):
            passed += 1
            print("PASS host/user/%s" % name)
            continue
        failed += 1
        print("FAIL host/user/%s: %s" % (name, verdict[len("# %s: " % name):] if verdict
                                          else "no verdict from the runner (status %d)"
                                          % p.returncode))
        print("\n".join("  | " + l for l in (lines or p.stdout.splitlines())[-TAIL_LINES:]))
    sys.stdout.flush()
    return passed, failed


def run_tool_tests(only):
    """python3 -m unittest on each tests/tools/test_NAME.py (suite
    tools/NAME): passed = tests run minus failures and errors."""
    passed = failed = 0
    for path in sorted(glob.glob(os.path.join(HERE, "tools", "test_*.py"))):
        suite = "tools/" + os.path.basename(path)[len("test_"):-len(".py")]
        if only and not re.search(only, suite):
            continue
        p = subprocess.run([sys.executable, "-m", "unittest", os.path.basename(path)],
                           cwd=os.path.dirname(path), stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        ran = re.search(r"^Ran (\d+) tests? in ", p.stdout, re.M)
        bad = re.findall(r"^(?:FAIL|ERROR): (\S+) \(([\w.]+)\)", p.stdout, re.M)
        ok = (int(ran.group(1)) if ran else 0) - len(bad)
        nbad = len(bad) or (1 if p.returncode != 0 else 0)   # 1: it did not run
        passed += ok
        failed += nbad
        print("%s %s: %d passed, %d failed" % ("PASS" if not nbad else "FAIL", suite, ok, nbad))
        if nbad:
            print("  failed: " + ", ".join(cls if cls.endswith("." + name) else cls + "." + name
                                           for name, cls in bad))
            print("\n".join("  | " + l for l in p.stdout.splitlines()[-TAIL_LINES:]))
        sys.stdout.flush()
    return passed, failed


def run_qemu_tests(build, only, jobs, accel):
    todo = [c for c in qemu_cases.cases(build) if not only or re.search(only, "qemu/" + c.name)]
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(run_case, c, build, accel): c for c in todo}
        for fut in concurrent.futures.as_completed(futures):
            case = futures[fut]
            try:
                ok, problems, session, secs = fut.result()
            except Exception as e:
                ok, problems, session, secs = False, ["harness error: %s" % e], None, 0
            print("%s qemu/%s (%.1f s)" % ("PASS" if ok else "FAIL", case.name, secs))
            if ok:
                passed += 1
            else:
                failed += 1
                for p in problems:
                    print("  - " + p)
                if session:
                    print("  serial log tail (%s):" % os.path.join(session.workdir, "serial.log"))
                    for line in session.lines[-TAIL_LINES:]:
                        print("  | " + line)
            sys.stdout.flush()
    return passed, failed


def check_syscall_docs(only):
    """Every call the table implements must be documented: one check."""
    name = "docs/syscalls"
    if only and not re.search(only, name):
        return 0, 0
    root = os.path.dirname(HERE)
    with open(os.path.join(root, "kernel", "syscall_64.c")) as f:
        table = f.read()
    with open(os.path.join(root, "docs", "syscalls.md")) as f:
        doc = f.read()
    calls = set(re.findall(r"^\s*SYSCALL\((\w+)\)", table, re.M))
    calls |= set(re.findall(r"^\s*\[__NR_(\w+)\]\s*=", table, re.M))
    documented = set(re.findall(r"`(\w+)`", doc))
    missing = sorted(calls - documented)
    if not calls or missing:
        print("FAIL %s: %s" % (name, "no table found" if not calls else
                               "not in docs/syscalls.md: " + ", ".join(missing)))
        return 0, 1
    print("PASS %s: %d calls documented" % (name, len(calls)))
    return 1, 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--only", help="regex on test names (unit/NAME, host/user/NAME, tools/NAME, "
                    "qemu/NAME)")
    ap.add_argument("--jobs", type=int, default=2, help="QEMU instances at once")
    ap.add_argument("--accel", default=os.environ.get("ACCEL", "tcg"), choices=("tcg", "kvm"))
    args = ap.parse_args()

    up, uf = run_unit_tests(args.build, args.only)
    hp, hf = run_host_user_tests(args.build, args.only)
    tp, tf = run_tool_tests(args.only)
    qp, qf = run_qemu_tests(args.build, args.only, args.jobs, args.accel)
    dp, df = check_syscall_docs(args.only)
    print("%d passed, %d failed" % (up + hp + tp + qp + dp, uf + hf + tf + qf + df))
    sys.exit(1 if uf + hf + tf + qf + df else 0)


if __name__ == "__main__":
    main()
