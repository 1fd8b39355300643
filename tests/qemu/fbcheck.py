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


class Screenshot:
    """A screenshot of the framebuffer console read as a grid of character
    cells (cols x rows), its pixels sorted into lit and unlit once."""

    def __init__(self, png_path, font):
        self.font = font
        w, h, self.lit = _lit_grid(Image.open(png_path))
        self.cols, self.rows = w // font.width, h // font.height

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
