#!/usr/bin/env python3
"""The bash completion of `sandbench` against the program: sourced in bash, it must offer each command's
subcommands and options exactly as `sandbench ... --help` lists them (read again here, cli_tree.py), and
complete a few inputs as a user would expect.

    check_bash_completion.py SANDBENCH COMPLETION_FILE

Exit 1 with one line per difference.
"""

import shlex
import subprocess
import sys
import tempfile

from cli_tree import read_tree

# Each case: the words typed after `sandbench` (the last one is being completed), then what must be offered.
# A set must be offered exactly; FILE means "this file is among the offers", COMMAND "this program is".
EXAMPLES = [
    (["ru"], {"run", "rules"}),
    (["rules", ""], {"expr", "check", "eval", "impact", "ab", "explain"}),
    (["rules", "im"], {"impact"}),
    (["run", "--level", ""], {"process", "container", "strict"}),
    (["run", "--lang", "p"], {"python"}),
    (["sessions", "export", "--format", ""], {"jsonl", "html"}),
    (["sessions", "--json", "ex"], {"export"}),  # an option of the group before its subcommand
    (["run", "--timeout-ms", "5"], set()),  # a number: no completions
    (["run", "--timeout-ms", "5", "--js"], {"--json"}),
    (["run", "--store", "FILE"], "FILE"),
    (["run", "FILE"], "FILE"),
    (["exec", "--", "COMMAND"], "COMMAND"),
    (["exec", "--level", "process", "--", "bash", "FILE"], "FILE"),
    (["agent", "run", "--", "COMMAND"], "COMMAND"),
]

DRIVER = r"""
source "$1"
while IFS= read -r line; do
  eval "COMP_WORDS=(sandbench $line)"
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _sandbench
  printf '%s\n' "${COMPREPLY[*]}"
done
"""


def complete(completion_file, inputs, cwd):
    lines = "".join(" ".join(shlex.quote(word) for word in words) + "\n" for words in inputs)
    result = subprocess.run(["bash", "--norc", "--noprofile", "-c", DRIVER, "driver", completion_file],
                            input=lines, capture_output=True, text=True, cwd=cwd, check=True)
    if result.stderr:
        raise SystemExit(f"bash said, completing:\n{result.stderr}")
    offers = [set(line.split()) for line in result.stdout.splitlines()]
    if len(offers) != len(inputs):
        raise SystemExit(f"bash answered {len(offers)} completions for {len(inputs)} inputs")
    return offers


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: check_bash_completion.py SANDBENCH COMPLETION_FILE")
    program, completion_file = sys.argv[1:]
    cases = []
    for command in read_tree(program):
        cases.append((command.path + ["-"], set(command.option_names())))
        if command.subcommands:
            cases.append((command.path + [""], set(command.subcommands)))
    with tempfile.TemporaryDirectory() as folder:
        file_name = "a-file.csv"
        open(f"{folder}/{file_name}", "w").close()
        concrete = [
            ([{"FILE": "a-f", "COMMAND": "bas"}.get(word, word) for word in words],
             {"FILE": {file_name}, "COMMAND": {"bash"}}.get(expected, expected) if isinstance(expected, str) else expected,
             isinstance(expected, str))
            for words, expected in EXAMPLES
        ]
        inputs = [words for words, _ in cases] + [words for words, _, _ in concrete]
        offers = complete(completion_file, inputs, folder)

    failures = []
    for (words, expected), offered in zip(cases, offers):
        if offered != expected:
            failures.append(f"sandbench {' '.join(words)}<Tab>: offers {sorted(offered)}, --help lists {sorted(expected)}")
    for (words, expected, among), offered in zip(concrete, offers[len(cases):]):
        if (among and not expected <= offered) or (not among and offered != expected):
            failures.append(f"sandbench {' '.join(words)}<Tab>: offers {sorted(offered)}, expected "
                            f"{'among them ' if among else ''}{sorted(expected)}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{len(inputs)} inputs completed, {len(failures)} wrong")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
