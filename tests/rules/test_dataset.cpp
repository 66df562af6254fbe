// Datasets (core/rules/dataset.h): CSV and JSON Lines readers, types, bad rows, sampling.

#include "rules/dataset.h"

#include "rules_test_util.h"

#include <gtest/gtest.h>

#include <fstream>

namespace sb::rules {
namespace {

ReadOptions csv()
{
    return ReadOptions{};
}

ReadOptions jsonl()
{
    ReadOptions o;
    o.format = DataFormat::JsonLines;
    return o;
}

Dataset read(std::string_view text, const ReadOptions& options = csv(), ReadReport* report = nullptr)
{
    auto d = readDatasetText(text, "data.csv", options, report);
    EXPECT_TRUE(d.has_value()) << (d ? "" : d.error().message);
    return d ? std::move(*d) : Dataset{};
}

std::string readError(std::string_view text, const ReadOptions& options = csv())
{
    auto d = readDatasetText(text, "data.csv", options);
    EXPECT_FALSE(d.has_value());
    return d ? std::string() : d.error().message;
}

std::string text(const Dataset& d, std::size_t row, std::string_view column)
{
    const int c = d.schema().find(column);
    EXPECT_GE(c, 0) << column;
    return c < 0 ? std::string() : cellText(d.value(row, static_cast<std::size_t>(c)));
}

FieldType typeOf(const Dataset& d, std::string_view column)
{
    const int c = d.schema().find(column);
    EXPECT_GE(c, 0) << column;
    return c < 0 ? FieldType::String : d.schema().fields[static_cast<std::size_t>(c)].type;
}

TEST(DatasetCsv, ReadsHeaderAndRows)
{
    const Dataset d = read("id,amount,country\nt1,12.5,US\nt2,7,FR\n");
    ASSERT_EQ(d.rowCount(), 2u);
    ASSERT_EQ(d.columnCount(), 3u);
    EXPECT_EQ(d.schema().fields[0].name, "id");
    EXPECT_EQ(text(d, 1, "country"), "FR");
    EXPECT_EQ(d.recordId(0), "t1");
    EXPECT_EQ(d.sourceLine(0), 2);
    EXPECT_EQ(d.sourceLine(1), 3);
    EXPECT_EQ(d.findRecord("t2"), std::optional<std::size_t>(1));
    EXPECT_FALSE(d.findRecord("t3"));
}

TEST(DatasetCsv, QuotingAsRfc4180)
{
    const Dataset d = read("id,note\n"
                           "1,\"a, b\"\n"
                           "2,\"say \"\"hi\"\"\"\n"
                           "3,\"two\nlines\"\n"
                           "4,\"\"\n"
                           "5,plain\n");
    ASSERT_EQ(d.rowCount(), 5u);
    EXPECT_EQ(text(d, 0, "note"), "a, b");
    EXPECT_EQ(text(d, 1, "note"), "say \"hi\"");
    EXPECT_EQ(text(d, 2, "note"), "two\nlines");
    EXPECT_EQ(text(d, 3, "note"), "");
    EXPECT_EQ(text(d, 4, "note"), "plain");
    // A record spanning two lines starts on line 4; the next one is on line 6.
    EXPECT_EQ(d.sourceLine(2), 4);
    EXPECT_EQ(d.sourceLine(3), 6);
}

TEST(DatasetCsv, CrlfBomAndBlankLines)
{
    const Dataset d = read("\xEF\xBB\xBFid,amount\r\n1,10\r\n\r\n2,\"20\"\r\n");
    ASSERT_EQ(d.rowCount(), 2u);
    EXPECT_EQ(d.schema().fields[0].name, "id"); // the BOM is not part of the first name
    EXPECT_EQ(typeOf(d, "amount"), FieldType::Int);
    EXPECT_EQ(text(d, 1, "amount"), "20");
    EXPECT_EQ(d.sourceLine(1), 4);
    // No newline at the end of the file.
    const Dataset e = read("id,x\n1,a\n2,b");
    ASSERT_EQ(e.rowCount(), 2u);
    EXPECT_EQ(text(e, 1, "x"), "b");
}

TEST(DatasetCsv, InfersTypes)
{
    const Dataset d = read("id,n,x,b,t,s,zip,mixed,empty\n"
                           "1,5,1.5,true,2024-05-01T12:00:00Z,abc,01234,1,\n"
                           "2,-7,2,FALSE,2024-05-02T00:00:00.5+02:00,def,02345,x,\n"
                           "3,,1e3,,,,90210,2,\n");
    EXPECT_EQ(typeOf(d, "id"), FieldType::String); // ids stay text
    EXPECT_EQ(typeOf(d, "n"), FieldType::Int);
    EXPECT_EQ(typeOf(d, "x"), FieldType::Double);
    EXPECT_EQ(typeOf(d, "b"), FieldType::Bool);
    EXPECT_EQ(typeOf(d, "t"), FieldType::Timestamp);
    EXPECT_EQ(typeOf(d, "s"), FieldType::String);
    EXPECT_EQ(typeOf(d, "zip"), FieldType::String); // leading zeros: not a number
    EXPECT_EQ(typeOf(d, "mixed"), FieldType::String);
    EXPECT_EQ(typeOf(d, "empty"), FieldType::String);
    EXPECT_TRUE(d.isMissing(2, static_cast<std::size_t>(d.schema().find("n"))));
    EXPECT_EQ(text(d, 1, "t"), "2024-05-01T22:00:00.5Z");
    EXPECT_EQ(d.value(0, 2).asDouble(), 1.5);
    const cel::Value missing = d.value(2, 1);
    ASSERT_TRUE(missing.isError());
    EXPECT_EQ(missing.asError().message, "no value for 'n'");
}

TEST(DatasetCsv, SpacesAroundValuesAreNotText)
{
    const Dataset d =
        read("id, amount, ok, when, name\n1, 12.5, true, 2024-05-01T00:00:00Z,  Ann \n2, 3, false, , Bo\n");
    EXPECT_EQ(d.schema().fields[1].name, "amount");
    EXPECT_EQ(typeOf(d, "amount"), FieldType::Double);
    EXPECT_EQ(typeOf(d, "ok"), FieldType::Bool);
    EXPECT_EQ(typeOf(d, "when"), FieldType::Timestamp);
    EXPECT_TRUE(d.isMissing(1, 3));
    EXPECT_EQ(text(d, 0, "name"), "  Ann "); // text keeps its spaces
}

TEST(DatasetCsv, DeclaredTypesWinAndRefuseWhatDoesNotFit)
{
    ReadOptions o = csv();
    o.declared = {{"zip", FieldType::Int}, {"flag", FieldType::Bool}, {"when", FieldType::Timestamp}};
    const Dataset d = read("zip,flag,when\n01234,yes,2024-05-01\n7,0,2024-05-01 10:00:00\n", o);
    EXPECT_EQ(typeOf(d, "zip"), FieldType::Int);
    EXPECT_EQ(d.value(0, 0).asInt(), 1234);
    EXPECT_TRUE(d.value(0, 1).asBool());
    EXPECT_FALSE(d.value(1, 1).asBool());
    EXPECT_EQ(text(d, 1, "when"), "2024-05-01T10:00:00Z");
    const std::string error = readError("zip,flag,when\nabc,true,2024-05-01\n", o);
    EXPECT_NE(error.find("data.csv:2: field 'zip': 'abc' is not an int"), std::string::npos) << error;
}

TEST(DatasetCsv, BadRowsFailByDefaultNamingTheLine)
{
    const std::string error = readError("id,a,b\n1,2,3\n2,3\n3,4,5\n");
    EXPECT_NE(error.find("data.csv:3: expected 3 fields, found 2"), std::string::npos) << error;
    EXPECT_NE(error.find("--on-bad-row skip"), std::string::npos) << error;
}

TEST(DatasetCsv, BadRowsSkippedAreCountedAndShown)
{
    ReadOptions o = csv();
    o.onBadRow = BadRowPolicy::Skip;
    ReadReport report;
    const Dataset d = read("id,a,b\n1,2,3\n2,3\n3,4,5\n4,\"x\"y,6\n5,6,7,8\n", o, &report);
    ASSERT_EQ(d.rowCount(), 2u);
    EXPECT_EQ(d.recordId(1), "3");
    EXPECT_EQ(report.records, 5);
    EXPECT_EQ(report.kept, 2);
    EXPECT_EQ(report.badRows, 3);
    ASSERT_EQ(report.badRowExamples.size(), 3u);
    EXPECT_EQ(report.badRowExamples[0].line, 3);
    EXPECT_EQ(report.badRowExamples[1].line, 5);
    EXPECT_NE(report.badRowExamples[1].message.find("after its closing quote"), std::string::npos);
    EXPECT_EQ(report.badRowExamples[2].line, 6);
    EXPECT_EQ(typeOf(d, "a"), FieldType::Int); // bad rows do not take part in inference
}

TEST(DatasetCsv, InvalidUtf8IsABadRow)
{
    ReadOptions o = csv();
    o.onBadRow = BadRowPolicy::Skip;
    ReadReport report;
    const Dataset d = read("id,name\n1,ok\n2,caf\xE9\n3,caf\xC3\xA9\n", o, &report);
    ASSERT_EQ(d.rowCount(), 2u);
    EXPECT_EQ(text(d, 1, "name"), "caf\xC3\xA9");
    ASSERT_EQ(report.badRows, 1);
    EXPECT_EQ(report.badRowExamples[0].line, 3);
    EXPECT_NE(report.badRowExamples[0].message.find("not UTF-8"), std::string::npos);
    EXPECT_NE(readError("id,name\n1,caf\xE9\n").find("data.csv:2:"), std::string::npos);
}

TEST(DatasetCsv, BinaryHugeAndUnclosedInputFailWhateverThePolicy)
{
    ReadOptions skip = csv();
    skip.onBadRow = BadRowPolicy::Skip;
    std::string binary = "id,a\n1,2\n2,\x01\x02";
    binary += '\0';
    binary += "zz\n";
    const std::string e1 = readError(binary, skip);
    EXPECT_NE(e1.find("data.csv:3: binary content"), std::string::npos) << e1;

    skip.maxRecordBytes = 1000;
    const std::string huge = "id,a\n1,2\n2," + std::string(5000, 'x') + "\n";
    const std::string e2 = readError(huge, skip);
    EXPECT_NE(e2.find("data.csv:3: a record longer than 1000 bytes"), std::string::npos) << e2;

    const std::string e3 = readError("id,a\n1,2\n2,\"never closed\n3,4\n", skip);
    EXPECT_NE(e3.find("data.csv:3: a quoted field opened on this line is never closed"), std::string::npos) << e3;

    EXPECT_NE(readError("").find("empty"), std::string::npos);
    EXPECT_NE(readError("id,id\n1,2\n").find("names column 'id' twice"), std::string::npos);
    EXPECT_NE(readError("id,,x\n1,2,3\n").find("column 2 has no name"), std::string::npos);
}

TEST(DatasetCsv, FileIsStreamedInBlocksAndReadTwice)
{
    TempFolder dir;
    // More than one read block (1 MiB), with quoted fields crossing block boundaries.
    std::string content = "id,amount,note\n";
    for (int i = 0; i < 60000; ++i)
        content += std::to_string(i) + "," + std::to_string(i % 997) + ".25,\"note, with \"\"quotes\"\" "
                   + std::to_string(i) + "\"\r\n";
    const auto path = dir.write("big.csv", content);
    ReadReport report;
    auto d = readDataset(path, csv(), &report);
    ASSERT_TRUE(d) << d.error().message;
    ASSERT_EQ(d->rowCount(), 60000u);
    EXPECT_EQ(typeOf(*d, "amount"), FieldType::Double);
    EXPECT_EQ(text(*d, 59999, "note"), "note, with \"quotes\" 59999");
    EXPECT_EQ(d->sourceLine(59999), 60001);
    EXPECT_EQ(report.kept, 60000);

    auto missing = readDataset(dir.path() / "nope.csv", csv());
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("nope.csv: cannot read the data file: no such file"), std::string::npos);
}

// The same records, cells, report and first error on many threads as on one.
TEST(DatasetCsv, ManyThreadsReadWhatOneReads)
{
    std::string content = "id,amount,note,flag,when\n";
    for (int i = 0; i < 3000; ++i) {
        if (i % 97 == 5)
            content += std::to_string(i) + ",1\n"; // too few fields
        else if (i % 211 == 7)
            content += std::to_string(i) + ",\"x\"y,a,true,\n"; // text after a closing quote
        else if (i % 389 == 11)
            content += std::to_string(i) + ",2,caf\xE9,false,\n"; // not UTF-8
        else
            content += std::to_string(i) + "," + std::to_string(i % 13) + (i % 5 ? ".5" : "") + ",\"n, \"\"" +
                       std::to_string(i % 7) + "\"\"\nline\"," + (i % 2 ? "true" : "false") + "," +
                       (i % 3 ? "2024-05-01T00:00:00Z" : "") + "\n";
    }
    for (const bool declare : {false, true}) {
        ReadOptions one = csv();
        one.onBadRow = BadRowPolicy::Skip;
        one.threads = 1;
        if (declare)
            one.declared = {{"amount", FieldType::Double}, {"flag", FieldType::Bool}};
        ReadOptions many = one;
        many.threads = 3;
        many.parallelMinBytes = 0;
        many.batchRecords = 7;
        ReadReport r1, r2;
        const Dataset a = read(content, one, &r1);
        const Dataset b = read(content, many, &r2);
        ASSERT_EQ(a.schema(), b.schema());
        ASSERT_EQ(a.rowCount(), b.rowCount());
        for (std::size_t row = 0; row < a.rowCount(); ++row) {
            ASSERT_EQ(a.sourceLine(row), b.sourceLine(row));
            for (std::size_t c = 0; c < a.columnCount(); ++c)
                ASSERT_EQ(cellText(a.value(row, c)), cellText(b.value(row, c))) << row << "," << c;
        }
        EXPECT_EQ(r1.records, r2.records);
        EXPECT_EQ(r1.kept, r2.kept);
        EXPECT_EQ(r1.badRows, r2.badRows);
        ASSERT_EQ(r1.badRowExamples.size(), r2.badRowExamples.size());
        for (std::size_t i = 0; i < r1.badRowExamples.size(); ++i) {
            EXPECT_EQ(r1.badRowExamples[i].line, r2.badRowExamples[i].line);
            EXPECT_EQ(r1.badRowExamples[i].message, r2.badRowExamples[i].message);
        }
        EXPECT_GT(r1.badRows, 30);
        one.onBadRow = many.onBadRow = BadRowPolicy::Fail;
        EXPECT_EQ(readError(content, one), readError(content, many));
        one.sample = many.sample = 0.3;
        EXPECT_EQ(read(content.substr(0, content.find("\n5,1\n")), one).rowCount(),
                  read(content.substr(0, content.find("\n5,1\n")), many).rowCount());
    }
}

TEST(DatasetCsv, IdColumnNamedOrNumbers)
{
    ReadOptions o = csv();
    o.idColumn = "txn";
    const Dataset d = read("a,txn\n1,x9\n2,x8\n", o);
    EXPECT_EQ(d.recordId(1), "x8");
    const Dataset numbered = read("a,b\n1,2\n3,4\n");
    EXPECT_EQ(numbered.idColumn(), -1);
    EXPECT_EQ(numbered.recordId(1), "2");
    EXPECT_EQ(numbered.findRecord("2"), std::optional<std::size_t>(1));
    EXPECT_FALSE(numbered.findRecord("3"));
    o.idColumn = "nope";
    EXPECT_NE(readError("a,b\n1,2\n", o).find("no column named 'nope'"), std::string::npos);
}

TEST(DatasetSampling, DeterministicBySeedAndRatio)
{
    std::string content = "id,v\n";
    for (int i = 0; i < 2000; ++i)
        content += std::to_string(i) + "," + std::to_string(i * 3) + "\n";
    ReadOptions o = csv();
    o.sample = 0.25;
    o.seed = 42;
    const Dataset a = read(content, o);
    const Dataset b = read(content, o);
    ASSERT_EQ(a.rowCount(), b.rowCount());
    for (std::size_t r = 0; r < a.rowCount(); ++r)
        ASSERT_EQ(a.recordId(r), b.recordId(r));
    EXPECT_GT(a.rowCount(), 400u);
    EXPECT_LT(a.rowCount(), 600u);
    o.seed = 43;
    const Dataset c = read(content, o);
    bool differs = c.rowCount() != a.rowCount();
    for (std::size_t r = 0; !differs && r < a.rowCount(); ++r)
        differs = a.recordId(r) != c.recordId(r);
    EXPECT_TRUE(differs);
    // Which records sampling keeps does not depend on how many are read.
    o.seed = 42;
    o.maxRows = 10;
    ReadReport report;
    const Dataset first = read(content, o, &report);
    ASSERT_EQ(first.rowCount(), 10u);
    EXPECT_TRUE(report.stoppedAtMaxRows);
    for (std::size_t r = 0; r < 10; ++r)
        EXPECT_EQ(first.recordId(r), a.recordId(r));
    EXPECT_TRUE(sampleKeeps(1, 1, 1.0));
    EXPECT_FALSE(sampleKeeps(1, 1, 0.0));
    o.sample = 0;
    EXPECT_FALSE(readDatasetText(content, "x.csv", o));
}

TEST(DatasetJsonLines, ReadsObjectsNestedAndMissing)
{
    const Dataset d = read("{\"id\": 1, \"amount\": 10, \"merchant\": {\"country\": \"FR\"}, \"ok\": true}\n"
                           "\n"
                           "{\"id\": 2, \"amount\": 2.5, \"merchant\": {\"country\": \"US\"}, \"extra\": null}\r\n"
                           "{\"id\": 3, \"ts\": \"2024-05-01T00:00:00Z\"}\n",
                           jsonl());
    ASSERT_EQ(d.rowCount(), 3u);
    EXPECT_EQ(d.schema().fields[1].name, "amount"); // in the order of the lines, not sorted
    EXPECT_EQ(d.schema().fields[2].name, "merchant.country");
    EXPECT_EQ(typeOf(d, "id"), FieldType::String);
    EXPECT_EQ(d.recordId(2), "3");
    EXPECT_EQ(typeOf(d, "amount"), FieldType::Double);
    EXPECT_EQ(typeOf(d, "merchant.country"), FieldType::String);
    EXPECT_EQ(typeOf(d, "ok"), FieldType::Bool);
    EXPECT_EQ(typeOf(d, "ts"), FieldType::Timestamp);
    EXPECT_EQ(text(d, 1, "merchant.country"), "US");
    EXPECT_TRUE(d.isMissing(1, static_cast<std::size_t>(d.schema().find("ok"))));
    EXPECT_TRUE(d.isMissing(2, static_cast<std::size_t>(d.schema().find("amount"))));
    EXPECT_EQ(d.sourceLine(1), 3);
}

TEST(DatasetJsonLines, BadLinesSkippedOrRefused)
{
    const std::string input = "{\"a\": 1}\n{\"a\": \n[1, 2]\n{\"a\": [1]}\n{\"a\": 2}\n";
    const std::string error = readError(input, jsonl());
    EXPECT_NE(error.find("data.csv:2: not valid JSON"), std::string::npos) << error;
    ReadOptions o = jsonl();
    o.onBadRow = BadRowPolicy::Skip;
    ReadReport report;
    const Dataset d = read(input, o, &report);
    EXPECT_EQ(d.rowCount(), 2u);
    EXPECT_EQ(report.badRows, 3);
    ASSERT_EQ(report.badRowExamples.size(), 3u);
    EXPECT_EQ(report.badRowExamples[1].line, 3);
    EXPECT_NE(report.badRowExamples[1].message.find("not a JSON object"), std::string::npos);
    EXPECT_NE(report.badRowExamples[2].message.find("is an array"), std::string::npos);
    o.declared = {{"a", FieldType::Int}};
    ReadReport declared;
    const Dataset e = read("{\"a\": 1}\n{\"a\": \"x\"}\n{\"a\": 3.0}\n", o, &declared);
    EXPECT_EQ(e.rowCount(), 2u);
    EXPECT_EQ(declared.badRows, 1);
    EXPECT_EQ(e.value(1, 0).asInt(), 3);
}

TEST(DatasetJsonLines, MixedValuesBecomeText)
{
    const Dataset d = read("{\"v\": 1}\n{\"v\": \"two\"}\n{\"v\": true}\n", jsonl());
    EXPECT_EQ(typeOf(d, "v"), FieldType::String);
    EXPECT_EQ(text(d, 0, "v"), "1");
    EXPECT_EQ(text(d, 2, "v"), "true");
    std::string nul = "{\"v\": 1}\n{\"v\": \"a";
    nul += '\0';
    nul += "\"}\n";
    EXPECT_NE(readError(nul, jsonl()).find("data.csv:2: binary content"), std::string::npos);
}

TEST(DatasetTypes, AdaptIntToDouble)
{
    Dataset d = read("id,n\n1,5\n2,\n");
    ASSERT_TRUE(d.adaptTo({{"n", FieldType::Double}}));
    EXPECT_EQ(typeOf(d, "n"), FieldType::Double);
    EXPECT_EQ(d.value(0, 1).kind(), cel::Kind::Double);
    EXPECT_TRUE(d.isMissing(1, 1));
    auto refused = d.adaptTo({{"id", FieldType::Int}});
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("declared int but the data has it as string"), std::string::npos);
}

TEST(DatasetFormats, ByExtension)
{
    EXPECT_EQ(formatForPath("a/b.CSV"), DataFormat::Csv);
    EXPECT_EQ(formatForPath("x.jsonl"), DataFormat::JsonLines);
    EXPECT_EQ(formatForPath("x.ndjson"), DataFormat::JsonLines);
    EXPECT_FALSE(formatForPath("x.txt"));
    EXPECT_FALSE(formatForPath("dataset-name"));
}

} // namespace
} // namespace sb::rules
