#include "isolation/python_guard.h"

#include <fmt/format.h>

namespace sb {

namespace {

constexpr const char* kPrelude = R"PY(import sys, builtins
def _sandbench_main(blocked, guard, path):
    try:
        events = open(3, 'w', buffering=1, encoding='utf-8', errors='replace', closefd=True)
    except OSError:
        events = None
    def report(kind, detail):
        if events is not None:
            try:
                events.write(kind + '\t' + detail.replace('\n', ' ')[:200] + '\n')
            except Exception:
                pass
    real_import = builtins.__import__
    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.partition('.')[0] in blocked:
            importer = sys._getframe(1).f_globals
            if importer.get('__name__', '__main__') == '__main__':
                report('import', name)
                raise ImportError("sandbench: import of '%s' is blocked by the sandbox policy" % name, name=name)
        return real_import(name, globals, locals, fromlist, level)
    with open(path, 'rb') as f:
        source = f.read()
    scope = {'__name__': '__main__', '__file__': 'snippet.py', '__builtins__': builtins}
    try:
        code = compile(source, 'snippet.py', 'exec')
        if guard:
            builtins.__import__ = guarded_import
        exec(code, scope)
    except SystemExit:
        raise
    except MemoryError:
        report('memory_limit', 'MemoryError')
        scope.clear()
        sys.stderr.write('MemoryError: the run reached its memory limit\n')
        sys.exit(1)
    except BaseException as e:
        builtins.__import__ = real_import
        # Formatted here rather than with the traceback module, whose import costs more than the run.
        lines = source.decode('utf-8', 'replace').splitlines()
        out = []
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == 'snippet.py':
                n = tb.tb_lineno
                out.append('  File "snippet.py", line %d, in %s\n' % (n, tb.tb_frame.f_code.co_name))
                if 0 < n <= len(lines):
                    out.append('    %s\n' % lines[n - 1].strip())
            tb = tb.tb_next
        if out:
            out.insert(0, 'Traceback (most recent call last):\n')
        if isinstance(e, SyntaxError):
            out.append('  File "snippet.py", line %s\n' % e.lineno)
            if e.text:
                out.append('    %s\n' % e.text.strip())
            out.append('%s: %s\n' % (type(e).__name__, e.msg))
        else:
            message = str(e)
            out.append('%s: %s\n' % (type(e).__name__, message) if message else type(e).__name__ + '\n')
        sys.stderr.write(''.join(out))
        sys.exit(1)
    finally:
        try:
            sys.stdout.flush()
        except Exception:
            pass
_sandbench_main(frozenset({blocked}), {guard}, sys.argv[1])
)PY";

std::string pythonStringLiteral(const std::string& s)
{
    std::string out = "'";
    for (char c : s) {
        if (c == '\\' || c == '\'')
            out += '\\';
        out += c;
    }
    return out + "'";
}

} // namespace

std::string pythonPrelude(const std::vector<std::string>& blockedModules, bool guardEnabled)
{
    std::string list = "(";
    for (const auto& m : blockedModules)
        list += pythonStringLiteral(m) + ", ";
    list += ")";
    std::string prelude = kPrelude;
    auto replace = [&](std::string_view key, const std::string& value) {
        const auto pos = prelude.find(key);
        prelude.replace(pos, key.size(), value);
    };
    replace("{blocked}", list);
    replace("{guard}", guardEnabled ? "True" : "False");
    return prelude;
}

} // namespace sb
