"""The QEMU integration tests: what each boot must show.

Kernel-side tests run through `test=` (KTAP on the serial console); the
harness checks the QEMU exit status, the boot report and, for the crash
cases, the panic report: vector name, CR2, registers and a backtrace that
names the function that faulted.
"""
import os

from harness import EXIT_PANIC, QemuCase
import fbcheck
import psf

BOOT_REPORT = [
    r"Pageturn \d+\.\d+\.\d+ \(git \S+\)",
    r"boot: firmware (BIOS|UEFI), loader \"GRUB",
    r"boot: command line \"",
    r"mem: \[mem 0x0000000000000000-0x[0-9a-f]{16}\] available",
    r"mem: \d+ MiB available in \d+ ranges",
    r"time: TSC \d+\.\d{3} MHz, calibrated against the PIT",
    r"cpu: \S+ .*NX on",
    r"^KTAP version 1",
]

# The kernel sees about -m minus firmware holes: 512M gives 510-511 MiB.
MEM_512M = r"mem: 5(0\d|1[01]) MiB available"


def all_suites_pass(firmware):
    return BOOT_REPORT + [
        r"boot: firmware %s" % ("UEFI" if firmware == "uefi" else "BIOS"),
        MEM_512M,
        r"cmdline: unknown option 'no_such_option' ignored",
        r"cmdline: loglevel=abc is not a number",
        r"^ok \d+ boot$", r"^ok \d+ timer$", r"^ok \d+ traps$", r"^ok \d+ console$",
        r"# ktest: \d+ suites, 0 failed: PASS",
    ]


def crash(name, victim, report, firmware="bios", rip=None):
    """A deliberate kernel exception: the panic report must name it.
    victim is the function that faults (it must be in the backtrace);
    rip the function the registers were taken in (default: victim)."""
    return QemuCase(
        "crash_%s_%s" % (name, firmware), "test=crash.%s" % name, firmware=firmware,
        status=EXIT_PANIC, timeout=60 if firmware == "bios" else 150,
        expect=report + [
            r"RIP: 0010:ffffffff8[0-9a-f]{7} <%s\+0x[0-9a-f]+>" % (rip or victim),
            r"RAX: [0-9a-f]{16} RBX: [0-9a-f]{16} RCX: [0-9a-f]{16}",
            r"R13: [0-9a-f]{16} R14: [0-9a-f]{16} R15: [0-9a-f]{16}",
            r"Call Trace:",
            r"\[<ffffffff8[0-9a-f]{7}>\] %s\+0x" % victim,
            r"\[<ffffffff8[0-9a-f]{7}>\] ktest_run_from_cmdline\+0x",
            r"\[<ffffffff8[0-9a-f]{7}>\] kmain\+0x",
            r"---\[ end Kernel panic \]---",
        ])


FB_PATTERN = "FBCON-PATTERN The quick brown fox jumps over the lazy dog 0123456789"


def fb_screendump_case(build):
    def grab(session):
        session.screendump("screen.png")
        session.send_serial(b"\n")

    def check(session):
        png = os.path.join(session.workdir, "screen.png")
        if not os.path.exists(png):
            return ["no screendump was taken"]
        with open(os.path.join(build, "font.psf"), "rb") as f:
            font = psf.Font(f.read())
        problems = []
        if fbcheck.find_text(png, font, FB_PATTERN) is None:
            problems.append("%s does not show %r drawn with the console font" % (png, FB_PATTERN))
        if fbcheck.find_text(png, font, "KTAP version 1") is None:
            problems.append("%s does not show the KTAP header" % png)
        return problems

    return QemuCase("fbcon_screendump_uefi", "test=console.fb_screendump", firmware="uefi",
                    timeout=180,
                    expect=[r"FBCON-PATTERN", r"^ok 1 console$"],
                    on_line=[(r"waiting for the host's screendump", grab)],
                    check=check)


def cases(build):
    cmd_all = "test=all loglevel=abc no_such_option=1"
    return [
        QemuCase("boot_bios", cmd_all, expect=all_suites_pass("bios") + [
            r"video: EGA text 80x25 at 0xb8000", r"acpi: RSDP revision \d"]),
        QemuCase("boot_uefi", cmd_all, firmware="uefi", timeout=180,
                 expect=all_suites_pass("uefi") + [
                     r"video: RGB framebuffer \d+x\d+x32 at 0x", r"acpi: RSDP revision 2"]),
        QemuCase("usb_stick_uefi", "test=boot,console", firmware="uefi", medium="usb",
                 timeout=180, expect=BOOT_REPORT + [r"boot: firmware UEFI", r"^ok 1 boot$"]),
        QemuCase("usb_stick_bios", "test=boot,console", medium="usb",
                 expect=BOOT_REPORT + [r"boot: firmware BIOS", r"^ok 1 boot$"]),
        QemuCase("mem_64m_bios", "test=boot", mem="64M",
                 expect=[r"mem: 6[0-3] MiB available", r"^ok 1 boot$"]),
        QemuCase("mem_5g_bios", "test=boot", mem="5G",
                 # q35 keeps 2 GiB below the PCI hole; the other 3 GiB start at 4 GiB.
                 expect=[r"mem: \[mem 0x0000000100000000-0x00000001bfffffff\] available",
                         r"mem: 511\d MiB available in 3 ranges, 3072 MiB above 4 GiB",
                         r"^ok 1 boot$"]),
        fb_screendump_case(build),
        crash("page_fault", "crash_page_fault_victim", [
            r"BUG: unable to handle page fault for address: 00000dead0000bad",
            r"#PF: data write access in kernel mode",
            r"#PF: error_code\(0x0002\) - not-present page",
            r"Oops: Page Fault \(#PF\), error code 0x2, in kernel mode",
            r"CR2: 00000dead0000bad",
            r"Kernel panic - not syncing: Fatal exception: Page Fault \(#PF\)"]),
        crash("page_fault", "crash_page_fault_victim", [
            r"Oops: Page Fault \(#PF\)", r"CR2: 00000dead0000bad"], firmware="uefi"),
        crash("invalid_opcode", "crash_invalid_opcode_victim",
              [r"Oops: Invalid Opcode \(#UD\), error code 0x0, in kernel mode"]),
        crash("divide_error", "crash_divide_error_victim",
              [r"Oops: Divide Error \(#DE\)"]),
        crash("general_protection", "crash_general_protection_victim",
              [r"Oops: General Protection \(#GP\)"]),
        crash("bug_on", "crash_bug_on_victim",
              [r"Kernel panic - not syncing: BUG at kernel/tests/traps_test.c:\d+: impossible"],
              rip="panic"),
        crash("malformed_boot_info", "crash_malformed_boot_info_victim",
              [r"Kernel panic - not syncing: multiboot2: malformed boot information: \S+"],
              rip="panic"),
    ]
