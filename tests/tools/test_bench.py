"""tools/bench/: the console parser, the aggregation and the reports, on
the serial output of real quick runs (fixtures/bench-*-quick.log, as
QEMU wrote them: CRLF line ends, printk timestamps) and on crafted lines.
No QEMU runs here: runner.run() gets a stand-in for machine.boot()."""
import csv
import json
import lzma
import math
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import console  # noqa: E402
import initramfs  # noqa: E402
import machine  # noqa: E402
import micro  # noqa: E402
import report  # noqa: E402
import runner  # noqa: E402
import stats  # noqa: E402

ROW_NAMES = [r.name for r in micro.ROWS]


def fixture(name):
    with open(os.path.join(HERE, "fixtures", name), "rb") as f:
        return console.lines(f.read())


class ParseTest(unittest.TestCase):
    def test_pageturn_log_has_every_row_in_order(self):
        records = console.parse(fixture("bench-pageturn-quick.log"))
        self.assertEqual([r["bench"] for r in records], ROW_NAMES)
        cold = records[0]
        self.assertEqual(cold["s"], 0.408)
        self.assertEqual(cold["mib"], 16.0)
        self.assertEqual(records[6], {"bench": "null_syscall", "ns_per_op": 216.1,
                                      "ops": 926000.0, "secs": 0.2})

    def test_linux_log_values(self):
        records = {r["bench"]: r for r in console.parse(fixture("bench-linux-quick.log"))}
        self.assertEqual(sorted(records), sorted(ROW_NAMES))
        self.assertEqual(records["fork_exec"]["ms_per_op"], 1.474)
        self.assertEqual(records["ext2_write_sync"]["sync_s"], 0.04)

    def test_lines_are_cleaned(self):
        lines = console.lines(b"\x1b[H\x1b[J[    1.250000] bench=a x=1\r\nplain\r\n")
        self.assertEqual(lines[:2], ["bench=a x=1", "plain"])

    def test_record_after_kernel_text_on_the_same_line(self):
        records = console.parse(["virtio: vda ready bench=pipe_rtt us_per_op=33.5 ops=10"])
        self.assertEqual(records, [{"bench": "pipe_rtt", "us_per_op": 33.5, "ops": 10.0}])

    def test_not_records(self):
        self.assertEqual(console.parse(["bench-done rows=11 errors=0", "mybench=x a=1",
                                        "init: running /usr/bin/microbench"]), [])

    def test_non_numbers_stay_text(self):
        rec = console.parse(["bench=x a=nan b=inf c=ENOENT d=1e3"])[0]
        self.assertEqual(rec["a"], "nan")
        self.assertEqual(rec["b"], "inf")
        self.assertEqual(rec["c"], "ENOENT")
        self.assertEqual(rec["d"], 1000.0)


class ValueTest(unittest.TestCase):
    ROW = runner.Row("file_fault", "us_per_page", "us", "read fault", "micro")

    def test_value(self):
        records = console.parse(["bench=file_fault us_per_page=0.29 pages=5"])
        self.assertEqual(runner.value_of(records, self.ROW), (0.29, None))

    def test_error_line(self):
        records = console.parse(["bench=file_fault error=map.bin errno=2 (No such file)"])
        value, why = runner.value_of(records, self.ROW)
        self.assertIsNone(value)
        self.assertIn("error=map.bin", why)

    def test_missing_zero_nan(self):
        for line in ("bench=other us_per_page=1", "bench=file_fault us_per_page=0",
                     "bench=file_fault us_per_page=nan", "bench=file_fault pages=3"):
            value, why = runner.value_of(console.parse([line]), self.ROW)
            self.assertIsNone(value, line)
            self.assertTrue(why, line)


class StatsTest(unittest.TestCase):
    def test_summary(self):
        c = stats.Cell()
        self.assertEqual(c.summary(), {"median": None, "min": None, "max": None, "n": 0})
        for v in (3.0, 1.0, 2.0, 10.0):
            c.add(v)
        self.assertEqual(c.summary(), {"median": 2.5, "min": 1.0, "max": 10.0, "n": 4})

    def test_ratio(self):
        a, b, empty = stats.Cell(), stats.Cell(), stats.Cell()
        for v in (1.0, 2.0, 3.0):
            a.add(v)
            b.add(2 * v)
        self.assertEqual(stats.ratio(a, b), 0.5)
        self.assertIsNone(stats.ratio(a, empty))
        self.assertIsNone(stats.ratio(empty, b))


class FakeKernel:
    def __init__(self, name, log):
        self.name = name
        self.log = log


class RunTest(unittest.TestCase):
    """runner.run() over boots replayed from the fixtures: Linux's three
    rounds all good, Pageturn's second round timed out."""

    def setUp(self):
        self.saved = machine.boot
        self.calls = []

        def fake_boot(kernel, command, workdir, mem, disks, timeout, accel):
            self.calls.append((kernel.name, command, mem))
            rnd = int(workdir.rsplit("-", 1)[1])
            if kernel.name == "pageturn" and rnd == 2:
                return machine.Boot(["init: running /usr/bin/microbench"], None, timeout,
                                    os.path.join(workdir, "serial.log"))
            return machine.Boot(fixture(kernel.log), 33, 4.0, os.path.join(workdir, "serial.log"))

        machine.boot = fake_boot

    def tearDown(self):
        machine.boot = self.saved

    def test_run_table_and_reports(self):
        kernels = [FakeKernel("linux", "bench-linux-quick.log"),
                   FakeKernel("pageturn", "bench-pageturn-quick.log")]
        rows = micro.ROWS
        groups = micro.make_groups(rows, micro.QUICK, "disk.img", "512M", quick=True)
        self.assertEqual(len(groups), 1)
        for name in ROW_NAMES:
            self.assertIn(" " + name, groups[0].command)
        with tempfile.TemporaryDirectory() as out:
            with open(os.devnull, "w") as quiet:
                cells, samples = runner.run(kernels, groups, 3, out, out=quiet)
            self.assertEqual(len(self.calls), 6)
            self.assertEqual(len(samples), 6)
            self.assertEqual(cells[("null_syscall", "linux")].summary()["n"], 3)
            pt = cells[("null_syscall", "pageturn")]
            self.assertEqual(pt.summary(), {"median": 216.1, "min": 216.1, "max": 216.1, "n": 2})
            self.assertIn("timed out", pt.errors[0])

            table = runner.table(rows, cells, ["linux", "pageturn"], "pageturn", "linux")
            by_row = {r["row"]: r for r in table}
            self.assertTrue(math.isclose(by_row["null_syscall"]["ratio"], 216.1 / 501.1))
            self.assertTrue(by_row["null_syscall"]["goal_met"])
            self.assertTrue(math.isclose(by_row["ext2_cold_read"]["ratio"], 0.408 / 0.086))
            self.assertFalse(by_row["ext2_cold_read"]["goal_met"])

            md = report.write_all(out, "micro", table, ["linux", "pageturn"],
                                  {"linux": "Linux", "pageturn": "Pageturn"},
                                  {"date": "test"}, samples, ["a test run"])
            body = [l for l in md.splitlines() if l.startswith("| ") and "---" not in l]
            self.assertEqual(len(body), 1 + len(rows))
            self.assertIn("| null system call | ns | 501 (501-501) | 216 (216-216) | 0.43x | yes |",
                          md)
            with open(os.path.join(out, "micro.csv")) as f:
                lines = list(csv.DictReader(f))
            self.assertEqual([l["row"] for l in lines], ROW_NAMES)
            self.assertEqual(float(lines[0]["pageturn_median"]), 0.408)
            self.assertEqual(lines[0]["pageturn_n"], "2")
            self.assertEqual(lines[0]["goal_met"], "False")
            with open(os.path.join(out, "micro.json")) as f:
                data = json.load(f)
            self.assertEqual(data["meta"], {"date": "test"})
            self.assertEqual(len(data["samples"]), 6)
            self.assertEqual(data["rows"][6]["cells"]["linux"]["median"], 501.1)

    def test_groups_split_file_rows_from_the_rest(self):
        groups = micro.make_groups(micro.ROWS, micro.FULL, "disk.img", "512M", quick=False)
        self.assertEqual([g.name for g in groups], ["ext2_read", "micro", "ext2_write"])
        self.assertTrue(groups[0].command.endswith(" ext2_cold_read ext2_cached_read"))
        self.assertIn("--write-mib 128 ", groups[2].command)
        self.assertEqual(sum(len(g.rows) for g in groups), len(micro.ROWS))


class ModulesTest(unittest.TestCase):
    """initramfs.module_order() on a modules.dep shaped like Debian 6.1's."""
    DEP = ("kernel/fs/mbcache.ko:\n"
           "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/mbcache.ko kernel/fs/jbd2/jbd2.ko\n"
           "kernel/fs/jbd2/jbd2.ko:\n"
           "kernel/lib/crc16.ko:\n"
           "kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_legacy_dev.ko "
           "kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
           "kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
           "kernel/drivers/virtio/virtio.ko:\n"
           "kernel/drivers/virtio/virtio_ring.ko:\n"
           "kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko "
           "kernel/drivers/virtio/virtio_ring.ko\n"
           "kernel/crypto/crc32c-generic.ko.xz:\n")

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        with open(os.path.join(self.dir.name, "modules.dep"), "w") as f:
            f.write(self.DEP)

    def tearDown(self):
        self.dir.cleanup()

    def test_each_module_after_its_dependencies_once(self):
        order = initramfs.module_order(self.dir.name, ["virtio_pci", "virtio_blk", "ext4",
                                                       "crc32c_generic"])
        self.assertEqual(len(order), len(set(order)))
        self.assertEqual(len(order), 10)
        deps = {l.split(":")[0]: l.split(":")[1].split() for l in self.DEP.splitlines()}
        for i, path in enumerate(order):
            for dep in deps[path]:
                self.assertLess(order.index(dep), i, "%s before %s" % (dep, path))
        self.assertEqual(order[-1], "kernel/crypto/crc32c-generic.ko.xz")

    def test_unknown_module(self):
        with self.assertRaises(RuntimeError):
            initramfs.module_order(self.dir.name, ["no_such_module"])

    def test_compressed_module_copied_plain(self):
        src = os.path.join(self.dir.name, "crc32c-generic.ko.xz")
        with lzma.open(src, "wb") as f:
            f.write(b"\x7fELF module")
        out = os.path.join(self.dir.name, "out")
        os.mkdir(out)
        self.assertEqual(initramfs._copy_module(src, out), "crc32c-generic.ko")
        with open(os.path.join(out, "crc32c-generic.ko"), "rb") as f:
            self.assertEqual(f.read(), b"\x7fELF module")

    def test_no_kernel(self):
        self.assertIsNone(initramfs.find_linux(self.dir.name, self.dir.name))


if __name__ == "__main__":
    unittest.main()
