#pragma once

#include <string>
#include <vector>

namespace sb {

// The Python prelude that runs a snippet as __main__ under the import guard.
//
// The guard refuses a blocked module only when the snippet itself imports it (the importing frame is
// the snippet's __main__), so the standard library's own internal imports keep working: `import json`
// or `import pathlib` load os inside, the snippet's `import os` is refused. Each refusal is reported as
// "import\t<name>" on fd 3, and an uncaught MemoryError as "memory_limit\t...". The guard is a policy
// layer, not the jail: seccomp, Landlock, rlimits and the dropped identity hold even if it is bypassed.
std::string pythonPrelude(const std::vector<std::string>& blockedModules, bool guardEnabled);

} // namespace sb
