#!/usr/bin/env python3
"""Checks that every translation is complete and agrees with the sources.

    check_translations.py LUPDATE SOURCE_LIST TS... [-- LUPDATE_OPTION...]

SOURCE_LIST names the GUI's source files, one a line (translations/CMakeLists.txt writes it). lupdate, with the
options after "--" (those of update_translations), updates a temporary copy of each .ts from those sources, so the committed files are never touched, and this
fails, listing each message with its file, context and source text, when:
- a string of the sources has no finished translation (new, unfinished or empty);
- the committed file lacks a string the sources use, or keeps one they no longer use (lupdate would change it);
- a translation drops or adds a placeholder (%1..%99, %n; in core's patterns, {} and {0}..{99}) or, where the
  source has a keyboard accelerator (&File), has none;
- a plural message (numerus) lacks a form of the language.

To refresh the .ts files from the sources: cmake --build build/dev --target update_translations
(or lupdate by hand, as this script runs it).
"""
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

PLACEHOLDER = re.compile(r"%(?:n|L?\d{1,2})")
# The plural forms of each language shipped (Qt's numerus rules); a new language is added here.
PLURAL_FORMS = {"de": 2, "zh": 1}
# An accelerator: an ampersand before a letter or digit, not the escaped "&&".
ACCELERATOR = re.compile(r"(?<!&)&(?!&)[^\s&;]")


def messages(path):
    """(context, source, comment) -> message element, for each message of a .ts file."""
    result = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name", "")
        for message in context.iter("message"):
            key = (name, message.findtext("source", ""), message.findtext("comment", ""))
            result[key] = message
    return result


# A placeholder of core's patterns (util/message.h): "{}" takes the next argument, "{N}" the N-th; "{{" and "}}"
# are braces.
BRACE = re.compile(r"\{\{|\}\}|\{(\d{0,2})\}")


def placeholders(text):
    found = set(m.replace("%L", "%") for m in PLACEHOLDER.findall(text))
    following = 0
    for match in BRACE.finditer(text):
        if match.group(0) in ("{{", "}}"):
            continue
        if match.group(1):
            found.add("{%s}" % int(match.group(1)))
        else:
            found.add("{%d}" % following)
            following += 1
    return sorted(found)


def has_accelerator(text):
    # "&amp;" in the XML is one "&" here; an entity such as "&nbsp;" is not an accelerator.
    return ACCELERATOR.search(text) is not None


def check_message(ts_name, key, message, plural_forms):
    context, source, _ = key
    where = f"{ts_name}: [{context}] {source!r}"
    translation = message.find("translation")
    kind = translation.get("type", "") if translation is not None else "missing"
    if kind in ("unfinished", "missing"):
        text = "".join(translation.itertext()).strip() if translation is not None else ""
        return [f"{where}: {'unfinished' if text else 'not translated'}"]
    if kind in ("vanished", "obsolete"):
        return [f"{where}: no longer in the sources"]
    problems = []
    if message.get("numerus") == "yes":
        forms = [form.text or "" for form in translation.iter("numerusform")]
        if len(forms) != plural_forms:
            problems.append(f"{where}: {len(forms)} plural form(s), the language has {plural_forms}")
    else:
        forms = [translation.text or ""]
    expected = placeholders(source)
    for form in forms:
        if not form.strip():
            problems.append(f"{where}: a plural form is empty")
            continue
        found = placeholders(form)
        # A plural form may leave out %n where the language says the number in words ("one file").
        if message.get("numerus") == "yes" and "%n" not in found:
            found = sorted(set(found) | {"%n"})
        if found != expected:
            problems.append(f"{where}: placeholders {found} in {form!r}, the source has {expected}")
        if has_accelerator(source) and not has_accelerator(form):
            problems.append(f"{where}: the translation {form!r} has no keyboard accelerator (&)")
    return problems


def check(lupdate, options, sources, ts_path, workdir):
    updated = Path(workdir) / ts_path.name
    shutil.copyfile(ts_path, updated)
    run = subprocess.run([lupdate, *options, "-silent", f"@{sources}", "-ts", str(updated)],
                         capture_output=True, text=True)
    if run.returncode != 0:
        return [f"{ts_path.name}: lupdate failed: {run.stderr.strip()}"]
    language = ET.parse(ts_path).getroot().get("language", "")
    plural_forms = PLURAL_FORMS.get(language.split("_")[0])
    if plural_forms is None:
        return [f"{ts_path.name}: language {language!r} is not in PLURAL_FORMS of {Path(__file__).name}"]
    committed = messages(ts_path)
    current = messages(updated)
    problems = []
    for key in sorted(current.keys() - committed.keys()):
        problems.append(f"{ts_path.name}: [{key[0]}] {key[1]!r}: missing (run lupdate and translate it)")
    for key in sorted(committed.keys() - current.keys()):
        problems.append(f"{ts_path.name}: [{key[0]}] {key[1]!r}: no longer in the sources (run lupdate)")
    for key in sorted(current.keys() & committed.keys()):
        problems.extend(check_message(ts_path.name, key, current[key], plural_forms))
    return problems


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    lupdate, sources = sys.argv[1], sys.argv[2]
    rest = sys.argv[3:]
    ts_files, options = (rest[:rest.index("--")], rest[rest.index("--") + 1:]) if "--" in rest else (rest, [])
    problems = []
    with tempfile.TemporaryDirectory() as workdir:
        for ts in ts_files:
            problems.extend(check(lupdate, options, sources, Path(ts), workdir))
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} translation problem(s)", file=sys.stderr)
        return 1
    print(f"{len(ts_files)} translation file(s) complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
