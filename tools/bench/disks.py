"""Disk images for benchmarks: ext2 made by mke2fs -d from generated files.

ext2_image(path, files, size_mib) makes path (unless it exists with the
same recipe) from files, a dict of name -> size in bytes; each file holds
deterministic bytes with no zero pages, so no filesystem can store it as
holes (or the bytes a fill function given makes: the hogs' own files).
swap_image(path, size_mib) is a swap area made by mkswap.  The recipe is kept beside the image (path + ".recipe"), so a
changed size remakes it.  Boots use copies (machine.boot()), never the
image itself.
"""
import json
import os
import random
import shutil
import subprocess

CHUNK = 1 << 20


def e2tool(name):
    """The path of a tool from /sbin (mke2fs, mkswap), for users without it on PATH."""
    for path in (shutil.which(name), "/usr/sbin/" + name, "/sbin/" + name):
        if path and os.path.exists(path):
            return path
    raise RuntimeError("%s not found (install e2fsprogs and util-linux: make deps)" % name)


def _fill(path, size, seed):
    """size bytes: 1 MiB of seeded random bytes, each copy's first 8
    bytes its index, so no two MiB are alike."""
    block = bytearray(random.Random(seed).randbytes(CHUNK))
    with open(path, "wb") as f:
        for i in range(0, size, CHUNK):
            block[:8] = (i // CHUNK + 1).to_bytes(8, "little")
            f.write(block[:min(CHUNK, size - i)])


def ext2_image(path, files, size_mib, block_size=4096, fill=None, tag=""):
    """fill(path, size, index), if given, makes each file instead of
    _fill; tag names it in the recipe (what would change its bytes)."""
    fill = fill or _fill
    recipe = json.dumps({"files": files, "size_mib": size_mib, "block_size": block_size,
                         "fill": tag}, sort_keys=True)
    recipe_path = path + ".recipe"
    if os.path.exists(path) and os.path.exists(recipe_path):
        with open(recipe_path) as f:
            if f.read() == recipe:
                return path
    stage = path + ".d"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    for i, (name, size) in enumerate(sorted(files.items())):
        fill(os.path.join(stage, name), size, i)
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run([e2tool("mke2fs"), "-q", "-F", "-t", "ext2", "-b", str(block_size),
                    "-d", stage, path, "%dM" % size_mib], check=True, stdout=subprocess.DEVNULL)
    shutil.rmtree(stage)
    with open(recipe_path, "w") as f:
        f.write(recipe)
    return path


def swap_image(path, size_mib):
    """A swap area of size_mib MiB made by mkswap (util-linux), unless
    path is one already (the recipe, as for ext2_image)."""
    recipe = json.dumps({"swap_mib": size_mib})
    recipe_path = path + ".recipe"
    if os.path.exists(path) and os.path.exists(recipe_path):
        with open(recipe_path) as f:
            if f.read() == recipe:
                return path
    with open(path, "wb") as f:
        f.truncate(size_mib << 20)
    subprocess.run([e2tool("mkswap"), "-q", path], check=True)
    with open(recipe_path, "w") as f:
        f.write(recipe)
    return path
