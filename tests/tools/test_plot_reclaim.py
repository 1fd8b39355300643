"""tools/plot-reclaim: its parser on crafted lines, and the tool itself on
a recorded trace (fixtures/trace-tmpfs-64m.log.gz: the serial log of
Pageturn booted with -m 64M and a swap disk, running
`reclaim-trace -b 1024 dd if=/dev/zero of=/tmp/f bs=1M count=60`, as QEMU
wrote it: boot messages, CRLF line ends, the trace between reclaim-trace's
markers)."""
import importlib.machinery
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TOOL = os.path.join(ROOT, "tools", "plot-reclaim")
FIXTURE = os.path.join(HERE, "fixtures", "trace-tmpfs-64m.log.gz")
CHARTS = ("lru.png", "scan_steal.png", "swap.png", "kswapd.png")

loader = importlib.machinery.SourceFileLoader("plot_reclaim", TOOL)
spec = importlib.util.spec_from_loader("plot_reclaim", loader)
plot_reclaim = importlib.util.module_from_spec(spec)
loader.exec_module(plot_reclaim)


def run(*args):
    return subprocess.run([sys.executable, TOOL] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def sample(ts, zid, free, ia=0, aa=0, inf=0, af=0):
    return ("          <idle>-0       [000] d.h.. %12.6f: mm_lru_sample: nid=0 zid=%d zone=Z "
            "nr_free_pages=%d nr_inactive_anon=%d nr_active_anon=%d nr_inactive_file=%d "
            "nr_active_file=%d nr_unevictable=0" % (ts, zid, free, ia, aa, inf, af))


class ParseTest(unittest.TestCase):
    def test_lines_among_console_text(self):
        events = plot_reclaim.parse([
            "[    1.000000] VFS: Mounted root\r\n",
            "# tracer: nop\r\n",
            "   reclaim-trace-5       [000] ..... 12.000100: mm_vmscan_kswapd_sleep: nid=0\r\n",
            "\x1b[H  my-prog 2-1234567 [000] d.... 11.500000: mm_vmscan_lru_shrink_inactive: "
            "nid=0 nr_scanned=32 nr_reclaimed=30 priority=12 "
            "flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n",
            "not a trace line: foo-1 [000]\n",
        ])
        self.assertEqual([e.name for e in events],
                         ["mm_vmscan_lru_shrink_inactive", "mm_vmscan_kswapd_sleep"])
        shrink = events[0]
        self.assertEqual((shrink.comm, shrink.pid, shrink.ts), ("my-prog 2", 1234567, 11.5))
        self.assertEqual(shrink.fields["flags"], "RECLAIM_WB_FILE|RECLAIM_WB_ASYNC")
        self.assertEqual(plot_reclaim.reclaim_type(shrink.fields["flags"]), "file")
        self.assertEqual(events[1].comm, "reclaim-trace")

    def test_samples_sum_over_the_zones_of_a_tick(self):
        events = plot_reclaim.parse([sample(1.00, 0, 10, ia=1), sample(1.00001, 1, 100, ia=5),
                                     sample(1.01, 0, 11, ia=2), sample(1.01001, 1, 90, ia=7)])
        times, sums = plot_reclaim.lru_series(events, 1.0)
        self.assertEqual(len(times), 2)
        self.assertEqual(sums["nr_free_pages"], [110, 101])
        self.assertEqual(sums["nr_inactive_anon"], [6, 9])

    def test_rates_and_spans(self):
        x, rates = plot_reclaim.per_second([(0.0, 3), (0.5, 2), (1.2, 4)], 0.0, 30.0)
        self.assertEqual((x[:2], rates[:2]), ([0.0, 1.0], [5.0, 4.0]))
        x, rates = plot_reclaim.per_second([(0.0, 3), (0.15, 2)], 0.0, 2.0)
        self.assertEqual((x[1], rates[0], rates[1]), (0.1, 30.0, 20.0))
        events = plot_reclaim.parse([
            "kswapd0-3 [000] ..... 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0",
            "kswapd0-3 [000] d.... 1.250000: mm_vmscan_kswapd_sleep: nid=0",
            "kswapd0-3 [000] ..... 2.000000: mm_vmscan_kswapd_wake: nid=0 order=0",
            "kswapd0-3 [000] ..... 3.000000: mm_vmscan_lru_shrink_active: nid=0"])
        self.assertEqual(plot_reclaim.spans(events, "mm_vmscan_kswapd_wake",
                                            "mm_vmscan_kswapd_sleep")[None],
                         [(1.0, 0.25), (2.0, 1.0)])


class ToolTest(unittest.TestCase):
    def test_recorded_trace_makes_four_charts(self):
        from PIL import Image
        with tempfile.TemporaryDirectory() as out:
            p = run(FIXTURE, "-o", os.path.join(out, "charts"), "--title", "fixture")
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("mm_vmscan_lru_shrink_inactive 388", p.stdout)
            for name in CHARTS:
                path = os.path.join(out, "charts", name)
                self.assertIn("wrote " + path, p.stdout)
                with Image.open(path) as im:
                    self.assertEqual(im.format, "PNG")
                    self.assertGreaterEqual(im.size[0], 800)
                    # Data drawn in colour, not a grey canvas that says "no
                    # events" (whose text and axes have no saturated pixel).
                    colours = im.convert("RGB").getcolors(maxcolors=1 << 24)
                    drawn = sum(n for n, (r, g, b) in colours if max(r, g, b) - min(r, g, b) > 80)
                    self.assertGreater(drawn, 2000, "%s: %d coloured pixels" % (name, drawn))

    def test_a_chart_without_its_events_says_so(self):
        from PIL import Image
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "victims.log")
            with open(path, "w") as f:
                f.write("   x-1 [000] ..... 1.000000: mark_victim: pid=3\n")
            p = run(path, "-o", out)
            self.assertEqual(p.returncode, 0, p.stderr)
            with Image.open(os.path.join(out, "lru.png")) as im:
                colours = im.convert("RGB").getcolors(maxcolors=1 << 24)
                self.assertFalse([c for n, c in colours if max(c) - min(c) > 80])

    def test_a_file_without_trace_lines_is_an_error(self):
        with tempfile.TemporaryDirectory() as out:
            path = os.path.join(out, "boot.log")
            with open(path, "w") as f:
                f.write("[    0.000000] Booting Pageturn\ninit: powering off\n")
            p = run(path, "-o", os.path.join(out, "charts"))
            self.assertEqual(p.returncode, 1)
            self.assertIn("no trace lines", p.stderr)
            self.assertFalse(os.path.exists(os.path.join(out, "charts")))

    def test_help(self):
        p = run("--help")
        self.assertEqual(p.returncode, 0)
        self.assertIn("--output-dir", p.stdout)
        self.assertIn("scan_steal.png", p.stdout)


if __name__ == "__main__":
    unittest.main()
