"""The command line's tree as `sandbench --help` prints it: every command path with its options, positionals
and subcommands, read from the program itself (CLI11's help layout), so that what is built from it (the bash
completion) and what is checked against it (the man page) follow the real program.

    from cli_tree import read_tree
    for command in read_tree("build/run/bin/sandbench"):
        print(command.path, [o.names for o in command.options], command.subcommands)
"""

import dataclasses
import re
import subprocess

# A value type CLI11 prints after an option's names: TEXT, INT, UINT, or a validator's name (NAME, DURATION,
# SIZE|none...), with `:{a,b}` for a fixed set of values. An option without one is a flag.
_TYPE = re.compile(r"^[A-Z][A-Z0-9_|a-z]*(:\S+)?$")
_CHOICES = re.compile(r":\{([^}]*)\}")


@dataclasses.dataclass
class Option:
    names: list  # e.g. ["-o", "--output"]
    value: str  # the value's type ("TEXT", "INT", "NAME"...); empty for a flag
    choices: list  # the values it accepts, when the help lists them


@dataclasses.dataclass
class Positional:
    name: str
    value: str
    many: bool  # takes the rest of the arguments (CLI11's "...")


@dataclasses.dataclass
class Command:
    path: list  # [] for the program itself, ["rules", "impact"] for `sandbench rules impact`
    options: list
    positionals: list
    subcommands: list  # names, in the help's order

    @property
    def name(self):
        return " ".join(self.path)

    def option_names(self):
        return [name for option in self.options for name in option.names]


def _head(line):
    """The names and the value type of an entry: its text before the description (two spaces or more apart)."""
    return re.split(r"\s{2,}", line.strip(), maxsplit=1)[0].split()


def _parse_option(line):
    words = _head(line)
    names = [name for name in words[0].split(",") if name.startswith("-")]
    value = words[1] if len(words) > 1 and _TYPE.match(words[1]) else ""
    choices = _CHOICES.search(value)
    return Option(names, value.split(":")[0], choices.group(1).split(",") if choices else [])


def _parse_positional(line):
    words = _head(line)
    value = words[1] if len(words) > 1 and _TYPE.match(words[1]) else ""
    return Positional(words[0], value.split(":")[0], "..." in words[1:3])


def parse_help(path, text):
    """The Command that TEXT, the --help of PATH, describes."""
    command = Command(path, [], [], [])
    section = None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
        elif re.match(r"^  \S", line):  # an entry; its description may continue on lines indented further
            if section == "Options":
                command.options.append(_parse_option(line))
            elif section == "Positionals":
                command.positionals.append(_parse_positional(line))
            elif section == "Subcommands":
                command.subcommands.append(line.split()[0])
    return command


def read_tree(program):
    """Every command of PROGRAM, the program itself first, each before its subcommands."""
    commands = []

    def visit(path):
        help_text = subprocess.run([program, *path, "--help"], capture_output=True, text=True, check=True).stdout
        command = parse_help(path, help_text)
        if not command.options:
            raise SystemExit(f"{program} {' '.join(path)} --help lists no options: is it still CLI11's layout?")
        commands.append(command)
        for sub in command.subcommands:
            visit(path + [sub])

    visit([])
    return commands
