#!/usr/bin/python3
"""`make bench`'s reclaim suite: the memory hogs on three kernels.

    reclaim.py [--n N] [--only REGEX] [--quick] [--mem 256M] [--swap-mib 1024]
               [--build build] [--no-linux] [--no-trace] [--accel tcg]
               [--sweep [--sweep-mems 256M,1G,4G]]

Boots Pageturn with lru=split (the seeds' split LRU), Pageturn with
lru=single (Linux 2.6.27's one list per kind of use) and Debian's Linux,
under the same QEMU (TCG unless told), -m, swap disk (vda, mkswap'd) and
ext2 data disk (vdb, holding the hogs' files, made on this machine by the
same hog binary), and runs one workload per boot: a hog (user/hogs/)
between two snapshots of /proc/vmstat (user/bench/reclaim.sh, the same
script on every kernel).  Each workload gets N fresh boots per kernel
(kernels alternate within a round); each boot prints a progress line.

Each boot traces reclaim (reclaim.sh -t; --no-trace: not), and per
workload tools/plot-reclaim charts the first round of each kernel, put
side by side in build/bench/plots/WORKLOAD-CHART.png.

Per workload it prints a table: the hog's wall time (its total_ms) and
phase times, and the reclaim counters over the run (pgscan, pgsteal per
type, their ratio, pgrefill, pgactivate, pgdeactivate, pswpin, pswpout,
pgmajfault, allocstall), each kernel's median (min-max), and the ratios
split/Linux and split/single; then the performance goals of
docs/benchmarks.md, met or missed.  Results go to
build/bench/reclaim.{csv,json,md}, each boot's console to
build/bench/boots/.  --quick: one small workload (stream) per kernel,
-m 128M, one boot each.

--sweep: the scale sweep instead, the stream workload at -m 256M, 1G and
4G (--sweep-mems) on split and Linux, and kswapd's CPU time per page it
freed at each (goal: at the largest within 1.5x of the smallest), into
build/bench/reclaim-sweep.{json,md}.
"""
import argparse
import csv
import datetime
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import console  # noqa: E402
import disks  # noqa: E402
import initramfs  # noqa: E402
import machine  # noqa: E402
import report  # noqa: E402
import stats  # noqa: E402

SCRIPT = "/usr/lib/bench/reclaim.sh"
HOGS = ["seq", "stream", "hotcold", "filecycle", "fork", "mlock", "tmpfs", "random",
        "desktop"]


class Workload:
    """One boot's work: a hog's argv, given a function that turns a
    percentage of the RAM into a size ("384M"); the result keys that are
    its phase times (ms); the files it needs on the data disk (name ->
    percentage of the RAM)."""

    def __init__(self, name, what, argv, phases, files=None):
        self.name = name
        self.what = what
        self.argv = argv
        self.phases = phases
        self.files = files or {}
        # The hog= of its result line (hog-desktop also prints its workers').
        self.hog = argv(lambda pct: "1M")[0][len("hog-"):]


WORKLOADS = [
    Workload("seq", "anonymous memory of 1.5x RAM written, then checked twice in order",
             lambda s: ["hog-seq", "--size", s(150), "--passes", "2"],
             ["write_ms", "pass1_ms", "pass2_ms"]),
    Workload("stream", "a hot anonymous set (25% of RAM) checked while a file of 2x RAM "
             "is read once", lambda s: ["hog-stream", "--file", "/mnt/stream.dat",
                                        "--file-size", s(200), "--hot", s(25)],
             ["hot_before_ms", "stream_ms", "hot_during_ms", "hot_after_ms"],
             {"stream.dat": 200}),
    Workload("hotcold", "hot (30%) and cold (100%) anonymous sets, the hot one checked 5 times",
             lambda s: ["hog-hotcold", "--hot", s(30), "--cold", s(100), "--passes", "5"],
             ["cold_fill_ms", "hot_first_ms", "hot_last_ms", "cold_check_ms"]),
    Workload("filecycle", "a file of 50% of RAM read 3 times, 75% anonymous used between",
             lambda s: ["hog-filecycle", "--file", "/mnt/cycle.dat", "--file-size", s(50),
                        "--anon", s(75), "--passes", "3"],
             ["file_first_ms", "file_median_ms", "anon_median_ms"], {"cycle.dat": 50}),
    Workload("fork", "50% of RAM shared by 4 children, each writing its share (COW)",
             lambda s: ["hog-fork", "--size", s(50), "--children", "4", "--passes", "1"],
             ["fill_ms", "child_median_ms", "parent_check_ms"]),
    Workload("mlock", "25% of RAM mlocked, 100% anonymous pressure beside it",
             lambda s: ["hog-mlock", "--lock", s(25), "--pressure", s(100)],
             ["pressure_fill_ms", "pressure_check_ms", "locked_check_ms"]),
    Workload("tmpfs", "a tmpfs file of 40% of RAM, 100% anonymous pressure, file read back",
             lambda s: ["hog-tmpfs", "--size", s(40), "--pressure", s(100)],
             ["write_ms", "pressure_fill_ms", "read1_ms"]),
    Workload("random_anon", "Zipf-random page accesses over 1.5x RAM of anonymous memory",
             lambda s: ["hog-random", "--target", "anon", "--dist", "zipf", "--size", s(150)],
             ["fill_ms", "ops_ms", "check_ms"]),
    Workload("random_file", "uniform random page accesses over a mapped file of 1.5x RAM",
             lambda s: ["hog-random", "--target", "file", "--file", "/mnt/random.dat",
                        "--dist", "uniform", "--size", s(150)],
             ["ops_ms", "check_ms"], {"random.dat": 150}),
    Workload("desktop", "five hogs at once in 1.2x RAM (batch, browser, database, indexer, "
             "build)", lambda s: ["hog-desktop", "--size", s(120), "--dir", "/mnt"], []),
]
QUICK_WORKLOADS = ["stream"]

# The reclaim counters, from /proc/vmstat's difference over the run:
# (name, the keys summed: Linux splits some per zone, Pageturn others).
VM_METRICS = [
    ("pgscan_anon", ["pgscan_anon"]),
    ("pgscan_file", ["pgscan_file"]),
    ("pgsteal_anon", ["pgsteal_anon"]),
    ("pgsteal_file", ["pgsteal_file"]),
    ("pgrefill", ["pgrefill", "pgrefill_*"]),
    ("pgactivate", ["pgactivate"]),
    ("pgdeactivate", ["pgdeactivate"]),
    ("pswpin", ["pswpin"]),
    ("pswpout", ["pswpout"]),
    ("pgmajfault", ["pgmajfault"]),
    ("allocstall", ["allocstall", "allocstall_*"]),
    ("kswapd_steal", ["pgsteal_kswapd", "kswapd_steal"]),
]
EFFICIENCY = "steal/scan"
# kswapd0's CPU time over the run (reclaim.sh's kswapd_ticks: clock ticks
# of 10 ms on both kernels) and per page it freed.
KSWAPD_MS = "kswapd_cpu_ms"
KSWAPD_COST = "kswapd_us/page"


def vm_sum(record, keys):
    """The sum of record's values for keys ("name_*": every name_ZONE)."""
    total = 0.0
    for k, v in record.items():
        if not isinstance(v, float):
            continue
        for want in keys:
            if k == want or (want.endswith("_*") and k.startswith(want[:-1])):
                total += v
    return total


def parse_boot(lines, workload):
    """One boot's values for workload: ({metric: value}, problems).
    The metrics: "wall" (s: the hog's total_ms, or hog-desktop's
    wall_ms), each phase (ms), each VM metric, steal/scan and kswapd's
    CPU; a boot whose hog did not end with result=ok and exit=0 gives
    problems and no values."""
    name, phases = workload.name, workload.phases
    records = console.parse(lines)
    by_name = {}
    for r in records:
        by_name.setdefault(r["bench"], []).append(r)
    result = [r for r in by_name.get(name, []) if "error" in r or r.get("hog") == workload.hog]
    before, after = by_name.get(name + ".vm0", []), by_name.get(name + ".vm1", [])
    errors = ["error=%s" % r["error"] for r in result if "error" in r]
    if errors:
        return {}, errors
    if len(result) != 1:
        return {}, ["%d result lines of hog=%s for %s, not one" % (len(result), workload.hog,
                                                                  name)]
    r = result[0]
    problems = []
    if r.get("exit") != 0.0 or r.get("result") != "ok":
        problems.append("the hog ended with exit=%s result=%s" % (r.get("exit"), r.get("result")))
    if len(before) != 1 or len(after) != 1:
        problems.append("%d and %d vmstat snapshots, not one each" % (len(before), len(after)))
    total = r.get("total_ms", r.get("wall_ms"))
    if not isinstance(total, float) or total <= 0:
        problems.append("total_ms=%r is not a positive number" % total)
    if problems:
        return {}, problems
    values = {"wall": total / 1000.0}
    for key in phases:
        v = r.get(key)
        if isinstance(v, float) and v >= 0:
            values[key] = v
        else:
            problems.append("%s=%r is not a number" % (key, v))
    for metric, keys in VM_METRICS:
        delta = vm_sum(after[0], keys) - vm_sum(before[0], keys)
        if delta < 0:
            problems.append("%s went down by %d" % (metric, -delta))
        values[metric] = delta
    scanned = values["pgscan_anon"] + values["pgscan_file"]
    if scanned:
        values[EFFICIENCY] = (values["pgsteal_anon"] + values["pgsteal_file"]) / scanned
    if "kswapd_ticks" in before[0] and "kswapd_ticks" in after[0]:
        values[KSWAPD_MS] = (after[0]["kswapd_ticks"] - before[0]["kswapd_ticks"]) * 10.0
        if values["kswapd_steal"]:
            values[KSWAPD_COST] = values[KSWAPD_MS] * 1000.0 / values["kswapd_steal"]
    return values, problems


def command(workload, ram_mib, seed, trace=False):
    """The command init runs for workload at ram_mib MiB of RAM (traced:
    reclaim.sh -t prints the run's trace after it)."""
    def size(pct):
        return "%dM" % (ram_mib * pct // 100)
    argv = workload.argv(size)
    # No second "--": Linux passes init nothing after it.
    return " ".join(["/bin/sh", SCRIPT] + (["-t"] if trace else []) +
                    [workload.name, "/usr/bin/" + argv[0]] + argv[1:] +
                    ["--seed", str(seed), "--quiet"])


def data_disk(build, outdir, workloads, ram_mib):
    """The ext2 disk (4 KiB blocks) with every file the workloads read,
    made by hog-stream --prepare: the pattern every hog checks."""
    files = {}
    for w in workloads:
        for name, pct in w.files.items():
            files[name] = (ram_mib * pct // 100) << 20
    hog = os.path.join(build, "user", "hogs", "hog-stream")

    def fill(path, size, index):
        subprocess.run([hog, "--prepare", "--quiet", "--file", path,
                        "--file-size", "%dM" % (size >> 20)], check=True,
                       stdout=subprocess.DEVNULL)
    # Room for the files, and for desktop's indexer to make its own.
    size_mib = sum(files.values()) // (1 << 20) + ram_mib // 2 + 64
    tag = "hog-stream %d" % int(os.path.getmtime(hog))
    # One image per set of files: the sweep's and the suite's differ.
    name = "reclaim-data-%dm-%s.img" % (ram_mib, "-".join(sorted(n.split(".")[0] for n in files)))
    return disks.ext2_image(os.path.join(outdir, name), files, size_mib, 4096, fill, tag)


def linux_kernel(build, outdir):
    """The Linux side, or None with a message saying why."""
    linux = initramfs.find_linux()
    if linux is None:
        print("bench: no Debian kernel (/boot/vmlinuz-* with /lib/modules): the Linux "
              "column is skipped; `apt-get install linux-image-amd64` adds it", flush=True)
        return None
    programs = {SCRIPT.lstrip("/"): os.path.join(machine.ROOT, "user", "bench", "reclaim.sh")}
    for h in HOGS:
        programs["usr/bin/hog-" + h] = os.path.join(build, "user", "hogs", "hog-" + h)
    initrd = initramfs.build_initramfs(linux, os.path.join(outdir, "reclaim-initramfs.cpio"),
                                       programs)
    return machine.LinuxKernel(linux, initrd)


def run(kernels, workloads, rounds, outdir, mem, ram_mib, disk_images, accel, timeout,
        out=sys.stdout, tag="", trace=False):
    """Boot every workload on every kernel, round after round.  Returns
    (cells, samples): cells maps (workload, metric, kernel) to a
    stats.Cell, samples lists every boot."""
    cells, samples = {}, []
    total = rounds * len(workloads) * len(kernels)
    done = 0
    for rnd in range(1, rounds + 1):
        for w in workloads:
            for k in kernels:
                done += 1
                workdir = os.path.join(outdir, "boots", "reclaim%s-%s-%s-%d"
                                       % (tag, k.name, w.name, rnd))
                b = machine.boot(k, command(w, ram_mib, 1000 + rnd, trace), workdir, mem,
                                 disk_images, timeout, accel)
                values, problems = parse_boot(b.lines, w)
                if b.timed_out:
                    problems.insert(0, "the boot timed out after %d s" % timeout)
                for metric, v in values.items():
                    cells.setdefault((w.name, metric, k.name), stats.Cell()).add(v)
                if problems:
                    cells.setdefault((w.name, "wall", k.name), stats.Cell()).errors += problems
                samples.append({"kernel": k.name, "workload": w.name, "round": rnd,
                                "seconds": round(b.seconds, 1), "status": b.status,
                                "log": b.log_path, "values": values, "problems": problems})
                print("bench: [%2d/%d] %-6s %-12s%s round %d/%d: %6.1f s, %s"
                      % (done, total, k.name, w.name, " -m " + mem if tag else "", rnd, rounds,
                         b.seconds,
                         "verified" if not problems else "FAILED (see %s)" % b.log_path),
                      file=out, flush=True)
                for p in problems:
                    print("bench:     " + p, file=out, flush=True)
    return cells, samples


def summary(cells, workload, metric, kernel):
    c = cells.get((workload, metric, kernel))
    return c.summary() if c else stats.Cell().summary()


def ratio(cells, workload, metric, a, b):
    ca, cb = cells.get((workload, metric, a)), cells.get((workload, metric, b))
    return stats.ratio(ca, cb) if ca and cb else None


def tables(cells, workloads, kernels):
    """Per workload, its rows: [{"metric", "unit", "cells", ratios}]."""
    out = {}
    for w in workloads:
        rows = []
        for metric in ["wall"] + w.phases + [m for m, _ in VM_METRICS] + [EFFICIENCY, KSWAPD_MS,
                                                                            KSWAPD_COST]:
            unit = "s" if metric == "wall" else "ms" if metric.endswith("_ms") else \
                "ratio" if metric == EFFICIENCY else "us" if metric == KSWAPD_COST else "pages"
            rows.append({"metric": metric, "unit": unit,
                         "cells": {k: summary(cells, w.name, metric, k) for k in kernels},
                         "split/linux": ratio(cells, w.name, metric, "split", "linux"),
                         "split/single": ratio(cells, w.name, metric, "split", "single")})
        out[w.name] = rows
    return out


def goals(cells, samples, workloads, kernels):
    """The performance goals (docs/benchmarks.md), each {"goal", "value",
    "met"} (met None where a cell is missing)."""
    out = []

    def add(goal, value, met):
        out.append({"goal": goal, "value": value, "met": met})

    for k in kernels:
        boots = [s for s in samples if s["kernel"] == k]
        bad = [s for s in boots if s["problems"]]
        add("every workload finishes with verified data on %s" % k,
            "%d of %d boots" % (len(boots) - len(bad), len(boots)), not bad)
    if "linux" in kernels and "split" in kernels:
        for w in workloads:
            r = ratio(cells, w.name, "wall", "split", "linux")
            add("%s: split no slower than Linux (wall, split/Linux)" % w.name,
                None if r is None else "%.2fx" % r, None if r is None else r <= 1.0)
            s = summary(cells, w.name, EFFICIENCY, "split")["median"]
            lx = summary(cells, w.name, EFFICIENCY, "linux")["median"]
            add("%s: split's steal/scan at least Linux's" % w.name,
                None if s is None or lx is None else "%.2f vs %.2f" % (s, lx),
                None if s is None or lx is None else s >= lx)
    if "stream" in [w.name for w in workloads] and "single" in kernels and "split" in kernels:
        single = summary(cells, "stream", "pgscan_anon", "single")["median"]
        split = summary(cells, "stream", "pgscan_anon", "split")["median"]
        goal = "stream: split scans at least 10x fewer anon pages than single"
        if single is None or split is None:
            add(goal, None, None)
        elif not single:
            add(goal, "%d vs %d: single scanned none, nothing to show" % (split, single), None)
        else:
            add(goal, "%d vs %d" % (split, single), split * 10 <= single)
        r = ratio(cells, "stream", "hot_after_ms", "single", "split")
        add("stream: the hot set's pass after the stream at least 2x faster under split",
            None if r is None else "%.2fx" % r, None if r is None else r >= 2.0)
    return out


CHARTS = ["lru", "scan_steal", "swap", "kswapd"]


def plots(samples, workloads, kernels, outdir, out=sys.stdout):
    """Per workload, tools/plot-reclaim's charts of each kernel's first
    traced boot, put side by side (kernels left to right) with PIL into
    outdir/plots/WORKLOAD-CHART.png.  Returns {workload: [paths]}; a
    workload whose boots printed no trace gets none."""
    try:
        from PIL import Image
    except ImportError:
        print("bench: no charts: python3-pil is missing (make deps)", file=out)
        return {}
    tool = os.path.join(machine.ROOT, "tools", "plot-reclaim")
    made = {}
    for w in workloads:
        dirs = []
        for k in kernels:
            boot = [s for s in samples if s["workload"] == w.name and s["kernel"] == k]
            d = os.path.join(outdir, "plots", w.name, k)
            r = subprocess.run([sys.executable, tool, "-o", d, "-t", "%s on %s" % (w.name, k),
                                boot[0]["log"]], capture_output=True, text=True) \
                if boot else None
            if r is None or r.returncode != 0:
                print("bench: no charts of %s on %s: %s" % (w.name, k, "no boot" if r is None
                                                            else r.stderr.strip()), file=out)
                continue
            dirs.append(d)
        if not dirs:
            continue
        made[w.name] = []
        for chart in CHARTS:
            images = [Image.open(os.path.join(d, chart + ".png")) for d in dirs]
            row = Image.new("RGB", (sum(i.width for i in images), max(i.height for i in images)),
                            "white")
            x = 0
            for i in images:
                row.paste(i, (x, 0))
                x += i.width
            path = os.path.join(outdir, "plots", "%s-%s.png" % (w.name, chart))
            row.save(path)
            made[w.name].append(path)
    return made


def markdown(tabs, goal_list, workloads, kernels, labels, meta_lines, charts=None):
    out = ["%s  " % line for line in meta_lines] + [""]
    for w in workloads:
        out.append("### %s: %s" % (w.name, w.what))
        out.append("")
        head = ["", "unit"] + ["%s median (min-max)" % labels[k] for k in kernels]
        head += ["split/Linux", "split/single"]
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        for row in tabs[w.name]:
            cells = []
            for k in kernels:
                c = row["cells"][k]
                cells.append("-" if c["median"] is None else "%s (%s-%s)" % (
                    report.fmt(c["median"]), report.fmt(c["min"]), report.fmt(c["max"])))
            ratios = ["-" if row[r] is None else "%.2fx" % row[r]
                      for r in ("split/linux", "split/single")]
            out.append("| " + " | ".join([row["metric"], row["unit"]] + cells + ratios) + " |")
        out.append("")
        if charts and w.name in charts:
            out.append("Charts (%s, left to right): " % ", ".join(labels[k] for k in kernels) +
                       ", ".join("[%s](plots/%s)" % (c, os.path.basename(p))
                                 for c, p in zip(CHARTS, charts[w.name])))
            out.append("")
    out.append("### Goals")
    out.append("")
    out.append("| goal | value | met |")
    out.append("|---|---|---|")
    for g in goal_list:
        out.append("| %s | %s | %s |" % (g["goal"], g["value"] or "-",
                                         {True: "yes", False: "**no**", None: "-"}[g["met"]]))
    return "\n".join(out) + "\n"


def write_csv(path, tabs, kernels):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        head = ["workload", "metric", "unit"]
        for k in kernels:
            head += ["%s_%s" % (k, s) for s in ("median", "min", "max", "n")]
        w.writerow(head + ["split/linux", "split/single"])
        for name, rows in tabs.items():
            for row in rows:
                line = [name, row["metric"], row["unit"]]
                for k in kernels:
                    c = row["cells"][k]
                    line += [c["median"], c["min"], c["max"], c["n"]]
                w.writerow(line + [row["split/linux"], row["split/single"]])


def ram_of(mem):
    """MiB of a -m size ("256M", "4G"), or None."""
    m = re.fullmatch(r"(\d+)([MG])", mem)
    return int(m.group(1)) * (1024 if m.group(2) == "G" else 1) if m else None


SWEEP_GOAL = 1.5


def sweep(args, outdir, kernels, swap_mib, rounds):
    """The scale sweep: the stream workload at each of args.sweep_mems,
    kswapd's CPU time per page it freed.  Returns (Markdown, failed boots)."""
    workload = [w for w in WORKLOADS if w.name == "stream"][0]
    mems = args.sweep_mems.split(",")
    if any(ram_of(m) is None for m in mems):
        sys.exit("bench: --sweep-mems %s: give sizes as 256M or 4G" % args.sweep_mems)
    swap = disks.swap_image(os.path.join(outdir, "reclaim-swap-%dm.img" % swap_mib), swap_mib)
    names = [k.name for k in kernels]
    rows, samples = [], []
    for mem in mems:
        ram = ram_of(mem)
        images = [swap, data_disk(args.build, outdir, [workload], ram)]
        cells, got = run(kernels, [workload], rounds, outdir, mem, ram, images, args.accel,
                         3600, tag="-" + mem.lower())
        samples += [dict(s, mem=mem) for s in got]
        for metric in ("wall", "kswapd_steal", KSWAPD_MS, KSWAPD_COST):
            rows.append({"mem": mem, "metric": metric,
                         "cells": {k: summary(cells, "stream", metric, k) for k in names}})
    goal_list = []
    cost = {(r["mem"], k): r["cells"][k]["median"] for r in rows if r["metric"] == KSWAPD_COST
            for k in names}
    for k in names:
        small, big = cost[(mems[0], k)], cost[(mems[-1], k)]
        r = big / small if small and big is not None else None
        goal_list.append({"goal": "%s: kswapd's CPU per freed page at -m %s within %.1fx of -m %s"
                          % (k, mems[-1], SWEEP_GOAL, mems[0]),
                          "value": None if r is None else "%.2fx" % r,
                          "met": None if r is None else r <= SWEEP_GOAL})
    out = ["stream (hot set 25%% of RAM, a file of 2x RAM read once), swap %d MiB, "
           "%d boot%s per cell  " % (swap_mib, rounds, "s" if rounds > 1 else ""), "",
           "| -m | metric | " + " | ".join("%s median (min-max)" % k for k in names) + " |",
           "|---|---|" + "---|" * len(names)]
    for r in rows:
        cells = ["-" if r["cells"][k]["median"] is None else "%s (%s-%s)" % (
            report.fmt(r["cells"][k]["median"]), report.fmt(r["cells"][k]["min"]),
            report.fmt(r["cells"][k]["max"])) for k in names]
        out.append("| %s | %s | %s |" % (r["mem"], r["metric"], " | ".join(cells)))
    out += ["", "| goal | value | met |", "|---|---|---|"]
    for g in goal_list:
        out.append("| %s | %s | %s |" % (g["goal"], g["value"] or "-",
                                         {True: "yes", False: "**no**", None: "-"}[g["met"]]))
    md = "\n".join(out) + "\n"
    with open(os.path.join(outdir, "reclaim-sweep.md"), "w") as f:
        f.write(md)
    with open(os.path.join(outdir, "reclaim-sweep.json"), "w") as f:
        json.dump({"mems": mems, "kernels": names, "rows": rows, "goals": goal_list,
                   "samples": samples}, f, indent=2)
        f.write("\n")
    return md, [s for s in samples if s["problems"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--n", type=int, default=3, help="fresh boots per workload and kernel")
    ap.add_argument("--only", help="regex on workload names")
    ap.add_argument("--quick", action="store_true",
                    help="one small workload per kernel at -m 128M, one boot each")
    ap.add_argument("--mem", help="RAM (default 256M; --quick 128M)")
    ap.add_argument("--swap-mib", type=int, help="the swap disk (default 1024; --quick 512)")
    ap.add_argument("--accel", default="tcg", choices=("tcg", "kvm"))
    ap.add_argument("--no-linux", action="store_true", help="boot Pageturn only")
    ap.add_argument("--no-trace", action="store_true",
                    help="no tracing, and so no charts (build/bench/plots/)")
    ap.add_argument("--sweep", action="store_true",
                    help="the scale sweep instead: stream at each --sweep-mems, split and Linux")
    ap.add_argument("--sweep-mems", default="256M,1G,4G")
    args = ap.parse_args()

    started = datetime.datetime.now(datetime.timezone.utc)
    outdir = os.path.join(args.build, "bench")
    os.makedirs(outdir, exist_ok=True)
    mem = args.mem or ("128M" if args.quick else "256M")
    ram_mib = ram_of(mem)
    if ram_mib is None:
        sys.exit("bench: --mem %s: give MiB or GiB, as 256M or 1G" % mem)
    swap_mib = args.swap_mib or (512 if args.quick else 1024)
    rounds = 1 if args.quick else args.n
    workloads = [w for w in WORKLOADS if (not args.quick or w.name in QUICK_WORKLOADS) and
                 (not args.only or re.search(args.only, w.name))]
    if not workloads:
        sys.exit("bench: no workload matches %r; workloads: %s"
                 % (args.only, " ".join(w.name for w in WORKLOADS)))

    kernels = []
    linux = None if args.no_linux else linux_kernel(args.build, outdir)
    if linux:
        kernels.append(linux)
    kernels.append(machine.PageturnKernel(args.build, "split", "lru=split"))
    if args.sweep:
        print("bench: reclaim scale sweep, stream at -m %s, %d round%s"
              % (args.sweep_mems, rounds, "s" if rounds > 1 else ""), flush=True)
        md, failed = sweep(args, outdir, kernels, swap_mib, rounds)
        print()
        print(md)
        print("bench: results in %s/reclaim-sweep.{json,md}" % outdir)
        return 1 if failed else 0
    kernels.append(machine.PageturnKernel(args.build, "single", "lru=single"))
    names = [k.name for k in kernels]
    images = [disks.swap_image(os.path.join(outdir, "reclaim-swap-%dm.img" % swap_mib),
                               swap_mib),
              data_disk(args.build, outdir, workloads, ram_mib)]
    timeout = 600 if args.quick else 1800
    print("bench: reclaim, %d workloads x %d kernels x %d rounds, -m %s, swap %d MiB, %s%s"
          % (len(workloads), len(kernels), rounds, mem, swap_mib, args.accel,
             ", quick" if args.quick else ""), flush=True)

    cells, samples = run(kernels, workloads, rounds, outdir, mem, ram_mib, images, args.accel,
                         timeout, trace=not args.no_trace)
    charts = {} if args.no_trace else plots(samples, workloads, names, outdir)
    tabs = tables(cells, workloads, names)
    goal_list = goals(cells, samples, workloads, names)
    elapsed = (datetime.datetime.now(datetime.timezone.utc) - started).total_seconds()
    meta = {"date": started.strftime("%Y-%m-%d %H:%M UTC"), "qemu": machine.qemu_version(),
            "kernels": {k.name: k.describe() for k in kernels}, "accel": args.accel,
            "mem": mem, "swap_mib": swap_mib, "rounds": rounds, "quick": args.quick,
            "seconds": round(elapsed)}
    lines = ["%s, QEMU %s (%s, 1 vCPU, -m %s), swap %d MiB on virtio-blk, data on ext2 "
             "(virtio-blk), %d boot%s per cell%s, %.0f s in all"
             % (meta["date"], meta["qemu"], args.accel.upper(), mem, swap_mib, rounds,
                "s" if rounds > 1 else "", " (quick)" if args.quick else "", elapsed),
             "; ".join(k.describe() for k in kernels)]
    labels = {"linux": "Linux", "split": "split", "single": "single"}
    md = markdown(tabs, goal_list, workloads, names, labels, lines, charts)
    with open(os.path.join(outdir, "reclaim.md"), "w") as f:
        f.write(md)
    write_csv(os.path.join(outdir, "reclaim.csv"), tabs, names)
    with open(os.path.join(outdir, "reclaim.json"), "w") as f:
        json.dump({"meta": meta, "kernels": names, "workloads": tabs, "goals": goal_list,
                   "samples": samples}, f, indent=2)
        f.write("\n")
    print()
    print(md)
    print("bench: results in %s/reclaim.{csv,json,md}" % outdir)
    failed = [s for s in samples if s["problems"]]
    if failed:
        print("bench: %d boots did not finish with verified data (see above)" % len(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
