"""Boot Pageturn in QEMU for one integration test and judge the outcome.

Each test boots its own ISO (built by tools/mkiso.sh with the test's
kernel command line), headless, with a fixed -m, under a timeout.  The
serial console is captured to build/tests/NAME/serial.log.  The kernel
leaves QEMU through isa-debug-exit: 33 = its tests passed, 35 = failed,
37 = panic.  A test may also act when a line appears on the serial
console (take a screendump over QMP, type a byte on COM1, or stop QEMU
when the kernel is expected to halt rather than exit), or follow a
console script: wait for a pattern (a shell prompt, which ends no line),
then type a line, as a user at the serial console would.
"""
import bisect
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
# Terminal control sequences (UEFI firmware, a shell's line editor): CSI
# sequences, character-set selection, and the short ESC 7 / ESC 8 kind.
ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[78=>DEHMNOZc])")
# Console scripts type this many seconds apart per byte, like a fast typist.
TYPING_PACE = 0.005
STATUS_NAMES = {EXIT_PASS: "tests passed", EXIT_FAIL: "tests failed",
                EXIT_PANIC: "kernel panic"}


class QemuCase:
    """One boot: how to boot, and what the serial log must show."""

    def __init__(self, name, cmdline, firmware="bios", medium="cdrom",
                 mem="512M", timeout=90, status=EXIT_PASS, expect=(),
                 reject=(r"^\s*not ok ",), on_line=None, check=None, cpu=None,
                 qemu_args=(), script=()):
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
        # Console script: steps (regex, text) or (regex, text, pause), or a
        # function returning them, called when the boot starts.  Each step
        # waits until regex (re.M) matches the console output that follows
        # the previous step's match, unfinished lines included; then, after
        # pause seconds, types text on the serial port (None: types nothing),
        # or on the PS/2 keyboard when text is a Keys.
        self.script = script


class Keys(str):
    """Script text typed on the emulated PS/2 keyboard (QMP send-key)
    instead of the serial port.  "\x03" is Ctrl-C."""


# QEMU qcodes for the characters a script may type on the keyboard:
# (qcode, shifted).
_KEY_QCODES = {" ": ("spc", False), "\n": ("ret", False), "-": ("minus", False),
               "=": ("equal", False), ".": ("dot", False), "/": ("slash", False),
               ",": ("comma", False), ";": ("semicolon", False), "'": ("apostrophe", False),
               "|": ("backslash", True), "$": ("4", True), "(": ("9", True), ")": ("0", True),
               "*": ("8", True), "+": ("equal", True), ">": ("dot", True), "<": ("comma", True),
               "_": ("minus", True), ":": ("semicolon", True), '"': ("apostrophe", True),
               "?": ("slash", True), "!": ("1", True), "&": ("7", True)}


def key_events(text):
    """The QMP send-key key lists that type text, one list per character."""
    events = []
    for ch in text:
        if ch == "\x03":
            keys = ["ctrl", "c"]
        elif ch.isdigit() or ("a" <= ch <= "z"):
            keys = [ch]
        elif "A" <= ch <= "Z":
            keys = ["shift", ch.lower()]
        elif ch in _KEY_QCODES:
            code, shifted = _KEY_QCODES[ch]
            keys = ["shift", code] if shifted else [code]
        else:
            raise ValueError("no key for %r" % ch)
        events.append([{"type": "qcode", "data": k} for k in keys])
    return events


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
    """A running boot; handed to a case's on_line and check functions.

    lines are the console's finished lines, cleaned of \\r, terminal
    escapes and printk timestamps; text_from() gives all of the output
    the same way, the unfinished last line included.  The reader thread
    feeds them; finish() marks the end of QEMU's output."""

    def __init__(self, case, workdir, proc, qmp_path):
        self.case = case
        self.workdir = workdir
        self.proc = proc
        self.qmp_path = qmp_path
        self.lines = []
        self.problems = []
        self.eof = False
        self._lock = threading.Lock()
        self._starts = []       # offset of each finished line in the whole text
        self._length = 0        # length of the finished lines, "\n"s included
        self._partial = b""     # raw bytes of the unfinished line

    @staticmethod
    def clean(raw):
        line = ESCAPES.sub("", raw.decode("utf-8", "replace")).replace("\r", "")
        return TIMESTAMP.sub("", line)

    def feed(self, raw):
        """Take bytes from the console; return the lines they finished."""
        with self._lock:
            self._partial += raw
            *finished, self._partial = self._partial.split(b"\n")
            new = [self.clean(l) for l in finished]
            for line in new:
                self._starts.append(self._length)
                self._length += len(line) + 1
            self.lines.extend(new)
        return new

    def finish(self):
        with self._lock:
            if self._partial:
                self.lines.append(self.clean(self._partial))
                self._starts.append(self._length)
                self._partial = b""
            self.eof = True

    def text_from(self, start):
        """(base, text): the cleaned output from the start of the line
        holding offset start, unfinished line included; base is text's
        offset in the whole output."""
        with self._lock:
            i = max(bisect.bisect_right(self._starts, start) - 1, 0)
            base = self._starts[i] if self._starts else 0
            text = "".join(l + "\n" for l in self.lines[i:len(self._starts)])
            return base, text + self.clean(self._partial)

    def wait_for(self, regex, start=0, timeout=60):
        """Wait until regex (re.M) matches the output from offset start on;
        the match's (start, end) offsets, or None at timeout or end of
        output."""
        rx = re.compile(regex, re.M)
        deadline = time.time() + timeout
        while True:
            eof = self.eof
            base, text = self.text_from(start)
            m = rx.search(text, start - base)
            if m:
                return base + m.start(), base + m.end()
            if eof or time.time() > deadline:
                return None
            time.sleep(0.05)

    def run_script(self, script, timeout):
        """Follow a console script (see QemuCase.script) until it ends, a
        pattern is not seen within timeout seconds of the start, or the
        output ends; a step not reached is a problem."""
        deadline = time.time() + timeout
        steps = script() if callable(script) else script
        pos = 0
        for i, step in enumerate(steps, 1):
            regex, text = step[0], step[1]
            pause = step[2] if len(step) > 2 else 0
            if regex is not None:
                found = self.wait_for(regex, pos, deadline - time.time())
                if not found:
                    base, seen = self.text_from(pos)
                    self.problems.append("console script step %d: never saw /%s/ after %r"
                                         % (i, regex, seen[pos - base:][-300:]))
                    return
                pos = found[1]
            time.sleep(pause)
            if text is not None:
                try:
                    if isinstance(text, Keys):
                        self.send_keys(text)
                    else:
                        self.send_serial(text.encode(), pace=TYPING_PACE)
                except (OSError, RuntimeError, ValueError) as e:
                    self.problems.append("console script step %d: typing %r: %s" % (i, text, e))
                    return

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

    def send_keys(self, text):
        """Type text on the PS/2 keyboard, one key press per character."""
        qmp = QMP(self.qmp_path)
        try:
            for keys in key_events(text):
                qmp.command("send-key", keys=keys)
                time.sleep(TYPING_PACE)
        finally:
            qmp.close()

    def send_serial(self, data, pace=0):
        """Type bytes on the serial port; with pace, one byte every pace seconds."""
        chunks = [data[i:i + 1] for i in range(len(data))] if pace else [data]
        for chunk in chunks:
            self.proc.stdin.write(chunk)
            self.proc.stdin.flush()
            if pace:
                time.sleep(pace)

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
            while True:
                try:
                    raw = os.read(proc.stdout.fileno(), 4096)
                except OSError:
                    raw = b""
                if not raw:
                    break
                log.write(raw)
                log.flush()
                for line in session.feed(raw):
                    for item in list(pending):
                        if re.search(item[0], line):
                            pending.remove(item)
                            try:
                                item[1](session)
                            except Exception as e:  # report, never hang the run
                                session.problems.append("on %r: %s" % (item[0], e))
        session.finish()

    threads = [threading.Thread(target=reader, daemon=True)]
    if case.script:
        threads.append(threading.Thread(target=session.run_script,
                                        args=(case.script, case.timeout), daemon=True))
    for t in threads:
        t.start()
    try:
        status = proc.wait(timeout=case.timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        status = None
    for t in threads:
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
