"""Disk images for benchmarks: ext2 made by mke2fs -d from generated files.

ext2_image(path, files, size_mib) makes path (unless it exists with the
same recipe) from files, a dict of name -> size in bytes; each file holds
deterministic bytes with no zero pages, so no filesystem can store it as
holes.  The recipe is kept beside the image (path + ".recipe"), so a
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
    for path in (shutil.which(name), "/usr/sbin/" + name, "/sbin/" + name):
        if path and os.path.exists(path):
            return path
    raise RuntimeError("%s not found (install e2fsprogs: make deps)" % name)


def _fill(path, size, seed):
    """size bytes: 1 MiB of seeded random bytes, each copy's first 8
    bytes its index, so no two MiB are alike."""
    block = bytearray(random.Random(seed).randbytes(CHUNK))
    with open(path, "wb") as f:
        for i in range(0, size, CHUNK):
            block[:8] = (i // CHUNK + 1).to_bytes(8, "little")
            f.write(block[:min(CHUNK, size - i)])


def ext2_image(path, files, size_mib, block_size=4096):
    recipe = json.dumps({"files": files, "size_mib": size_mib, "block_size": block_size},
                        sort_keys=True)
    recipe_path = path + ".recipe"
    if os.path.exists(path) and os.path.exists(recipe_path):
        with open(recipe_path) as f:
            if f.read() == recipe:
                return path
    stage = path + ".d"
    shutil.rmtree(stage, ignore_errors=True)
    os.makedirs(stage)
    for i, (name, size) in enumerate(sorted(files.items())):
        _fill(os.path.join(stage, name), size, i)
    if os.path.exists(path):
        os.unlink(path)
    subprocess.run([e2tool("mke2fs"), "-q", "-F", "-t", "ext2", "-b", str(block_size),
                    "-d", stage, path, "%dM" % size_mib], check=True)
    shutil.rmtree(stage)
    with open(recipe_path, "w") as f:
        f.write(recipe)
    return path
