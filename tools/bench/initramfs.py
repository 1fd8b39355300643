"""The Linux side of the bench: Debian's kernel and an initramfs for it.

    linux = find_linux()            # Debian's linux-image-amd64, or None
    build_initramfs(linux, out, programs)

The initramfs holds Debian's static busybox (/bin/busybox, its applets
installed as links by /init), the modules a virtio-blk ext2 disk needs
(virtio_pci, virtio_blk, and ext4, which Debian builds with
CONFIG_EXT4_USE_FOR_EXT2 so it registers "ext2" too), with every module
they depend on from modules.dep, loaded in dependency order; the bench's
programs at the paths they have in Pageturn's root image; and /init (a
busybox shell script, init.sh beside this file).  /init mounts what
Pageturn's init mounts (devtmpfs on /dev, proc, tmpfs on /tmp), opens
/dev/console, runs the words after " -- " on the kernel command line as a
command, and powers off.  The archive is made by Debian's cpio (newc) from
a staging folder, so it needs no device nodes: /init opens the console
once devtmpfs is up.
"""
import glob
import lzma
import os
import re
import shutil
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
# Modules loaded at boot, by name; their dependencies come from modules.dep.
MODULES = ["virtio_pci", "virtio_blk", "crc32c_generic", "ext4"]


class Linux:
    """An installed Debian kernel: version, vmlinuz, modules folder."""

    def __init__(self, version, vmlinuz, moddir):
        self.version = version
        self.vmlinuz = vmlinuz
        self.moddir = moddir

    def __repr__(self):
        return "Linux %s (%s)" % (self.version, self.vmlinuz)


def _version_key(version):
    return [int(x) if x.isdigit() else x for x in re.split(r"[.-]", version)]


def find_linux(boot="/boot", modules="/lib/modules"):
    """The newest /boot/vmlinuz-VERSION with /lib/modules/VERSION, or None."""
    found = []
    for path in glob.glob(os.path.join(boot, "vmlinuz-*")):
        version = os.path.basename(path)[len("vmlinuz-"):]
        moddir = os.path.join(modules, version)
        if os.path.exists(os.path.join(moddir, "modules.dep")):
            found.append(Linux(version, path, moddir))
    found.sort(key=lambda l: _version_key(l.version))
    return found[-1] if found else None


def module_order(moddir, names):
    """Relative paths (as modules.dep names them) of the modules names and
    everything they depend on, each after its dependencies."""
    deps, by_name = {}, {}
    with open(os.path.join(moddir, "modules.dep")) as f:
        for line in f:
            path, _, rest = line.partition(":")
            deps[path] = rest.split()
            base = os.path.basename(path).split(".ko")[0]
            by_name[base] = by_name[base.replace("-", "_")] = path
    order, seen = [], set()

    def visit(path):
        if path in seen:
            return
        seen.add(path)
        for dep in deps.get(path, []):
            visit(dep)
        order.append(path)

    for name in names:
        if name not in by_name:
            raise RuntimeError("no module %s in %s/modules.dep" % (name, moddir))
        visit(by_name[name])
    return order


def _copy_module(src, dst_dir):
    """Copy a module as a plain .ko (busybox's insmod may not read
    compressed ones); return its file name."""
    base = os.path.basename(src)
    if base.endswith(".ko.xz"):
        name = base[:-3]
        with lzma.open(src) as fin, open(os.path.join(dst_dir, name), "wb") as fout:
            shutil.copyfileobj(fin, fout)
    elif base.endswith(".ko.zst"):
        name = base[:-4]
        subprocess.run(["zstd", "-q", "-d", "-f", src, "-o", os.path.join(dst_dir, name)],
                       check=True)
    elif base.endswith(".ko"):
        name = base
        shutil.copyfile(src, os.path.join(dst_dir, name))
    else:
        raise RuntimeError("%s: a module compressed in a way this does not know" % src)
    return name


def build_initramfs(linux, out, programs, busybox="/bin/busybox"):
    """Write the initramfs for linux to out.  programs maps paths in the
    image (e.g. "usr/bin/microbench") to host files."""
    stage = out + ".d"
    shutil.rmtree(stage, ignore_errors=True)
    for d in ("bin", "sbin", "dev", "proc", "sys", "tmp", "mnt", "lib/modules"):
        os.makedirs(os.path.join(stage, d))
    os.chmod(os.path.join(stage, "tmp"), 0o1777)
    shutil.copy(busybox, os.path.join(stage, "bin", "busybox"))
    os.symlink("busybox", os.path.join(stage, "bin", "sh"))
    shutil.copy(os.path.join(HERE, "init.sh"), os.path.join(stage, "init"))
    os.chmod(os.path.join(stage, "init"), 0o755)
    names = [_copy_module(os.path.join(linux.moddir, rel), os.path.join(stage, "lib", "modules"))
             for rel in module_order(linux.moddir, MODULES)]
    with open(os.path.join(stage, "lib", "modules", "load-order"), "w") as f:
        f.write("".join(n + "\n" for n in names))
    for dst, src in programs.items():
        path = os.path.join(stage, dst)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shutil.copy(src, path)
        os.chmod(path, 0o755)
    files = []
    for dirpath, dirnames, filenames in os.walk(stage):
        for name in sorted(dirnames) + sorted(filenames):
            files.append(os.path.relpath(os.path.join(dirpath, name), stage))
    with open(out, "wb") as f:
        subprocess.run(["cpio", "--quiet", "-o", "-H", "newc", "--owner=0:0"],
                       input="".join(p + "\n" for p in sorted(files)).encode(),
                       cwd=stage, stdout=f, check=True)
    shutil.rmtree(stage)
    return out
