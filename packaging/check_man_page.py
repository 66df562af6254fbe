#!/usr/bin/env python3
"""The man pages against the programs' --help: every command, option and argument the help lists has its
entry in the page, and the page documents no command the program does not have.

    check_man_page.py cli SANDBENCH MAN_PAGE
        sandbench.1: a subsection (.SS "rules impact") for each command and subcommand, holding each of its
        options in bold (\\fB\\-\\-baseline\\fR) and each positional argument in italics; the program's own
        options (--help, --version) under .SH OPTIONS. -h/--help, which every command takes, is documented
        once there.
    check_man_page.py gui SANDBENCH_GUI MAN_PAGE
        sandbench-gui.1: each option of Qt's --help under .SH OPTIONS.

Exit 1 with one line per finding.
"""

import re
import shlex
import subprocess
import sys

from cli_tree import read_tree


def roff(text):
    """TEXT as a man page spells it: each hyphen escaped."""
    return text.replace("-", "\\-")


def sections(page):
    """{name: text} for each .SH and .SS of PAGE; a .SS is named by its own title alone."""
    result = {}
    name = None
    for line in page.splitlines():
        heading = re.match(r'^\.S[HS]\s+"?([^"]*)"?\s*$', line)
        if heading:
            name = heading.group(1)
            result.setdefault(name, "")
        elif name is not None:
            result[name] += line + "\n"
    return result


def in_font(text, font, name):
    """Whether NAME is set in FONT (B or I) somewhere in TEXT: inline (\\fBNAME\\fR) or by a font macro (.B, .BR,
    .RB, .BI... NAME), whose arguments alternate between its two fonts."""
    if f"\\f{font}{name}\\fR" in text:
        return True
    for line in text.splitlines():
        macro = re.match(r"^\.([BIR]{1,2})\s+(.*)$", line)
        if macro and font in macro.group(1):
            fonts = macro.group(1)
            words = [word.strip('"') for word in shlex.split(macro.group(2), posix=False)]
            if any(word == name and fonts[i % len(fonts)] == font for i, word in enumerate(words)):
                return True
    return False


def bold(text, name):
    return in_font(text, "B", roff(name))


def italic(text, name):
    return in_font(text, "I", name)


def check_cli(program, page_file):
    page = open(page_file, encoding="utf-8").read()
    found = sections(page)
    failures = []
    commands = read_tree(program)
    for option in commands[0].option_names():
        if not bold(found.get("OPTIONS", ""), option):
            failures.append(f"sandbench {option} is not under OPTIONS")
    for command in commands[1:]:
        if command.name not in found:
            failures.append(f'sandbench {command.name} has no section (.SS "{command.name}")')
            continue
        text = found[command.name]
        for option in command.option_names():
            if option not in ("-h", "--help") and not bold(text, option):
                failures.append(f"sandbench {command.name} {option} is not in its section")
        for positional in command.positionals:
            if not italic(text, positional.name):
                failures.append(f"sandbench {command.name}'s argument {positional.name} is not in its section")
    known = {command.name for command in commands}
    top = {name for name in found if name.isupper()}  # NAME, SYNOPSIS, EXIT STATUS...
    for name in found.keys() - known - top:
        failures.append(f'section .SS "{name}" documents a command that sandbench --help does not list')
    return failures, f"{len(commands)} commands"


def check_gui(program, page_file):
    page = open(page_file, encoding="utf-8").read()
    options_text = sections(page).get("OPTIONS", "")
    help_text = subprocess.run([program, "--help"], capture_output=True, text=True, check=True,
                               env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"}).stdout
    names = []
    in_options = False
    for line in help_text.splitlines():
        if re.match(r"^\S.*:$", line):
            in_options = line == "Options:"
        elif in_options and re.match(r"^\s+-", line):
            head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
            names += [word.split()[0] for word in head.split(", ")]
    if not names:
        raise SystemExit(f"{program} --help lists no options: is it still QCommandLineParser's layout?")
    failures = [f"sandbench-gui {name} is not under OPTIONS" for name in names if not bold(options_text, name)]
    return failures, f"{len(names)} options"


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("cli", "gui"):
        raise SystemExit("usage: check_man_page.py cli|gui PROGRAM MAN_PAGE")
    check = check_cli if sys.argv[1] == "cli" else check_gui
    failures, checked = check(sys.argv[2], sys.argv[3])
    for failure in failures:
        print("FAIL", failure)
    print(f"{sys.argv[3]}: {checked} checked, {len(failures)} missing or stale")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
