"""Write a benchmark's table: CSV and JSON files, and a Markdown table.

A table is a list of row dicts:

    {"row": "null_syscall", "what": "null system call", "unit": "ns",
     "cells": {"linux": summary, "pageturn": summary},   (stats.Cell.summary())
     "ratio": 0.34, "goal": 1.0, "goal_met": True}

kernels names the cells' columns in order; meta (a dict: date, versions,
settings) goes into the JSON and above the Markdown table.  ratio and
goal_met are None where a cell has no value.
"""
import csv
import json
import os


def fmt(value):
    """value with three significant digits (none for None)."""
    if value is None:
        return "-"
    if value >= 100:
        return "%.0f" % value
    if value >= 10:
        return "%.1f" % value
    if value >= 1:
        return "%.2f" % value
    return "%.3g" % value


def write_csv(path, table, kernels):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        head = ["row", "unit"]
        for k in kernels:
            head += ["%s_%s" % (k, s) for s in ("median", "min", "max", "n")]
        w.writerow(head + ["ratio", "goal", "goal_met"])
        for r in table:
            line = [r["row"], r["unit"]]
            for k in kernels:
                c = r["cells"][k]
                line += [c["median"], c["min"], c["max"], c["n"]]
            w.writerow(line + [r["ratio"], r["goal"], r["goal_met"]])


def write_json(path, table, kernels, meta, samples):
    with open(path, "w") as f:
        json.dump({"meta": meta, "kernels": kernels, "rows": table, "samples": samples},
                  f, indent=2)
        f.write("\n")


def markdown(table, kernels, labels, meta_lines=()):
    """The Markdown table; labels maps a kernel to its column title."""
    out = ["%s  " % l for l in meta_lines]
    if out:
        out.append("")
    head = ["row", "unit"] + ["%s median (min-max)" % labels.get(k, k) for k in kernels]
    head += ["ratio", "goal met"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "---|" * len(head))
    for r in table:
        cells = []
        for k in kernels:
            c = r["cells"][k]
            cells.append("-" if c["median"] is None else
                         "%s (%s-%s)" % (fmt(c["median"]), fmt(c["min"]), fmt(c["max"])))
        ratio = "-" if r["ratio"] is None else "%.2fx" % r["ratio"]
        met = {True: "yes", False: "no", None: "-"}[r["goal_met"]]
        out.append("| " + " | ".join([r["what"], r["unit"]] + cells + [ratio, met]) + " |")
    return "\n".join(out) + "\n"


def write_all(outdir, name, table, kernels, labels, meta, samples, meta_lines=()):
    """outdir/NAME.csv, NAME.json and NAME.md; returns the Markdown."""
    os.makedirs(outdir, exist_ok=True)
    write_csv(os.path.join(outdir, name + ".csv"), table, kernels)
    write_json(os.path.join(outdir, name + ".json"), table, kernels, meta, samples)
    md = markdown(table, kernels, labels, meta_lines)
    with open(os.path.join(outdir, name + ".md"), "w") as f:
        f.write(md)
    return md
