#!/usr/bin/env python3
"""Writes the bash completion of `sandbench` from the program's own --help (cli_tree.py), so that it lists
exactly the subcommands and options the program has.

    bash_completion.py SANDBENCH OUTPUT

What it completes: subcommands; each command's options after `-`; the values of options with a fixed set
(--level, --lang...); file names for the options and arguments that name files; command names for the program
that exec, agent run and mcp wrap start. Sandbox, checkpoint, session and dataset names are not completed:
listing them means opening the user's store on every Tab.
"""

import pathlib
import shlex
import sys

from cli_tree import read_tree

# The options whose value is a file or folder (the others take names, numbers, times, expressions).
FILE_OPTIONS = {
    "--store", "--policy", "--data", "--rules", "--baseline", "--candidate", "--variant", "--keys", "--import",
    "--export", "--patch", "--risk-config", "--output", "-o", "--read",
}
# The positionals that name a file, and those that start a command line (the program, then its arguments).
FILE_POSITIONALS = {"file", "out"}
COMMAND_POSITIONAL = "command"
COMMAND_POSITIONAL_PATHS = {"exec", "agent run", "mcp wrap"}


def value_kind(option):
    """How the value of OPTION completes: 'flag' (it takes none), 'file', 'words A B...' or 'none'."""
    if not option.value:
        return "flag"
    if option.choices:
        return "words " + " ".join(option.choices)
    if option.value == "TEXT" and any(name in FILE_OPTIONS for name in option.names):
        return "file"
    return "none"


def positional_kinds(command):
    """How each positional of COMMAND completes: 'file', 'command' or 'none'."""
    kinds = []
    for positional in command.positionals:
        if positional.name in FILE_POSITIONALS:
            kinds.append("file")
        elif positional.name == COMMAND_POSITIONAL and command.name in COMMAND_POSITIONAL_PATHS:
            kinds.append("command")
        else:
            kinds.append("none")
    return kinds


def case_arm(key, value):
    if "'" in value:
        raise SystemExit(f"a quote in {value!r}: --help's layout is not what cli_tree.py reads")
    return f"    {shlex.quote(key)}) REPLY='{value}' ;;"


def render(commands):
    subcommands = [case_arm(c.name, " ".join(c.subcommands)) for c in commands if c.subcommands]
    options = [case_arm(c.name, " ".join(c.option_names())) for c in commands]
    values = [case_arm(f"{c.name}|{name}", value_kind(o)) for c in commands for o in c.options for name in o.names]
    positionals = [case_arm(c.name, " ".join(positional_kinds(c))) for c in commands if c.positionals]
    lines = [
        "# bash completion for sandbench. Generated from `sandbench --help` by packaging/bash_completion.py:",
        "# edit that, not this.",
        "",
        "# Each of these answers in REPLY (without a subshell: one Tab runs them for each word typed so far).",
        "",
        "# _sandbench_subcommands PATH: the subcommands of the command PATH (\"rules\"; \"\" for sandbench itself).",
        "_sandbench_subcommands() {",
        "  REPLY=",
        '  case $1 in',
        *subcommands,
        "  esac",
        "}",
        "",
        "# _sandbench_options PATH: its options.",
        "_sandbench_options() {",
        "  REPLY=",
        '  case $1 in',
        *options,
        "  esac",
        "}",
        "",
        "# _sandbench_value PATH OPTION: how OPTION's value completes: flag (it takes none), file, none, or",
        "# words followed by the values it accepts. Empty for an option PATH does not have.",
        "_sandbench_value() {",
        "  REPLY=",
        '  case "$1|$2" in',
        *values,
        "  esac",
        "}",
        "",
        "# _sandbench_positionals PATH: how each of its positional arguments completes (file, command or none);",
        "# the last one takes the rest of the arguments when it is a command.",
        "_sandbench_positionals() {",
        "  REPLY=",
        '  case $1 in',
        *positionals,
        "  esac",
        "}",
        "",
        COMPLETE_FUNCTION,
    ]
    return "\n".join(lines) + "\n"


COMPLETE_FUNCTION = r"""# _sandbench_reply KIND: fills COMPREPLY with the completions of $cur for a value of that kind.
_sandbench_reply() {
  case $1 in
    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
    command) mapfile -t COMPREPLY < <(compgen -c -- "$cur") ;;
    words\ *) mapfile -t COMPREPLY < <(compgen -W "${1#words }" -- "$cur") ;;
  esac
}

_sandbench() {
  local cur=${COMP_WORDS[COMP_CWORD]} path='' word i positional=0 dashdash=0 command_start='' REPLY
  local -a kinds
  COMPREPLY=()
  # The command path, and how many positionals precede the word to complete; an option's value is skipped.
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -n $command_start ]]; then
      continue
    elif ((dashdash == 0)) && [[ $word == -- ]]; then
      dashdash=1
    elif ((dashdash == 0)) && [[ $word == -* ]]; then
      _sandbench_value "$path" "$word"
      [[ -n $REPLY && $REPLY != flag ]] && ((i++))
    elif ((dashdash == 0)) && _sandbench_subcommands "$path" && [[ " $REPLY " == *" $word "* ]]; then
      path=${path:+$path }$word
    else
      _sandbench_positionals "$path"
      read -ra kinds <<<"$REPLY"
      if [[ ${kinds[positional]-} == command ]]; then command_start=$i; else ((positional++)); fi
    fi
  done
  if [[ -n $command_start ]]; then # in the program's own arguments
    _sandbench_reply file
    return
  fi
  if ((dashdash == 0 && COMP_CWORD > 1)); then
    _sandbench_value "$path" "${COMP_WORDS[COMP_CWORD - 1]}"
    if [[ -n $REPLY && $REPLY != flag ]]; then
      _sandbench_reply "$REPLY"
      return
    fi
  fi
  if ((dashdash == 0)) && [[ $cur == -* ]]; then
    _sandbench_options "$path"
    mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
    return
  fi
  _sandbench_subcommands "$path"
  if [[ -n $REPLY ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$REPLY" -- "$cur")
    return
  fi
  _sandbench_positionals "$path"
  read -ra kinds <<<"$REPLY"
  _sandbench_reply "${kinds[positional]-}"
}
complete -F _sandbench sandbench"""


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: bash_completion.py SANDBENCH OUTPUT")
    pathlib.Path(sys.argv[2]).write_text(render(read_tree(sys.argv[1])))


if __name__ == "__main__":
    main()
