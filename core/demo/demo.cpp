#include "demo/demo.h"

namespace sb {

const std::vector<DemoCase>& demoCases()
{
    // The seed lesson's cases (ok / blocked / timeout / error) plus the ones a real sandbox must also
    // contain: a memory bomb, a fork bomb and a program that crashes itself.
    static const std::vector<DemoCase> cases = {
        {"arithmetic", Language::Python, "print(sum(i * i for i in range(1000)))\n", {Outcome::Ok}},
        {"math", Language::Python, "import math\nprint(math.sqrt(2), math.factorial(20))\n", {Outcome::Ok}},
        {"json", Language::Python, "import json\nprint(json.dumps({\"b\": [1, 2, 3], \"a\": None}, sort_keys=True))\n",
         {Outcome::Ok}},
        {"collections", Language::Python,
         "from collections import Counter, OrderedDict\nprint(Counter('sandbench').most_common(3))\n", {Outcome::Ok}},
        {"import os", Language::Python, "import os\nprint(os.listdir('/'))\n", {Outcome::Blocked}},
        {"import subprocess", Language::Python, "import subprocess\nsubprocess.run(['id'])\n", {Outcome::Blocked}},
        {"import socket", Language::Python, "import socket\nsocket.create_connection(('192.0.2.1', 80))\n",
         {Outcome::Blocked}},
        {"infinite loop", Language::Python, "while True:\n    pass\n", {Outcome::Timeout}, 1000},
        {"syntax error", Language::Python, "def broken(:\n    return 1\n", {Outcome::Error}},
        {"memory bomb", Language::Python,
         "hoard = []\nwhile True:\n    hoard.append(bytearray(16 * 1024 * 1024))\n", {Outcome::MemoryLimit}, 5000, 128},
        {"fork bomb", Language::Shell, "bomb() { bomb | bomb & }\nbomb\nwait\nsleep 5\n",
         {Outcome::Timeout, Outcome::Error}, 1500},
        {"segfault", Language::Shell, "echo about to crash\nkill -SEGV $$\n", {Outcome::Crashed}},
    };
    return cases;
}

RunRequest demoRequest(const DemoCase& demoCase, const Policy& basePolicy)
{
    RunRequest request;
    request.language = demoCase.language;
    request.source = demoCase.source;
    request.label = std::string(kDemoCaseLabelPrefix) + demoCase.name;
    request.policy = basePolicy;
    request.policy.limits.wallMs = demoCase.timeoutMs;
    request.policy.limits.memoryMb = demoCase.memoryMb;
    return request;
}

} // namespace sb
