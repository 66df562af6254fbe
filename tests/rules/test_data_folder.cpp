// A folder of data files read as one dataset (rules/data_folder.h): the records of its files in name order, as
// the files concatenated would give them, but for messages, which name each file and its own lines; and the
// same folder cut into shards of pieces (splitDataFiles), each shard read on its own with the merged scans'
// types, as a cluster's tasks read it.

#include "rules/data_folder.h"
#include "rules/partials.h"
#include "rules/shards.h"

#include "rules_test_util.h"

#include <gtest/gtest.h>

#include <string>

namespace sb::rules {
namespace {

namespace fs = std::filesystem;

struct Read {
    std::optional<Dataset> data;
    ReadReport report;
    std::string error;
};

ReadOptions options(DataFormat format, BadRowPolicy policy = BadRowPolicy::Fail, std::vector<Field> declared = {})
{
    ReadOptions o;
    o.format = format;
    o.onBadRow = policy;
    o.declared = std::move(declared);
    o.maxBadRowExamples = 3;
    return o;
}

Read readFolder(const fs::path& dir, const ReadOptions& o)
{
    Read r;
    auto folder = listDataFolder(dir);
    if (!folder) {
        r.error = folder.error().message;
        return r;
    }
    auto data = readDataFolder(*folder, o, dir.string(), &r.report);
    if (data)
        r.data = std::move(*data);
    else
        r.error = data.error().message;
    return r;
}

Read readFile(const fs::path& file, const ReadOptions& o)
{
    Read r;
    auto data = readDataset(file, o, &r.report);
    if (data)
        r.data = std::move(*data);
    else
        r.error = data.error().message;
    return r;
}

// The folder cut into at most n shards and read as a cluster reads it: heads checked, every piece scanned (its
// scan through JSON, as a task hands it back), the scans merged, each shard read with the settled columns, the
// records and reports put together in shard order.
Read readFolderInShards(const fs::path& dir, const ReadOptions& o, std::size_t n, const fs::path& scratch)
{
    Read r;
    auto folder = listDataFolder(dir);
    if (!folder) {
        r.error = folder.error().message;
        return r;
    }
    ReadOptions read = o;
    read.format = folder->format;
    auto head = scanFolderHeads(*folder, read);
    if (!head) {
        r.error = head.error().message;
        return r;
    }
    fs::remove_all(scratch);
    fs::create_directories(scratch);
    auto shards = splitDataFiles(folder->files, scratch, {n, folder->format, nullptr, {}});
    EXPECT_TRUE(shards) << (shards ? "" : shards.error().message);
    if (!shards)
        return r;
    EXPECT_LE(shards->size(), n);
    if (head->needed) {
        std::vector<ColumnScan> scans;
        for (const auto& pieces : *shards) {
            for (const Shard& piece : pieces) {
                auto scan = scanColumns(piece.path, readOptionsFor(piece, read, dir.string()));
                if (!scan) {
                    r.error = scan.error().message;
                    return r;
                }
                scans.push_back(*columnScanFromJson(nlohmann::json::parse(columnScanToJson(*scan).dump())));
            }
        }
        auto merged = mergeScans(scans, read, dir.string());
        if (!merged) {
            r.error = merged.error().message;
            return r;
        }
        read.columns = settleColumns(*merged);
    }
    std::optional<DatasetBuilder> all;
    for (std::size_t k = 0; k < shards->size(); ++k) {
        ReadReport report;
        auto data = readShards((*shards)[k], read, dir.string(), &report);
        if (!data) {
            r.error = data.error().message;
            return r;
        }
        auto copied = *readReportFromJson(nlohmann::json::parse(readReportToJson(report).dump()));
        if (k == 0)
            r.report = copied;
        else
            addReadReport(r.report, copied, o.maxBadRowExamples);
        if (!all)
            all.emplace(data->schema(), data->idColumn(), dir.string());
        all->append(std::move(*data));
    }
    r.data = all->finish();
    return r;
}

// The same records, columns and values (record ids too: numbers run across the files).
void expectSameRecords(const Dataset& a, const Dataset& b)
{
    ASSERT_EQ(a.schema(), b.schema());
    ASSERT_EQ(a.idColumn(), b.idColumn());
    ASSERT_EQ(a.rowCount(), b.rowCount());
    for (std::size_t r = 0; r < a.rowCount(); ++r) {
        EXPECT_EQ(a.recordId(r), b.recordId(r));
        for (std::size_t c = 0; c < a.columnCount(); ++c) {
            EXPECT_EQ(a.isMissing(r, c), b.isMissing(r, c));
            EXPECT_EQ(cellText(a.value(r, c)), cellText(b.value(r, c))) << "record " << r << " column " << c;
        }
    }
}

void expectSameReads(const Read& a, const Read& b)
{
    ASSERT_EQ(a.error, b.error);
    ASSERT_EQ(a.data.has_value(), b.data.has_value());
    if (a.data)
        expectSameRecords(*a.data, *b.data);
    EXPECT_EQ(a.report.records, b.report.records);
    EXPECT_EQ(a.report.kept, b.report.kept);
    EXPECT_EQ(a.report.badRows, b.report.badRows);
}

// A CSV file of `rows` records starting at `first`: no id column; amount an integer but in `doubleAt`.
std::string csvPart(int first, int rows, int doubleAt = -1)
{
    std::string text = "amount,country,note\n";
    for (int i = first; i < first + rows; ++i)
        text += (i == doubleAt ? std::to_string(i) + ".5" : std::to_string(i)) + "," + (i % 3 ? "US" : "NG") +
                ",\"n, " + std::to_string(i) + "\"\n";
    return text;
}

std::string withoutHeader(const std::string& csv)
{
    return csv.substr(csv.find('\n') + 1);
}

TEST(DataFolder, IsItsFilesInNameOrderAsOneFile)
{
    TempFolder tmp;
    const fs::path dir = tmp.path() / "parts";
    fs::create_directories(dir / "sub");
    // Byte order: "part-1.csv" < "part-10.csv" ('.' < '0'), "Z" < "a".
    const std::string a = csvPart(1, 40), b = csvPart(41, 3), c = csvPart(44, 25, 50), d = csvPart(69, 1);
    tmp.write("parts/part-1.csv", a);
    tmp.write("parts/part-10.csv", b);
    tmp.write("parts/part-2.csv", c);
    tmp.write("parts/Z.csv", d);
    // Not read: hidden files, subfolders, other extensions.
    tmp.write("parts/.part-0.csv", "binary\0junk");
    tmp.write("parts/sub/part-3.csv", "other,header\n1,2\n");
    tmp.write("parts/_SUCCESS", "");
    tmp.write("parts/README.txt", "parts of a job\n");
    const auto whole = tmp.write("whole.csv", d + withoutHeader(a) + withoutHeader(b) + withoutHeader(c));

    auto listed = listDataFolder(dir);
    ASSERT_TRUE(listed) << listed.error().message;
    ASSERT_EQ(listed->files.size(), 4u);
    EXPECT_EQ(listed->files[0], dir / "Z.csv");
    EXPECT_EQ(listed->files[1], dir / "part-1.csv");
    EXPECT_EQ(listed->files[2], dir / "part-10.csv");
    EXPECT_EQ(listed->files[3], dir / "part-2.csv");

    const Read folder = readFolder(dir, options(DataFormat::Csv));
    const Read file = readFile(whole, options(DataFormat::Csv));
    ASSERT_TRUE(folder.data) << folder.error;
    expectSameReads(folder, file);
    const Dataset& data = *folder.data;
    // One double among the integers of the last file types the column as of all files.
    EXPECT_EQ(data.schema().fields[0].type, FieldType::Double);
    // Without an id column records are numbered across the folder; each keeps its own file's line.
    EXPECT_EQ(data.idColumn(), -1);
    EXPECT_EQ(data.recordId(1), "2");
    EXPECT_EQ(data.recordSource(0), (dir / "Z.csv").string());
    EXPECT_EQ(data.sourceLine(0), 2);
    EXPECT_EQ(data.recordId(1 + 40), "42");
    EXPECT_EQ(data.recordSource(1 + 40), (dir / "part-10.csv").string());
    EXPECT_EQ(data.sourceLine(1 + 40), 2);
    EXPECT_EQ(data.source(), dir.string());

    for (std::size_t n : {1, 2, 3, 4, 7, 40}) {
        SCOPED_TRACE(n);
        expectSameReads(readFolderInShards(dir, options(DataFormat::Csv), n, tmp.path() / "shards"), folder);
    }
}

TEST(DataFolder, JsonLinesFilesAreOneInput)
{
    TempFolder tmp;
    fs::create_directories(tmp.path() / "j");
    std::string all;
    for (int f = 0; f < 3; ++f) {
        std::string text;
        for (int i = 0; i < 30; ++i) {
            const int n = f * 30 + i;
            // A field that first appears in the second file, and a type settled in the last.
            text += "{\"id\": \"r" + std::to_string(n) + "\", \"amount\": " +
                    (n == 80 ? std::string("1.25") : std::to_string(n)) +
                    (f > 0 && i % 7 == 0 ? ", \"extra\": {\"flag\": true}" : "") + "}\n";
        }
        tmp.write("j/p" + std::to_string(f) + (f == 1 ? ".ndjson" : ".jsonl"), text);
        all += text;
    }
    const auto whole = tmp.write("whole.jsonl", all);
    const Read folder = readFolder(tmp.path() / "j", options(DataFormat::JsonLines));
    ASSERT_TRUE(folder.data) << folder.error;
    expectSameReads(folder, readFile(whole, options(DataFormat::JsonLines)));
    EXPECT_EQ(folder.data->schema().fields[1].type, FieldType::Double);
    EXPECT_EQ(folder.data->schema().fields[2].name, "extra.flag");
    for (std::size_t n : {1, 2, 5, 12})
        expectSameReads(readFolderInShards(tmp.path() / "j", options(DataFormat::JsonLines), n, tmp.path() / "s"),
                        folder);
}

TEST(DataFolder, ErrorsAndBadRowsNameTheFileAndItsLine)
{
    TempFolder tmp;
    const fs::path dir = tmp.path() / "parts";
    fs::create_directories(dir);
    tmp.write("parts/a.csv", "id,amount\nr1,1\nr2,2\n");
    tmp.write("parts/b.csv", "id,amount\nr3,3\nr4,x\nr5,5,6\nr6,6\n");
    const std::vector<Field> declared = {{"amount", FieldType::Double}};
    const std::string b = (dir / "b.csv").string();

    const Read failed = readFolder(dir, options(DataFormat::Csv, BadRowPolicy::Fail, declared));
    EXPECT_EQ(failed.error.rfind(b + ":3: field 'amount'", 0), 0u) << failed.error;
    const Read skipped = readFolder(dir, options(DataFormat::Csv, BadRowPolicy::Skip, declared));
    ASSERT_TRUE(skipped.data) << skipped.error;
    EXPECT_EQ(skipped.data->rowCount(), 4u);
    ASSERT_EQ(skipped.report.badRowExamples.size(), 2u);
    EXPECT_EQ(skipped.report.badRowExamples[0].file, b);
    EXPECT_EQ(skipped.report.badRowExamples[0].line, 3);
    EXPECT_EQ(skipped.report.badRowExamples[1].line, 4);
    for (std::size_t n : {1, 2, 3}) {
        SCOPED_TRACE(n);
        const Read sharded = readFolderInShards(dir, options(DataFormat::Csv, BadRowPolicy::Skip, declared), n,
                                                tmp.path() / "shards");
        expectSameReads(sharded, skipped);
        ASSERT_EQ(sharded.report.badRowExamples.size(), 2u);
        EXPECT_EQ(sharded.report.badRowExamples[1].file, b);
        EXPECT_EQ(sharded.report.badRowExamples[1].line, 4);
        EXPECT_EQ(readFolderInShards(dir, options(DataFormat::Csv, BadRowPolicy::Fail, declared), n,
                                     tmp.path() / "shards")
                      .error,
                  failed.error);
    }

    // Binary content in one file is refused as that file alone is, naming it.
    tmp.write("parts/c.csv", std::string("id,amount\nr7,\0\n", 15));
    const Read binary = readFolder(dir, options(DataFormat::Csv));
    EXPECT_EQ(binary.error.rfind((dir / "c.csv").string() + ":2: binary content", 0), 0u) << binary.error;
}

TEST(DataFolder, OneFormatOneHeaderAndSomeDataFile)
{
    TempFolder tmp;
    const fs::path dir = tmp.path() / "d";
    fs::create_directories(dir / "sub.csv");
    tmp.write("d/.hidden.csv", "id,amount\nr1,1\n");
    EXPECT_EQ(readFolder(dir, options(DataFormat::Csv)).error,
              dir.string() + ": a folder with no data files (.csv, .jsonl or .ndjson files directly in it; "
                             "subfolders and hidden files are not read)");

    tmp.write("d/a.csv", "id,amount,country\nr1,1,US\n");
    tmp.write("d/b.csv", "id,amount,country\nr2,2,FR\n");
    EXPECT_TRUE(readFolder(dir, options(DataFormat::Csv)).data);

    tmp.write("d/c.csv", "id,amt,country\nr3,3,NG\n");
    EXPECT_EQ(readFolder(dir, options(DataFormat::Csv)).error,
              (dir / "c.csv").string() + ": its header differs from " + (dir / "a.csv").string() +
                  "'s: column 2 is 'amt', but 'amount' in " + (dir / "a.csv").string() +
                  " (a folder's CSV files have one header)");
    tmp.write("d/c.csv", "id,amount\nr3,3\n");
    EXPECT_NE(readFolder(dir, options(DataFormat::Csv)).error.find("column 3 'country' of " + (dir / "a.csv").string() +
                                                                   " is missing"),
              std::string::npos);
    tmp.write("d/c.csv", "id,amount,country,note\nr3,3,NG,x\n");
    EXPECT_NE(readFolder(dir, options(DataFormat::Csv)).error.find("column 4 'note' is not in"), std::string::npos);
    fs::remove(dir / "c.csv");

    tmp.write("d/c.jsonl", "{\"id\": \"r3\"}\n");
    EXPECT_EQ(readFolder(dir, options(DataFormat::Csv)).error,
              dir.string() + ": a.csv is CSV but c.jsonl is JSON Lines: a folder's files are one dataset of one format");
}

TEST(DataFolder, ShardsGroupSmallFilesAndCutBigOnes)
{
    TempFolder tmp;
    const fs::path dir = tmp.path() / "d";
    fs::create_directories(dir);
    tmp.write("d/a.csv", csvPart(1, 1000));
    for (int f = 0; f < 6; ++f)
        tmp.write("d/b" + std::to_string(f) + ".csv", csvPart(2000 + f * 10, 10));
    auto folder = listDataFolder(dir);
    ASSERT_TRUE(folder);
    fs::create_directories(tmp.path() / "s");
    auto shards = splitDataFiles(folder->files, tmp.path() / "s", {4, DataFormat::Csv, nullptr, {}});
    ASSERT_TRUE(shards) << shards.error().message;
    ASSERT_EQ(shards->size(), 4u);
    // The big file is cut into the first shards; the small ones after it share the last.
    EXPECT_EQ((*shards)[0].size(), 1u);
    EXPECT_EQ((*shards)[0][0].source, (dir / "a.csv").string());
    EXPECT_GE(shards->back().size(), 6u);
    EXPECT_EQ(shards->back().back().source, (dir / "b5.csv").string());
}

} // namespace
} // namespace sb::rules
