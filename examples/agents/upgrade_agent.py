"""The worked example: an agent upgrades a dependency in a small repository, scripted (no model) so that demos
and tests can rely on every step.

The tests fail after the upgrade; the app is fixed; a data migration corrupts the test database; the agent
rewinds the workspace to Sandbench's checkpoint before the migration; a download from a host the policy does not
list is blocked; the tests pass; the final diff is left for the promotion gate.
"""
import sys

from mcp_stdio import Session, log

s = Session("upgrade-agent")

s.call("list_dir", {}, "look at the repository first")
s.call("read_file", {"path": "requirements.txt"}, "which version do we depend on?")
ok, _ = s.call("run_command", {"command": "python3", "args": ["run_tests.py"]}, "the tests before the upgrade")
s.call("edit_file", {"path": "requirements.txt", "old_text": "minilib==1.0", "new_text": "minilib==2.0"},
       "upgrade minilib to 2.0", cost=0.002)
s.call("write_file", {"path": "vendor/minilib.py", "content":
                      '"""minilib 2.0: total() is renamed sum_all()."""\n\nVERSION = "2.0"\n\n\n'
                      'def sum_all(values):\n    return sum(values)\n'},
       "vendor minilib 2.0", cost=0.002)
ok, _ = s.call("run_command", {"command": "python3", "args": ["run_tests.py"]}, "do the tests still pass?")
if ok:
    sys.exit("expected the tests to fail after the upgrade")
s.call("edit_file", {"path": "app.py", "old_text": "import total", "new_text": "import sum_all"},
       "2.0 renamed total() to sum_all(): the import", cost=0.003)
s.call("edit_file", {"path": "app.py", "old_text": "return total(", "new_text": "return sum_all("}, "and the call")
migration_step = s.step + 1
s.call("run_command", {"command": "python3", "args": ["migrate.py"]},
       "minilib 2.0's changelog asks for a data migration", cost=0.002)
ok, text = s.call("run_command", {"command": "python3", "args": ["run_tests.py"]}, "tests after the migration")
if not ok:
    log("the migration broke the test database: rewinding to the checkpoint before it")
    s.call("rewind", {"step": migration_step}, "undo the migration: back to the checkpoint before it")
s.call("http_get", {"url": "https://downloads.example.net/minilib-2.0-migration-fix.tar.gz"},
       "look for a fixed migration on the vendor's download site")
ok, _ = s.call("run_command", {"command": "python3", "args": ["run_tests.py"]}, "the tests, once more")
if not ok:
    sys.exit("the tests still fail")
s.call("read_file", {"path": "requirements.txt"}, "the final state, for the reviewer")
log("done: the upgrade is ready for review (sandbench promote SANDBOX --dry-run)")
