"""Find a line of text in a screenshot of the framebuffer console.

The kernel's fbcon draws character (col, row) at pixel (col * font.width,
row * font.height).  find_text() renders each character of the text from
the same PSF font and looks for a text row and column where every pixel of
every glyph matches the screenshot (lit = any channel above a threshold).
"""
from PIL import Image

LIT_THRESHOLD = 0x50


def _lit_grid(img):
    rgb = img.convert("RGB")
    w, h = rgb.size
    px = rgb.load()
    return w, h, [[max(px[x, y]) > LIT_THRESHOLD for x in range(w)] for y in range(h)]


def _cell_matches(lit, font, bitmap, col, row):
    x0, y0 = col * font.width, row * font.height
    for y in range(font.height):
        line = lit[y0 + y]
        brow = bitmap[y]
        for x in range(font.width):
            if line[x0 + x] != brow[x]:
                return False
    return True


def find_text(png_path, font, text):
    """Return (col, row) where text is drawn, or None."""
    w, h, lit = _lit_grid(Image.open(png_path))
    cols, rows = w // font.width, h // font.height
    bitmaps = [font.bitmap(ch) for ch in text]
    for row in range(rows):
        for col in range(cols - len(text) + 1):
            if all(_cell_matches(lit, font, bitmaps[i], col + i, row)
                   for i in range(len(text))):
                return col, row
    return None


def lit_fraction(png_path):
    w, h, lit = _lit_grid(Image.open(png_path))
    return sum(sum(r) for r in lit) / float(w * h)


def cursor_lines(font):
    """Pixel lines of fbcon's underline cursor (drivers/console/fbcon.c)."""
    return 1 if font.height < 10 else 2


class Screenshot:
    """A screenshot of the framebuffer console read as a grid of character
    cells (cols x rows), its pixels sorted into lit and unlit once.

    fbcon draws its cursor by inverting the bottom lines of a cell, which
    no glyph of the font lights whole: cursors lists the cells whose
    bottom cursor_lines(font) lines are lit from edge to edge, a cursor
    over a blank cell, and those lines are read as unlit again, so the
    cell reads as blank.  (Over a glyph with pixels in those lines the
    cursor shows as their inverse and is not recognised.)"""

    def __init__(self, png_path, font):
        self.font = font
        w, h, self.lit = _lit_grid(Image.open(png_path))
        self.cols, self.rows = w // font.width, h // font.height
        self.cursors = []
        n = cursor_lines(font)
        for row in range(self.rows):
            ys = range((row + 1) * font.height - n, (row + 1) * font.height)
            for col in range(self.cols):
                xs = range(col * font.width, (col + 1) * font.width)
                if all(self.lit[y][x] for y in ys for x in xs):
                    self.cursors.append((col, row))
                    for y in ys:
                        for x in xs:
                            self.lit[y][x] = False

    def shows_at(self, text, col, row):
        """Is text drawn with its first character in cell (col, row)?"""
        if row >= self.rows or col + len(text) > self.cols:
            return False
        return all(_cell_matches(self.lit, self.font, self.font.bitmap(ch), col + i, row)
                   for i, ch in enumerate(text))

    def blank_from(self, col, row):
        """Is every pixel of row's cells from col to the end of the row unlit?"""
        w = self.cols * self.font.width
        return all(not any(self.lit[y][col * self.font.width:w])
                   for y in range(row * self.font.height, (row + 1) * self.font.height))

    def line_is(self, row, text):
        """Does row show exactly text from its first column, and nothing after?"""
        return self.shows_at(text, 0, row) and self.blank_from(len(text), row)
