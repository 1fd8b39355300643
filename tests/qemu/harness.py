"""Boot Pageturn in QEMU for one integration test and judge the outcome.

Each test boots its own ISO (built by tools/mkiso.sh with the test's
kernel command line), headless, with a fixed -m, under a timeout.  The
serial console is captured to build/tests/NAME/serial.log.  The kernel
leaves QEMU through isa-debug-exit: 33 = its tests passed, 35 = failed,
37 = panic.  A test may also act when a line appears on the serial
console (take a screendump over QMP, type a byte on COM1, or stop QEMU
when the kernel is expected to halt rather than exit).
"""
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools"))
from qemu import qemu_command  # noqa: E402

EXIT_PASS, EXIT_FAIL, EXIT_PANIC = 33, 35, 37
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d{6}\] ")
STATUS_NAMES = {EXIT_PASS: "tests passed", EXIT_FAIL: "tests failed",
                EXIT_PANIC: "kernel panic"}


class QemuCase:
    """One boot: how to boot, and what the serial log must show."""

    def __init__(self, name, cmdline, firmware="bios", medium="cdrom",
                 mem="512M", timeout=90, status=EXIT_PASS, expect=(),
                 reject=(r"^\s*not ok ",), on_line=None, check=None, cpu=None,
                 qemu_args=()):
        self.name = name
        self.cmdline = cmdline
        self.firmware = firmware
        self.medium = medium
        self.mem = mem
        self.timeout = timeout
        self.status = status            # None: the harness stops QEMU itself
        self.cpu = cpu
        self.qemu_args = list(qemu_args)  # e.g. extra drives; "{workdir}" expands
        self.expect = list(expect)      # regexes that must each match the log
        self.reject = list(reject)      # regexes that must not match any line
        self.on_line = on_line          # (regex, fn(session)) pairs
        self.check = check              # fn(session) -> list of problems


class QMP:
    """A minimal QMP client on a unix socket."""

    def __init__(self, path, timeout=30):
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if time.time() > deadline:
                    raise
                time.sleep(0.1)
        self.file = self.sock.makefile("rw")
        json.loads(self.file.readline())  # greeting
        self.command("qmp_capabilities")

    def command(self, name, **arguments):
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        self.file.write(json.dumps(msg) + "\n")
        self.file.flush()
        while True:
            reply = json.loads(self.file.readline())
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise RuntimeError("QMP %s: %s" % (name, reply["error"]))

    def close(self):
        self.sock.close()


class Session:
    """A running boot; handed to a case's on_line and check functions."""

    def __init__(self, case, workdir, proc, qmp_path):
        self.case = case
        self.workdir = workdir
        self.proc = proc
        self.qmp_path = qmp_path
        self.lines = []
        self.problems = []

    def screendump(self, filename):
        path = os.path.join(self.workdir, filename)
        qmp = QMP(self.qmp_path)
        try:
            qmp.command("screendump", filename=path, format="png")
        finally:
            qmp.close()
        return path

    def memsave(self, filename, phys, size):
        """Dump physical memory to a file through QMP's pmemsave."""
        path = os.path.join(self.workdir, filename)
        qmp = QMP(self.qmp_path)
        try:
            qmp.command("pmemsave", val=phys, size=size, filename=path)
        finally:
            qmp.close()
        return path

    def stop(self):
        self.proc.kill()

    def send_serial(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    @property
    def log(self):
        return "\n".join(self.lines)


def build_iso(build, case):
    out = os.path.join(build, "tests", case.name, "pageturn.iso")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(["sh", os.path.join(ROOT, "tools", "mkiso.sh"),
                    os.path.join(build, "kernel.elf"), os.path.join(build, "root.img"),
                    case.cmdline, out],
                   check=True)
    return out


def run_case(case, build, accel="tcg"):
    """Boot case; return (ok, problems, session, seconds)."""
    workdir = os.path.join(build, "tests", case.name)
    os.makedirs(workdir, exist_ok=True)
    start = time.time()
    iso = build_iso(build, case)
    qmp_path = os.path.join(workdir, "qmp.sock")
    if os.path.exists(qmp_path):
        os.unlink(qmp_path)
    argv = qemu_command(iso, case.mem, accel, case.firmware, case.medium, workdir,
                        ["-display", "none", "-monitor", "none", "-serial", "stdio",
                         "-qmp", "unix:%s,server=on,wait=off" % qmp_path] +
                        [a.replace("{workdir}", workdir) for a in case.qemu_args], case.cpu)
    log_path = os.path.join(workdir, "serial.log")
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    session = Session(case, workdir, proc, qmp_path)
    pending = list(case.on_line or [])

    def reader():
        with open(log_path, "wb") as log:
            for raw in proc.stdout:
                log.write(raw)
                log.flush()
                # UEFI logs carry firmware escape codes and \r: strip them,
                # and printk's "[    1.234567] " timestamps.
                line = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "",
                              raw.decode("utf-8", "replace")).replace("\r", "")
                line = TIMESTAMP.sub("", line)
                session.lines.append(line.rstrip("\n"))
                for item in list(pending):
                    if re.search(item[0], line):
                        pending.remove(item)
                        try:
                            item[1](session)
                        except Exception as e:  # report, never hang the run
                            session.problems.append("on %r: %s" % (item[0], e))

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        status = proc.wait(timeout=case.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        status = None
    t.join(timeout=10)
    problems = list(session.problems)
    if status is None:
        problems.append("timed out after %d s" % case.timeout)
    elif case.status is not None and status != case.status:
        problems.append("QEMU exit status %s (%s), expected %d (%s)" % (
            status, STATUS_NAMES.get(status, "not from the kernel"),
            case.status, STATUS_NAMES[case.status]))
    log = session.log
    for rx in case.expect:
        if not re.search(rx, log, re.M):
            problems.append("serial log lacks /%s/" % rx)
    for rx in case.reject:
        m = re.search(rx, log, re.M)
        if m:
            problems.append("serial log has /%s/: %r" % (rx, m.group(0)))
    for item in pending:
        problems.append("never saw /%s/ on the console" % item[0])
    if case.check and status is not None:
        problems += case.check(session)
    return not problems, problems, session, time.time() - start
