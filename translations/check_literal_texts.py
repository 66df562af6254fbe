#!/usr/bin/env python3
"""Finds user-visible text the GUI's sources set without tr(), which no translation can reach.

    check_literal_texts.py SOURCE_ROOT

Looks in ui/ and app/gui/ for a text, tool tip, title, placeholder, item, tab or status message given as a
QStringLiteral / QLatin1String / u"" literal that holds English words (three letters or more, after taking out
markup, placeholders and the names listed below), and fails listing each with its file and line. Such a string
belongs in tr() (or QCoreApplication::translate outside a QObject).
"""
import re
import sys
from pathlib import Path

SETTERS = ("setText", "setToolTip", "setStatusTip", "setWhatsThis", "setPlaceholderText", "setWindowTitle",
           "setTitle", "setTitleText", "addItem", "addItems", "insertItem", "setItemText", "setTabText", "addTab",
           "insertTab", "showMessage", "setLabelText", "setHeaderLabels", "setInformativeText", "setDetailedText",
           "setAccessibleName", "setAccessibleDescription", "setSuffix", "setPrefix", "setSpecialValueText",
           "addAction", "addMenu", "setIconText")
CALL = re.compile(r"\b(" + "|".join(SETTERS) + r")\(\s*(?:QStringLiteral\(|QLatin1String\(|QLatin1StringView\(|u)"
                  r"\"((?:[^\"\\]|\\.)*)\"")
# Words that are the same in every language: the product, formats and programs.
NAMES = {"sandbench", "cel", "mcp", "json", "jsonl", "csv", "yaml", "png", "html", "sqlite", "python", "shell",
         "cpu", "rss", "stdout", "stderr", "git", "ctrl", "shift", "alt", "esc"}
TAG = re.compile(r"<[^>]*>|&\w+;")
PLACEHOLDER = re.compile(r"%(?:n|L?\d{1,2})")
WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z]{2,}(?![A-Za-z0-9_])")


def english_words(literal):
    text = PLACEHOLDER.sub(" ", TAG.sub(" ", literal))
    return [w for w in WORD.findall(text) if w.lower() not in NAMES]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = Path(sys.argv[1])
    problems = []
    for folder in ("ui", "app/gui"):
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cpp", ".h"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                for match in CALL.finditer(line):
                    words = english_words(match.group(2))
                    if words:
                        problems.append(f"{path.relative_to(root)}:{number}: {match.group(1)}(\"{match.group(2)}\")"
                                        f" shows {' '.join(words)} untranslated: wrap it in tr()")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} untranslatable text(s)", file=sys.stderr)
        return 1
    print("no untranslatable text set from a literal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
