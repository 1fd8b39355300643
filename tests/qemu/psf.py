"""Read a PSF1/PSF2 console font on the host, the way the kernel's
drivers/console/psf.c does, so a screenshot can be compared with glyphs
rendered from the very font the kernel drew with."""
import struct


class Font:
    def __init__(self, data):
        if data[:2] == b"\x36\x04":
            mode, height = data[2], data[3]
            self.nr = 512 if mode & 0x01 else 256
            self.width, self.height, self.stride = 8, height, height
            self.glyphs = data[4:4 + self.nr * height]
            table = data[4 + self.nr * height:] if mode & 0x06 else None
            self.map = self._psf1_map(table) if table else None
        elif data[:4] == b"\x72\xb5\x4a\x86":
            (_, hsize, flags, nr, size, height, width) = struct.unpack_from("<7I", data, 4)
            self.nr, self.width, self.height, self.stride = nr, width, height, size
            self.glyphs = data[hsize:hsize + nr * size]
            table = data[hsize + nr * size:] if flags & 1 else None
            self.map = self._psf2_map(table) if table else None
        else:
            raise ValueError("not a PSF font")
        self.row_bytes = (self.width + 7) // 8

    def _psf1_map(self, table):
        m, glyph, i, in_seq = {}, 0, 0, False
        while glyph < self.nr and i + 1 < len(table):
            (u,) = struct.unpack_from("<H", table, i)
            i += 2
            if u == 0xFFFF:
                glyph, in_seq = glyph + 1, False
            elif u == 0xFFFE:
                in_seq = True
            elif not in_seq and u < 256:
                m.setdefault(u, glyph)
        return m

    def _psf2_map(self, table):
        m = {}
        for glyph, entry in enumerate(table.split(b"\xff")[:self.nr]):
            single = entry.split(b"\xfe")[0]
            for ch in single.decode("utf-8", "replace"):
                if ord(ch) < 256:
                    m.setdefault(ord(ch), glyph)
        return m

    def glyph_index(self, ch):
        c = ord(ch)
        if self.map is None:
            return c
        return self.map.get(c, self.map.get(ord("?"), 0))

    def bitmap(self, ch):
        """The glyph as a list of rows, each a list of booleans."""
        g = self.glyph_index(ch) * self.stride
        rows = []
        for y in range(self.height):
            bits = self.glyphs[g + y * self.row_bytes:g + (y + 1) * self.row_bytes]
            rows.append([bool(bits[x // 8] & (0x80 >> (x % 8))) for x in range(self.width)])
        return rows
