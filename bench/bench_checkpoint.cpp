// Checkpoints against git on the same tree, side by side in one run (issue 4, PRODUCT.md):
//   first checkpoint         `sandbench checkpoint create`  vs  `git add -A && git commit` of a fresh repository
//   one file changed         `sandbench checkpoint create`  vs  `git add -A && git commit`
//   restore that change      `sandbench checkpoint restore` vs  `git checkout`
// The one-file change and the restore are measured twice for Sandbench, on two copies of the workspace in two
// stores: with SANDBENCH_HELPER=off (the command does all the work itself) and through the run helper (`sandbench
// serve`, started by the bench in a runtime folder of its own, as a user leaves it running; its watch of the
// workspace guides every walk after its first), all three sides in each round, the order turning every round.
// Both sides are whole processes started the same way (posix_spawn, output drained), on copies of one
// generated tree: FILES files, MB megabytes in all, in 25 x 20 folders, 90 % source-like text and 10 %
// incompressible bytes. Each round runs both sides after a pause of 1.1 s (so that neither re-reads a file
// only because it was just written), and which side goes first alternates from round to round. git runs with its defaults except
// gc.auto=0 (its automatic repack after the first commit of 10 000 loose objects would otherwise land in a
// timed commit, which is not the figure we compare with).
//
//   bench_checkpoint [ROUNDS=10] [FIRST_ROUNDS=3] [FILES=10000] [MB=100]

#include "bench_common.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>

namespace fs = std::filesystem;

namespace {

const std::string kGit = "/usr/bin/git";

std::string sandbench()
{
    return (fs::canonical("/proc/self/exe").parent_path() / "sandbench").string();
}

// prefix + number; spelled out because GCC 12 at -O3 warns (-Wrestrict, falsely) on "literal" + std::string.
std::string numbered(const char* prefix, long long n, const char* suffix = "")
{
    std::string out(prefix);
    out += std::to_string(n);
    out += suffix;
    return out;
}

// Source-like text: lines of identifiers, keywords and numbers, compressible about 3-4x like real code.
std::string text(std::mt19937_64& random, std::size_t size)
{
    static const char* words[] = {"def", "return", "if", "else", "for", "in", "while", "class", "import", "from",
                                  "self", "value", "result", "items", "count", "index", "name", "data", "config",
                                  "=", "+", "(", ")", ":", "[", "]", "None", "True", "False", "#", "print", "len"};
    std::string out;
    out.reserve(size + 64);
    while (out.size() < size) {
        const int indent = static_cast<int>(random() % 4) * 4;
        out.append(static_cast<std::size_t>(indent), ' ');
        const int n = 3 + static_cast<int>(random() % 8);
        for (int i = 0; i < n; ++i) {
            if (random() % 5 == 0)
                out += numbered("v", static_cast<long long>(random() % 100000));
            else
                out += words[random() % (sizeof words / sizeof *words)];
            out += ' ';
        }
        out += '\n';
    }
    out.resize(size);
    return out;
}

std::string noise(std::mt19937_64& random, std::size_t size)
{
    std::string out(size, '\0');
    for (auto& c : out)
        c = static_cast<char>(random());
    return out;
}

void writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void generate(const fs::path& root, int files, std::uint64_t bytes)
{
    std::mt19937_64 random(42);
    const std::uint64_t average = bytes / static_cast<std::uint64_t>(files);
    int made = 0;
    for (int d = 0; made < files; ++d) {
        for (int s = 0; s < 20 && made < files; ++s) {
            const fs::path folder = root / numbered("d", d) / numbered("s", s);
            fs::create_directories(folder);
            for (int f = 0; f < 20 && made < files; ++f, ++made) {
                const std::size_t size = static_cast<std::size_t>(random() % (2 * average));
                const bool binary = random() % 10 == 0;
                writeFile(folder / numbered("f", f, binary ? ".bin" : ".py"),
                          binary ? noise(random, size) : text(random, size));
            }
        }
    }
}

// The file a round changes: a different text file, deep in the tree, each time.
fs::path victim(const fs::path& root, int round)
{
    for (int f = 0;; ++f) {
        const fs::path path =
            root / numbered("d", round % 25) / numbered("s", (round * 7) % 20) / numbered("f", (round + f) % 20, ".py");
        if (fs::exists(path))
            return path;
    }
}

void appendLine(const fs::path& path, int round)
{
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << "# changed in round " << round << '\n';
}

double run(const std::vector<std::string>& args, std::string* out = nullptr)
{
    const auto r = bench::spawnAndWait(args);
    if (!r.ok) {
        std::cerr << "failed: " << args[0] << ' ' << (args.size() > 1 ? args[1] : "") << ' '
                  << (args.size() > 2 ? args[2] : "") << ": " << r.error << '\n';
        std::exit(1);
    }
    if (out)
        *out = r.stdoutText;
    return r.wallMs;
}

std::vector<std::string> git(const fs::path& repo, std::vector<std::string> args)
{
    std::vector<std::string> all = {kGit, "-C", repo.string(), "-c", "user.name=bench", "-c", "user.email=bench@example.com",
                                    "-c", "gc.auto=0", "-c", "maintenance.auto=false"};
    all.insert(all.end(), args.begin(), args.end());
    return all;
}

std::string trim(std::string s)
{
    while (!s.empty() && (s.back() == '\n' || s.back() == ' '))
        s.pop_back();
    return s;
}

void copyTree(const fs::path& from, const fs::path& to)
{
    fs::create_directories(to);
    fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
}

std::uint64_t folderBytes(const fs::path& root)
{
    std::uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && !it->is_symlink(ec))
            total += it->file_size(ec);
    }
    return total;
}

// Runs both sides of a round, the one going first taking turns.
template <typename A, typename B>
void alternate(int round, A&& ours, B&& theirs)
{
    if (round % 2 == 0) {
        ours();
        theirs();
    } else {
        theirs();
        ours();
    }
}

// Runs the three sides of a round in an order that turns every round.
void rotate(int round, const std::vector<std::function<void()>>& sides)
{
    for (std::size_t k = 0; k < sides.size(); ++k)
        sides[(k + static_cast<std::size_t>(round)) % sides.size()]();
}

// A sandbench command with or without the run helper.
double sandbenchRun(const std::vector<std::string>& args, bool helper, std::string* out = nullptr)
{
    if (helper)
        ::unsetenv("SANDBENCH_HELPER");
    else
        ::setenv("SANDBENCH_HELPER", "off", 1);
    const double ms = run(args, out);
    ::setenv("SANDBENCH_HELPER", "off", 1);
    return ms;
}

void settle()
{
    // Past Sandbench's racy margin and git's racy-clean second, so neither re-reads a file for its age alone.
    ::usleep(1'100'000);
}

} // namespace

int main(int argc, char** argv)
{
    const int rounds = argc > 1 ? bench::parseCount(argv[1], "ROUNDS") : 10;
    const int firstRounds = argc > 2 ? bench::parseCount(argv[2], "FIRST_ROUNDS") : 3;
    const int files = argc > 3 ? bench::parseCount(argv[3], "FILES") : 10000;
    const int megabytes = argc > 4 ? bench::parseCount(argv[4], "MB") : 100;
    const std::string sb = sandbench();
    if (!fs::exists(sb) || !fs::exists(kGit)) {
        std::cerr << "needs " << sb << " and " << kGit << '\n';
        return 1;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "sandbench-bench-ckpt-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
        return 1;
    const fs::path work = pattern;
    const fs::path tree = work / "tree";
    std::cout << "generating " << files << " files, " << megabytes << " MB in " << tree << " ...\n";
    generate(tree, files, static_cast<std::uint64_t>(megabytes) << 20);

    // The audit key beside the stores, not in the user's configuration; commands do not ask a helper unless told.
    ::setenv("SANDBENCH_AUDIT_KEYS", (work / "audit-keys").c_str(), 1);
    ::setenv("SANDBENCH_HELPER", "off", 1);
    const fs::path helperLog = work / "serve.log";
    const pid_t helper = bench::startHelper(sb, work / "runtime", helperLog);
    if (helper < 0)
        return 1;

    bench::Stats firstSb, firstGit, changeSb, changeGit, restoreSb, restoreGit, changeHelped, restoreHelped;
    fs::path store;
    fs::path workspace;
    fs::path repo;
    std::uint64_t storeBytes = 0;
    std::uint64_t gitBytes = 0;

    // 1. First checkpoint / first commit, each on a fresh store or repository.
    for (int i = 0; i < firstRounds; ++i) {
        store = work / numbered("store", i) / "s.db";
        fs::create_directories(store.parent_path());
        std::string out;
        run({sb, "sandbox", "path", "main", "--store", store.string()}, &out); // main, empty, first used
        workspace = trim(out);
        copyTree(tree, workspace);
        repo = work / numbered("repo", i);
        copyTree(tree, repo);
        run(git(repo, {"init", "-q"}));
        settle();
        // Which side goes first alternates: the first command after the pause meets colder caches.
        auto ours = [&] { firstSb.add(run({sb, "checkpoint", "create", "--sandbox", "main", "--store", store.string()})); };
        auto theirs = [&] { firstGit.add(run(git(repo, {"add", "-A"})) + run(git(repo, {"commit", "-q", "-m", "first"}))); };
        alternate(i, ours, theirs);
        if (i + 1 < firstRounds) {
            fs::remove_all(store.parent_path());
            fs::remove_all(repo);
        }
    }
    storeBytes = folderBytes(store.parent_path()) - folderBytes(workspace);
    gitBytes = folderBytes(repo / ".git");

    // The copy the helper serves: its own store (a command of another process writing to the same store would
    // make the helper's next walk a full one), its first checkpoint untimed (the watch starts with it).
    const fs::path helpedStore = work / "helped" / "s.db";
    fs::create_directories(helpedStore.parent_path());
    fs::path helpedWorkspace;
    {
        std::string out;
        run({sb, "sandbox", "path", "main", "--store", helpedStore.string()}, &out);
        helpedWorkspace = trim(out);
        copyTree(tree, helpedWorkspace);
    }
    const auto create = [&](const fs::path& storePath, bool helped, std::string* out = nullptr) {
        return sandbenchRun({sb, "checkpoint", "create", "--sandbox", "main", "--store", storePath.string()}, helped, out);
    };
    const auto restore = [&](const fs::path& storePath, bool helped, const std::string& id) {
        return sandbenchRun({sb, "checkpoint", "restore", id, "--store", storePath.string()}, helped);
    };

    // 2. One file changed, then checkpointed / committed; the ids of each state are kept for the restores.
    std::vector<std::string> sbIds;
    std::vector<std::string> helpedIds;
    std::vector<std::string> gitIds;
    {
        std::string out;
        create(store, false, &out);
        sbIds.push_back(trim(out));
        create(helpedStore, true, &out);
        helpedIds.push_back(trim(out));
        run(git(repo, {"rev-parse", "HEAD"}), &out);
        gitIds.push_back(trim(out));
    }
    for (int i = 0; i < rounds; ++i) {
        appendLine(victim(workspace, i), i);
        appendLine(victim(helpedWorkspace, i), i);
        appendLine(victim(repo, i), i);
        settle();
        std::string ours;
        std::string helped;
        rotate(i, {[&] { changeSb.add(create(store, false, &ours)); },
                   [&] { changeHelped.add(create(helpedStore, true, &helped)); },
                   [&] { changeGit.add(run(git(repo, {"add", "-A"})) + run(git(repo, {"commit", "-q", "-m", "change"}))); }});
        sbIds.push_back(trim(ours));
        helpedIds.push_back(trim(helped));
        std::string out;
        run(git(repo, {"rev-parse", "HEAD"}), &out);
        gitIds.push_back(trim(out));
    }

    // 3. Restore: back and forth over the last change.
    for (int i = 0; i < rounds; ++i) {
        const std::size_t target = sbIds.size() - 2 + static_cast<std::size_t>(i % 2);
        settle();
        rotate(i, {[&] { restoreSb.add(restore(store, false, sbIds[target])); },
                   [&] { restoreHelped.add(restore(helpedStore, true, helpedIds[target])); },
                   [&] { restoreGit.add(run(git(repo, {"checkout", "-q", gitIds[target]}))); }});
    }

    // What the helper costs while idle: its own process (its store open, its engine and its watch of the
    // workspace) and, below it, the sandboxes it keeps pooled for runs.
    const long helperPssKb = bench::pssBelow(helper);
    const long helperOwnPssKb = bench::pssOf(helper);
    // Every command meant for the helper was served by it, as typed.
    ::kill(helper, SIGTERM);
    ::waitpid(helper, nullptr, 0);
    int served = 0;
    {
        std::ifstream log(helperLog);
        for (std::string line; std::getline(log, line);)
            served += line.find(": as typed: checkpoint ") != std::string::npos
                      && line.find("exit status 0") != std::string::npos;
    }
    const int meant = 1 + 2 * rounds;
    if (served != meant) {
        std::cerr << "the helper served " << served << " of the " << meant << " commands meant for it; its log: "
                  << helperLog << '\n';
        return 1;
    }
    {
        // What the helper recorded last is what the workspace holds: a full walk by the command finds no change.
        std::string out;
        run({sb, "checkpoint", "create", "--sandbox", "main", "--json", "--store", helpedStore.string()}, &out);
        if (out.find("\"added\": 0") == std::string::npos || out.find("\"removed\": 0") == std::string::npos
            || out.find("\"modified\": 0") == std::string::npos) {
            std::cerr << "a full walk after the helper's last restore found changes it did not record: " << out << '\n';
            return 1;
        }
    }

    auto row = [](const char* name, const bench::Stats& s) {
        std::printf("  %-52s %9.1f %9.1f %9.1f\n", name, s.median(), s.percentile(10), s.percentile(90));
    };
    std::printf("\nCheckpoints vs git: %d files, %d MB (%.1f MB on disk); wall ms per command, interleaved\n\n", files,
                megabytes, static_cast<double>(folderBytes(tree)) / (1 << 20));
    std::printf("  %-52s %9s %9s %9s\n", "case", "median", "p10", "p90");
    row("first: sandbench checkpoint create", firstSb);
    row("first: git add -A && git commit", firstGit);
    row("one file changed: sandbench checkpoint create", changeSb);
    row("one file changed: git add -A && git commit", changeGit);
    row("restore that change: sandbench checkpoint restore", restoreSb);
    row("restore that change: git checkout", restoreGit);
    row("one file changed: through the run helper", changeHelped);
    row("restore that change: through the run helper", restoreHelped);
    const double first = firstSb.median() / firstGit.median();
    const double change = changeSb.median() / changeGit.median();
    const double restoreRatio = restoreSb.median() / restoreGit.median();
    const double changeHelper = changeHelped.median() / changeGit.median();
    const double restoreHelper = restoreHelped.median() / restoreGit.median();
    std::printf("\n  ratios (sandbench / git, medians; below 1 is faster):\n");
    std::printf("    first checkpoint   %.2fx\n", first);
    std::printf("    one-file change    %.2fx without the helper, %.2fx through it  (target: at most 0.3)\n", change,
                changeHelper);
    std::printf("    restore            %.2fx without the helper, %.2fx through it  (target: at most 0.5)\n",
                restoreRatio, restoreHelper);
    std::printf("  the helper, idle after serving: %.1f MiB; its own process (its store, engine and watch of the "
                "workspace) %.1f MiB, its pooled sandboxes the rest\n",
                static_cast<double>(helperPssKb) / 1024, static_cast<double>(helperOwnPssKb) / 1024);
    std::printf("  stored: sandbench store %.1f MB, git objects %.1f MB\n", static_cast<double>(storeBytes) / (1 << 20),
                static_cast<double>(gitBytes) / (1 << 20));
    std::printf("{\"bench\":\"checkpoint\",\"files\":%d,\"mb\":%d,\"first_ms\":%s,\"git_first_ms\":%s,\"change_ms\":%s,"
                "\"git_change_ms\":%s,\"restore_ms\":%s,\"git_restore_ms\":%s,\"ratio_first\":%s,\"ratio_change\":%s,"
                "\"ratio_restore\":%s,\"helper_change_ms\":%s,\"helper_restore_ms\":%s,\"ratio_change_helper\":%s,"
                "\"ratio_restore_helper\":%s,\"helper_pss_kb\":%ld,\"helper_own_pss_kb\":%ld,\"store_bytes\":%llu,\"git_bytes\":%llu}\n",
                files, megabytes, bench::jsonNumber(firstSb.median()).c_str(), bench::jsonNumber(firstGit.median()).c_str(),
                bench::jsonNumber(changeSb.median()).c_str(), bench::jsonNumber(changeGit.median()).c_str(),
                bench::jsonNumber(restoreSb.median()).c_str(), bench::jsonNumber(restoreGit.median()).c_str(),
                bench::jsonNumber(first).c_str(), bench::jsonNumber(change).c_str(),
                bench::jsonNumber(restoreRatio).c_str(), bench::jsonNumber(changeHelped.median()).c_str(),
                bench::jsonNumber(restoreHelped.median()).c_str(), bench::jsonNumber(changeHelper).c_str(),
                bench::jsonNumber(restoreHelper).c_str(), helperPssKb, helperOwnPssKb, static_cast<unsigned long long>(storeBytes),
                static_cast<unsigned long long>(gitBytes));
    fs::remove_all(work);
    return 0;
}
