"""tools/bench/reclaim.py, the hogs' reclaim suite: its parser on the
serial output of real quick runs on each kernel
(fixtures/reclaim-KERNEL-quick.log, as QEMU wrote them), on crafted
failures, and its tables and goals on made-up cells.  No QEMU runs here."""
import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import console  # noqa: E402
import reclaim  # noqa: E402
import stats  # noqa: E402

STREAM = [w for w in reclaim.WORKLOADS if w.name == "stream"][0]


def fixture(kernel):
    with open(os.path.join(HERE, "fixtures", "reclaim-%s-quick.log" % kernel), "rb") as f:
        return console.lines(f.read())


def snapshot(lines, tag):
    """/proc/vmstat of the line bench=TAG, read here with a regex of its
    own rather than console.parse."""
    for line in lines:
        if line.startswith("bench=%s " % tag):
            return {k: int(v) for k, v in re.findall(r" (\w+)=(\d+)", line)}
    raise AssertionError("no bench=%s line" % tag)


class ParseBootTest(unittest.TestCase):
    def test_each_kernel_gives_every_metric(self):
        for kernel in ("linux", "split", "single"):
            lines = fixture(kernel)
            values, problems = reclaim.parse_boot(lines, STREAM)
            self.assertEqual(problems, [], kernel)
            before, after = snapshot(lines, "stream.vm0"), snapshot(lines, "stream.vm1")
            for metric in ("pgscan_file", "pgsteal_file", "pswpout", "pgmajfault"):
                self.assertEqual(values[metric], after[metric] - before[metric], (kernel, metric))
            self.assertEqual(values["steal/scan"],
                             (values["pgsteal_anon"] + values["pgsteal_file"]) /
                             (values["pgscan_anon"] + values["pgscan_file"]))
            self.assertGreater(values["pgscan_file"], 0, kernel)

    def test_split_values(self):
        lines = fixture("split")
        values, _ = reclaim.parse_boot(lines, STREAM)
        self.assertEqual(values["wall"], 0.886)
        self.assertEqual(values["hot_after_ms"], 12.0)
        self.assertEqual(values["stream_ms"], 666.0)
        before, after = snapshot(lines, "stream.vm0"), snapshot(lines, "stream.vm1")
        ticks = after["kswapd_ticks"] - before["kswapd_ticks"]
        steal = after["kswapd_steal"] - before["kswapd_steal"]
        self.assertEqual(values["kswapd_cpu_ms"], ticks * 10)
        self.assertEqual(values["kswapd_steal"], steal)
        self.assertAlmostEqual(values["kswapd_us/page"], ticks * 10000 / steal)

    def test_desktop_takes_its_own_line_not_its_workers(self):
        desktop = [w for w in reclaim.WORKLOADS if w.name == "desktop"][0]
        with open(os.path.join(HERE, "fixtures", "reclaim-split-desktop.log"), "rb") as f:
            lines = console.lines(f.read())
        self.assertEqual(sum(1 for l in lines if l.startswith("bench=desktop exit=0 hog=")), 6)
        values, problems = reclaim.parse_boot(lines, desktop)
        self.assertEqual(problems, [])
        self.assertEqual(values["wall"], 2.482)

    def test_per_zone_counters_are_summed(self):
        lines = fixture("linux")
        before, after = snapshot(lines, "stream.vm0"), snapshot(lines, "stream.vm1")
        want = sum(after[k] - before[k] for k in after if k.startswith("allocstall_"))
        values, _ = reclaim.parse_boot(lines, STREAM)
        self.assertEqual(values["allocstall"], want)
        lines = fixture("split")
        before, after = snapshot(lines, "stream.vm0"), snapshot(lines, "stream.vm1")
        want = sum(after[k] - before[k] for k in after if k.startswith("pgrefill_"))
        values, _ = reclaim.parse_boot(lines, STREAM)
        self.assertEqual(values["pgrefill"], want)
        self.assertGreater(want, 0)

    def test_vm_sum(self):
        rec = {"bench": "x", "pgrefill_dma": 2.0, "pgrefill_dma32": 5.0, "pgrefill": 1.0,
               "pgrefilled": 100.0, "allocstall": 3.0}
        self.assertEqual(reclaim.vm_sum(rec, ["pgrefill", "pgrefill_*"]), 8.0)
        self.assertEqual(reclaim.vm_sum(rec, ["allocstall", "allocstall_*"]), 3.0)

    def test_failures_give_no_values(self):
        lines = fixture("split")
        mismatch = [l.replace("mismatches=0 result=ok", "mismatches=3 result=FAIL")
                    .replace("bench=stream exit=0", "bench=stream exit=1") for l in lines]
        values, problems = reclaim.parse_boot(mismatch, STREAM)
        self.assertEqual(values, {})
        self.assertIn("the hog ended with exit=1.0 result=FAIL", problems)
        values, problems = reclaim.parse_boot([l for l in lines if "stream.vm1" not in l],
                                              STREAM)
        self.assertEqual(values, {})
        self.assertIn("1 and 0 vmstat snapshots, not one each", problems)
        values, problems = reclaim.parse_boot(["bench=stream error=swapon"], STREAM)
        self.assertEqual((values, problems), ({}, ["error=swapon"]))
        values, problems = reclaim.parse_boot([l for l in lines if not l.startswith(
            "bench=stream ")], STREAM)
        self.assertEqual(problems, ["0 result lines of hog=stream for stream, not one"])


def cells_of(table):
    """{(workload, metric, kernel): Cell} from {(w, m, k): [values]}."""
    cells = {}
    for key, values in table.items():
        cells[key] = stats.Cell()
        for v in values:
            cells[key].add(v)
    return cells


class GoalsTest(unittest.TestCase):
    def sample(self, kernel, ok=True):
        return {"kernel": kernel, "workload": "stream", "problems": [] if ok else ["x"]}

    def test_stream_goals(self):
        cells = cells_of({
            ("stream", "wall", "linux"): [10, 12, 11], ("stream", "wall", "split"): [9, 10, 11],
            ("stream", "wall", "single"): [20],
            ("stream", "steal/scan", "linux"): [0.5], ("stream", "steal/scan", "split"): [0.9],
            ("stream", "pgscan_anon", "split"): [10], ("stream", "pgscan_anon", "single"): [150],
            ("stream", "hot_after_ms", "split"): [100], ("stream", "hot_after_ms", "single"): [150],
        })
        samples = [self.sample("linux"), self.sample("split"), self.sample("single", False)]
        goals = {g["goal"]: g for g in reclaim.goals(cells, samples, [STREAM],
                                                     ["linux", "split", "single"])}
        self.assertTrue(goals["every workload finishes with verified data on split"]["met"])
        self.assertFalse(goals["every workload finishes with verified data on single"]["met"])
        wall = goals["stream: split no slower than Linux (wall, split/Linux)"]
        self.assertEqual((wall["value"], wall["met"]), ("0.91x", True))
        self.assertTrue(goals["stream: split's steal/scan at least Linux's"]["met"])
        anon = goals["stream: split scans at least 10x fewer anon pages than single"]
        self.assertEqual((anon["value"], anon["met"]), ("10 vs 150", True))
        hot = goals["stream: the hot set's pass after the stream at least 2x faster under split"]
        self.assertEqual((hot["value"], hot["met"]), ("1.50x", False))

    def test_nothing_scanned_shows_nothing(self):
        cells = cells_of({("stream", "pgscan_anon", "split"): [0],
                          ("stream", "pgscan_anon", "single"): [0]})
        goals = {g["goal"]: g for g in reclaim.goals(cells, [], [STREAM], ["split", "single"])}
        anon = goals["stream: split scans at least 10x fewer anon pages than single"]
        self.assertIsNone(anon["met"])

    def test_without_linux_no_linux_goals(self):
        goals = reclaim.goals({}, [], [STREAM], ["split", "single"])
        self.assertFalse([g for g in goals if "Linux" in g["goal"]])


class TableTest(unittest.TestCase):
    def test_markdown_rows_and_ratios(self):
        cells = cells_of({("stream", "wall", "linux"): [2.0], ("stream", "wall", "split"): [1.0],
                          ("stream", "wall", "single"): [4.0]})
        tabs = reclaim.tables(cells, [STREAM], ["linux", "split", "single"])
        rows = {r["metric"]: r for r in tabs["stream"]}
        self.assertEqual(list(rows)[:1 + len(STREAM.phases)], ["wall"] + STREAM.phases)
        self.assertEqual(rows["wall"]["split/linux"], 0.5)
        self.assertEqual(rows["wall"]["split/single"], 0.25)
        self.assertIsNone(rows["pgscan_anon"]["split/linux"])
        md = reclaim.markdown(tabs, [], [STREAM], ["linux", "split", "single"],
                              {"linux": "Linux", "split": "split", "single": "single"}, ["m"])
        self.assertIn("| wall | s | 2.00 (2.00-2.00) | 1.00 (1.00-1.00) | 4.00 (4.00-4.00) "
                      "| 0.50x | 0.25x |", md)

    def test_command_sizes_follow_the_ram(self):
        cmd = reclaim.command(STREAM, 256, 1001)
        self.assertEqual(cmd, "/bin/sh /usr/lib/bench/reclaim.sh stream /usr/bin/hog-stream "
                         "--file /mnt/stream.dat --file-size 512M --hot 64M --seed 1001 --quiet")
        self.assertNotIn(" -- ", cmd)
        self.assertTrue(reclaim.command(STREAM, 256, 1001, trace=True).startswith(
            "/bin/sh /usr/lib/bench/reclaim.sh -t stream /usr/bin/hog-stream "))


if __name__ == "__main__":
    unittest.main()
