#pragma once

#include "isolation/run.h"

#include <string>
#include <string_view>
#include <vector>

namespace sb {

// The import guard for Python snippets, in its two halves.
//
// Before the run, Sandbench reads the snippet (refusedImports): every import statement of a module the
// policy refuses is a blocked event of the run, decided from the source the user gave, not from anything
// the program does or says. While the run goes on, the prelude (pythonPrelude) raises ImportError at such
// a statement, and also at the imports no reading can see (`__import__('o' + 's')`, `exec(...)`,
// importlib): what it refuses there reaches Sandbench only through the program's own stderr, as a claim
// (claimsFromOutput) that never decides the run's outcome. The guard is a policy signal, not the jail:
// seccomp, Landlock, rlimits and the dropped identity hold even when a snippet gets around it.

// The Python prelude that runs a snippet as __main__ under the guard. It refuses a blocked module only when
// the snippet itself imports it (the importing frame is the snippet's __main__), so the standard library's
// own internal imports keep working: `import json` or `import pathlib` load os inside, the snippet's
// `import os` is refused. The program gets no channel to Sandbench but its stdout and stderr.
// startsAhead: the interpreter is started before its run (launch_spec.h, LaunchSpec::programAhead); it waits
// for its byte on kAheadGoFd, which it closes, before it reads the snippet (ending quietly at EOF instead).
std::string pythonPrelude(const std::vector<std::string>& blockedModules, bool guardEnabled, bool startsAhead = false);

// An import statement of the snippet that names a refused module.
struct RefusedImport {
    std::string module; // the top-level package, as the guard compares it ("os" for `import os.path`)
    int line = 0;       // 1-based line of the statement
    bool operator==(const RefusedImport&) const = default;
};

// The snippet's absolute import statements (`import a.b`, `from a.b import c`, anywhere in the source, in
// any block) whose top-level module is in `blockedModules`, in source order, each module once. Strings,
// comments, line continuations and brackets are read as Python's tokenizer reads them; relative imports
// are the snippet's own files and never refused.
std::vector<RefusedImport> refusedImports(std::string_view source, const std::vector<std::string>& blockedModules);

// What a Python run's stderr says the program met: the guard's refusals ({"import", module}) and an uncaught
// MemoryError ({"memory", "MemoryError"}). The program wrote it, so it is a claim, each at most once.
std::vector<ProgramClaim> claimsFromOutput(std::string_view stderrText);

} // namespace sb
