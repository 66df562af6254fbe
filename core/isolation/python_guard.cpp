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
        import traceback
        frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == 'snippet.py']
        if frames:
            sys.stderr.write('Traceback (most recent call last):\n' + ''.join(traceback.format_list(frames)))
        sys.stderr.write(''.join(traceback.format_exception_only(type(e), e)))
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
