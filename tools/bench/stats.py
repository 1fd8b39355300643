"""Samples to summaries: N boots give N values per (row, kernel) cell.

A Cell holds one cell's values; summary() gives its median, min, max and
count.  ratio() compares two cells' medians (Pageturn over Linux: below
1.0, Pageturn is faster, every measure being lower-is-better).
"""
import statistics


class Cell:
    def __init__(self):
        self.values = []
        self.errors = []        # what went wrong in boots that gave no value

    def add(self, value):
        self.values.append(value)

    def summary(self):
        """{"median", "min", "max", "n"}; the first three None when empty."""
        v = self.values
        if not v:
            return {"median": None, "min": None, "max": None, "n": 0}
        return {"median": statistics.median(v), "min": min(v), "max": max(v), "n": len(v)}


def ratio(numerator, denominator):
    """numerator's median over denominator's, or None if either is missing."""
    a, b = numerator.summary()["median"], denominator.summary()["median"]
    if a is None or b is None or b <= 0:
        return None
    return a / b
