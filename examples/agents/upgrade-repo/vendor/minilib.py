"""minilib 1.0: the vendored dependency the worked example upgrades."""

VERSION = "1.0"


def total(values):
    return sum(values)
