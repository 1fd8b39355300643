"""Run a benchmark suite: rounds of fresh boots, values into cells.

A suite is made of Rows (one measure each: the record bench=ROW on the
console and which of its keys is the measure) grouped into Groups (what
one boot runs: a command, its disks, -m).  run() boots every group on
every kernel, round after round (kernels alternate within a round, so a
slow spell of the host hits both), and prints a progress line per boot;
every (row, kernel) cell collects one value per boot.  A boot that times
out, or a row that printed an error or nothing, leaves its cell without
that value and says why.
"""
import os
import sys

import machine
import console
import stats


class Row:
    def __init__(self, name, key, unit, what, group, goal=1.0):
        self.name = name
        self.key = key          # the record's key holding the measure
        self.unit = unit
        self.what = what        # the row's title in the table
        self.group = group
        self.goal = goal        # the ratio to stay at or below


class Group:
    def __init__(self, name, rows, command, disks=(), mem="512M", timeout=600):
        self.name = name
        self.rows = rows        # the Rows this boot measures
        self.command = command  # what init runs
        self.disks = list(disks)
        self.mem = mem
        self.timeout = timeout


def value_of(records, row):
    """(value, None) for row in records, or (None, why not)."""
    for rec in records:
        if rec["bench"] != row.name:
            continue
        if "error" in rec:
            return None, "error=%s" % rec["error"]
        value = rec.get(row.key)
        if isinstance(value, float) and value > 0:
            return value, None
        return None, "%s=%r is not a positive number" % (row.key, value)
    return None, "no bench=%s line" % row.name


def run(kernels, groups, rounds, outdir, accel="tcg", out=sys.stdout):
    """Boot everything; return (cells, samples): cells maps (row name,
    kernel name) to a stats.Cell, samples lists every boot's values."""
    cells, samples = {}, []
    for g in groups:
        for row in g.rows:
            for k in kernels:
                cells[(row.name, k.name)] = stats.Cell()
    total = rounds * len(groups) * len(kernels)
    done = 0
    for rnd in range(1, rounds + 1):
        for g in groups:
            for k in kernels:
                done += 1
                workdir = os.path.join(outdir, "boots", "%s-%s-%d" % (k.name, g.name, rnd))
                b = machine.boot(k, g.command, workdir, g.mem, g.disks, g.timeout, accel)
                records = console.parse(b.lines)
                got, notes = {}, []
                for row in g.rows:
                    value, why = value_of(records, row)
                    if b.timed_out and value is None:
                        why = "the boot timed out after %d s" % g.timeout
                    if value is None:
                        cells[(row.name, k.name)].errors.append(why)
                        notes.append("%s: %s" % (row.name, why))
                    else:
                        cells[(row.name, k.name)].add(value)
                        got[row.name] = value
                samples.append({"kernel": k.name, "group": g.name, "round": rnd,
                                "seconds": round(b.seconds, 1), "status": b.status,
                                "values": got, "problems": notes})
                print("bench: [%2d/%d] %-8s %-10s round %d/%d: %5.1f s, %d/%d rows%s"
                      % (done, total, k.name, g.name, rnd, rounds, b.seconds, len(got),
                         len(g.rows), "" if not notes else " (see %s)" % b.log_path),
                      file=out, flush=True)
                for n in notes:
                    print("bench:     " + n, file=out, flush=True)
    return cells, samples


def table(rows, cells, kernels, numerator, denominator):
    """report.py's table: each row's cells, the ratio numerator/denominator
    (kernel names) and whether it meets the row's goal."""
    out = []
    for row in rows:
        ratio = stats.ratio(cells[(row.name, numerator)], cells[(row.name, denominator)]) \
            if (row.name, denominator) in cells else None
        out.append({"row": row.name, "what": row.what, "unit": row.unit,
                    "cells": {k: cells[(row.name, k)].summary() for k in kernels},
                    "ratio": ratio, "goal": row.goal,
                    "goal_met": None if ratio is None else ratio <= row.goal})
    return out
