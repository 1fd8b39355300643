"""Results on a serial console: lines of key=value words.

A benchmark program prints one line per measurement,

    bench=null_syscall ns_per_op=160.2 ops=6000000 secs=0.962

and the kernel may print its own lines in between (or, on a console
shared with printk, in the middle of one: the match starts at "bench=").
lines() turns a console's bytes into text lines the way the test
harness does (no \\r, terminal escapes or printk timestamps); parse()
turns lines into records, one dict per line, numbers as floats;
"bench-done" lines and other words are not records.
"""
import math
import re

ESCAPES = re.compile(r"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[78=>DEHMNOZc])")
TIMESTAMP = re.compile(r"^\[\s*\d+\.\d{6}\] ")

RECORD = re.compile(r"(?:^|\s)bench=(\S+)((?:[ \t]+[A-Za-z_][\w.]*=\S+)*)")
PAIR = re.compile(r"([A-Za-z_][\w.]*)=(\S+)")


def number(text):
    """text as a finite float, or None."""
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def lines(raw):
    """The console output raw (bytes) as cleaned text lines."""
    out = []
    for line in raw.split(b"\n"):
        text = ESCAPES.sub("", line.decode("utf-8", "replace")).replace("\r", "")
        out.append(TIMESTAMP.sub("", text))
    return out


def parse(lines):
    """The records in lines: [{"bench": NAME, KEY: float or str, ...}]."""
    records = []
    for line in lines:
        m = RECORD.search(line)
        if not m:
            continue
        record = {"bench": m.group(1)}
        for key, value in PAIR.findall(m.group(2)):
            n = number(value)
            record[key] = n if n is not None else value
        records.append(record)
    return records
