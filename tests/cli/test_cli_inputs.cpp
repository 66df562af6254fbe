// Every file a command reads goes through the one bounded reader (util/input_file.h): a FIFO without a writer,
// a device, a folder or a file above its kind's cap is refused at once with exit status 1 and a message naming
// the file and what it is — never waited on, never read without end, never a crash. Each command runs under
// timeout(1), so that a regression that blocks fails the test instead of hanging it.

#include "cli_fixture.h"

#include <sys/stat.h>

#include <vector>

namespace sb::clitest {

namespace {

const char* const kRules = "name: t\ndefault: {decision: allow, score: 0}\nfields: {amount: double}\nrules:\n"
                           "  - id: big\n    when: amount > 100.0\n    decision: block\n    score: 1\n";
const char* const kData = "id,amount\nr1,50\nr2,500\n";

// A command with FILE where the input goes, and what the file is read as.
struct Input {
    std::string command;
    std::string what;
};

class CliInputs : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        m_rules = write("rules.yaml", kRules);
        m_data = write("data.csv", kData);
    }

    // `text` with its first `word` (FILE, WHAT) replaced by `value`.
    static std::string with(std::string text, std::string_view word, const std::string& value)
    {
        if (const auto at = text.find(word); at != std::string::npos)
            text.replace(at, word.size(), value);
        return text;
    }

    // Runs every input with `file` in its place: exit status 1 and `expected` (with FILE for the file's name
    // and WHAT for what it is read as) in the output.
    void expectRefused(const std::vector<Input>& inputs, const std::string& file, const std::string& expected)
    {
        for (const auto& input : inputs) {
            const std::string command = with(input.command, "FILE", file);
            const auto r = cliWithin(20, command, true);
            EXPECT_NE(r.status, 124) << command << ": blocked";
            EXPECT_EQ(r.status, 1) << command << "\n" << r.out;
            const std::string message = with(with(expected, "FILE", file), "WHAT", input.what);
            EXPECT_NE(r.out.find(message), std::string::npos) << command << "\nexpected: " << message << "\n" << r.out;
        }
    }

    std::vector<Input> ruleSetInputs() const
    {
        const std::string data = " --data " + m_data;
        return {
            {"rules check FILE", "rule set"},
            {"rules check FILE --json", "rule set"},
            {"rules eval --rules FILE" + data, "rule set"},
            {"rules impact --baseline FILE --candidate " + m_rules + data, "rule set"},
            {"rules impact --baseline " + m_rules + " --candidate FILE" + data, "rule set"},
            {"rules ab --baseline " + m_rules + " --variant FILE" + data, "rule set"},
            {"rules explain --rules FILE --record r1" + data, "rule set"},
        };
    }

    std::vector<Input> dataInputs() const
    {
        return {
            {"rules check " + m_rules + " --data FILE", "data file"},
            {"rules eval --rules " + m_rules + " --data FILE", "data file"},
            {"rules impact --baseline " + m_rules + " --candidate " + m_rules + " --data FILE", "data file"},
            {"data import FILE --name d" + store(), "data file"},
        };
    }

    std::vector<Input> otherInputs() const
    {
        return {
            {"rules expr 'amount > 1' --record @FILE", "record file"},
            {"policy check FILE", "policy file"},
            {"sandbox create sb --policy FILE" + store(), "policy file"},
            {"run --policy FILE" + store() + " " + m_rules, "policy file"},
            {"promote sb --dry-run --risk-config FILE" + store(), "risk configuration"},
        };
    }

    std::vector<Input> allInputs() const
    {
        auto all = ruleSetInputs();
        for (auto& more : {dataInputs(), otherInputs()})
            all.insert(all.end(), more.begin(), more.end());
        return all;
    }

    std::string m_rules;
    std::string m_data;
};

} // namespace

TEST_F(CliInputs, AFifoWithoutAWriterIsRefusedAtOnce)
{
    const auto fifo = (m_dir / "pipe.csv").string(); // .csv: the data commands take it for a data file
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expectRefused(allInputs(), fifo, "FILE: the WHAT is not a regular file but a FIFO");
}

TEST_F(CliInputs, AFolderIsRefused)
{
    const auto folder = (m_dir / "folder.csv").string();
    fs::create_directories(folder);
    auto inputs = ruleSetInputs();
    for (auto& more : otherInputs())
        inputs.push_back(more);
    expectRefused(inputs, folder, "FILE: the WHAT is not a regular file but a folder");
    // As data, a folder is its data files (none here); a snapshot is imported from one file.
    auto data = dataInputs();
    const Input import = data.back();
    data.pop_back();
    expectRefused(data, folder, "FILE: a folder with no data files");
    expectRefused({import}, folder, "FILE: a folder: a snapshot is imported from one");
    // A data file of a folder is read through the same reader: a FIFO in it is refused, named.
    writeFile(fs::path(folder) / "a.csv", kData);
    ASSERT_EQ(::mkfifo((fs::path(folder) / "b.csv").c_str(), 0600), 0);
    expectRefused(data, folder, "FILE/b.csv: the data file is not a regular file but a FIFO");
}

TEST_F(CliInputs, ADeviceIsRefusedWithoutBeingRead)
{
    expectRefused(ruleSetInputs(), "/dev/zero", "/dev/zero: the WHAT is not a regular file but a character device");
    expectRefused(otherInputs(), "/dev/zero", "/dev/zero: the WHAT is not a regular file but a character device");
    // A data file is known by its extension: /dev/zero is none.
    expectRefused(dataInputs(), "/dev/zero", "/dev/zero: unknown data format");
}

TEST_F(CliInputs, AFileAboveItsKindsCapIsRefusedNamingTheCap)
{
    // Sparse files: refused by their size, so nothing near the cap is written or read.
    auto sparse = [&](const std::string& name, std::uint64_t size) {
        const auto path = m_dir / name;
        { std::ofstream touch(path); }
        fs::resize_file(path, size);
        return path.string();
    };
    expectRefused(ruleSetInputs(), sparse("big.yaml", (4ULL << 20) + 1), "FILE: the rule set is larger than 4 MiB");
    expectRefused(dataInputs(), sparse("big.csv", (16ULL << 30) + 1), "FILE: the data file is larger than 16 GiB");
    const auto big = sparse("big.json", (1ULL << 20) + 1);
    expectRefused(otherInputs(), big, "FILE: the WHAT is larger than 1 MiB");
}

TEST_F(CliInputs, ASnippetIsReadThroughTheSameReader)
{
    const auto fifo = (m_dir / "snippet.py").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    expectRefused({{"run" + store() + " FILE", "snippet"}}, fifo,
                  "FILE: the snippet is not a regular file but a FIFO");
    const auto endless = cliWithin(20, "run --lang sh" + store() + " - < /dev/zero", true);
    EXPECT_EQ(endless.status, 1) << endless.out;
    EXPECT_NE(endless.out.find("stdin: the snippet is larger than 1 MiB"), std::string::npos) << endless.out;
}

} // namespace sb::clitest
