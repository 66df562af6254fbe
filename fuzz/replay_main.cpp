// A libFuzzer-free driver for compilers without -fsanitize=fuzzer (g++): feeds every file of the corpus
// folders to LLVMFuzzerTestOneInput, then a fixed number of deterministic mutations of them (byte flips,
// insertions, deletions, splices and YAML-ish tokens, plus the tokens of a libFuzzer dictionary when one is
// given), so the target runs as an ordinary ctest test.
//
//   fuzz_policy_replay [--mutations N] [--seed S] [--dict FILE] CORPUS_DIR_OR_FILE...

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

std::vector<std::string> readCorpus(const std::vector<std::filesystem::path>& roots)
{
    std::vector<std::filesystem::path> files;
    for (const auto& root : roots) {
        if (std::filesystem::is_directory(root)) {
            for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
                if (entry.is_regular_file())
                    files.push_back(entry.path());
            }
        } else {
            files.push_back(root);
        }
    }
    std::sort(files.begin(), files.end()); // deterministic order whatever the directory order
    std::vector<std::string> out;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        out.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return out;
}

void run(const std::string& input)
{
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(input.data()), input.size());
}

// The quoted strings of a libFuzzer dictionary ("token" or name="token" per line; \\, \" and \xNN escapes).
std::vector<std::string> readDictionary(const std::filesystem::path& path)
{
    std::vector<std::string> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t open = line.find('"');
        const std::size_t close = line.rfind('"');
        if (line.empty() || line[0] == '#' || open == std::string::npos || close <= open)
            continue;
        std::string token;
        for (std::size_t i = open + 1; i < close; ++i) {
            if (line[i] == '\\' && i + 1 < close) {
                if (line[i + 1] == 'x' && i + 3 < close) {
                    token += static_cast<char>(std::strtol(line.substr(i + 2, 2).c_str(), nullptr, 16));
                    i += 3;
                } else {
                    token += line[++i];
                }
            } else {
                token += line[i];
            }
        }
        out.push_back(token);
    }
    return out;
}

std::vector<std::string> g_dictionary;

std::string mutate(std::string s, const std::vector<std::string>& corpus, std::mt19937_64& rng)
{
    static const std::vector<std::string> kTokens = {
        ":", "- ", "\n", "  ", "{", "}", "[", "]", ",", "'", "\"", "&a ", "*a", "!!str ", "!!int ", "? ", "|\n",
        ">-\n", "#", "---\n", "...\n", "~", "null", "true", "no", "0x10", "-1", "99999999999999999999", "1e3",
        "level", "limits", "wall_ms", "memory_mb", "env", "pass", "set", "paths", "read", "python", "shell",
        "interpreter", "import_guard", "blocked_imports", "syscalls", "rules", "names", "action", "args",
        "allow_lower_level", "container", "strict", "/", "\t", std::string(1, '\0'), "\xff", "<<: *a\n"};
    auto pick = [&](std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(rng() % n); };
    const int steps = 1 + static_cast<int>(rng() % 4);
    for (int i = 0; i < steps; ++i) {
        switch (rng() % 6) {
        case 0: // flip a byte
            if (!s.empty())
                s[pick(s.size())] = static_cast<char>(rng() & 0xff);
            break;
        case 1: { // insert a token, from the dictionary half of the time when there is one
            const auto& tokens = !g_dictionary.empty() && (rng() & 1) ? g_dictionary : kTokens;
            s.insert(pick(s.size() + 1), tokens[pick(tokens.size())]);
            break;
        }
        case 2: { // delete a span
            if (s.empty())
                break;
            const std::size_t at = pick(s.size());
            s.erase(at, 1 + pick(std::min<std::size_t>(16, s.size() - at)));
            break;
        }
        case 3: { // splice a piece of another input
            const std::string& other = corpus[pick(corpus.size())];
            if (other.empty())
                break;
            const std::size_t from = pick(other.size());
            s.insert(pick(s.size() + 1), other.substr(from, 1 + pick(64)));
            break;
        }
        case 4: { // duplicate a line (repeated keys, deeper nesting)
            const std::size_t at = pick(s.size() + 1);
            const std::size_t begin = s.rfind('\n', at == 0 ? 0 : at - 1);
            const std::size_t start = begin == std::string::npos ? 0 : begin + 1;
            const std::size_t end = s.find('\n', start);
            const std::string line = s.substr(start, end == std::string::npos ? std::string::npos : end - start + 1);
            s.insert(start, line);
            break;
        }
        default: // truncate
            s.resize(pick(s.size() + 1));
            break;
        }
    }
    return s;
}

} // namespace

int main(int argc, char** argv)
{
    long mutations = 20000;
    std::uint64_t seed = 20240611;
    std::vector<std::filesystem::path> roots;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--mutations" && i + 1 < argc)
            mutations = std::atol(argv[++i]);
        else if (arg == "--seed" && i + 1 < argc)
            seed = std::strtoull(argv[++i], nullptr, 10);
        else if (arg == "--dict" && i + 1 < argc)
            g_dictionary = readDictionary(argv[++i]);
        else
            roots.emplace_back(arg);
    }
    if (roots.empty()) {
        std::fprintf(stderr, "usage: %s [--mutations N] [--seed S] [--dict FILE] CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    const auto corpus = readCorpus(roots);
    if (corpus.empty()) {
        std::fprintf(stderr, "empty corpus\n");
        return 2;
    }
    for (const auto& input : corpus)
        run(input);
    std::mt19937_64 rng(seed);
    for (long i = 0; i < mutations; ++i)
        run(mutate(corpus[static_cast<std::size_t>(rng() % corpus.size())], corpus, rng));
    const std::string name = std::filesystem::path(argv[0]).filename().string();
    std::printf("%s: %zu corpus inputs and %ld mutations (seed %llu) passed\n", name.c_str(), corpus.size(),
                mutations, static_cast<unsigned long long>(seed));
    return 0;
}
