// SHA-256 against the published test vectors (FIPS 180-2 appendix B, NIST CAVP), one-shot and streamed.

#include "util/hash.h"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sb {
namespace {

using namespace std::string_literals;

struct Vector {
    std::string message;
    std::string_view digest;
};

const std::vector<Vector>& knownVectors()
{
    static const std::vector<Vector> vectors = {
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrst"
         "nopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
        {"\0"s, "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d"},
        {std::string(1'000'000, 'a'), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    return vectors;
}

std::string hex(std::string_view message)
{
    auto digest = sha256Hex(message);
    EXPECT_TRUE(digest) << digest.error().message;
    return digest ? *digest : std::string();
}

TEST(Sha256, KnownVectorsOneShot)
{
    for (const auto& v : knownVectors())
        EXPECT_EQ(hex(v.message), v.digest) << "message of " << v.message.size() << " bytes";
}

TEST(Sha256, DigestBytesMatchTheirHex)
{
    auto digest = sha256("abc");
    ASSERT_TRUE(digest) << digest.error().message;
    EXPECT_EQ((*digest)[0], 0xba);
    EXPECT_EQ((*digest)[31], 0xad);
    EXPECT_EQ(toHex(*digest), knownVectors()[1].digest);
}

TEST(Sha256, StreamedInAnyPiecesIsTheSame)
{
    // Every split point of the two-block vector: pieces that end inside, at and across block boundaries.
    const Vector& twoBlocks = knownVectors()[3];
    Sha256 hasher;
    for (std::size_t split = 0; split <= twoBlocks.message.size(); ++split) {
        const std::string_view message = twoBlocks.message;
        hasher.update(message.substr(0, split)).update(message.substr(split));
        auto digest = hasher.finishHex();
        ASSERT_TRUE(digest) << digest.error().message;
        EXPECT_EQ(*digest, twoBlocks.digest) << "split at " << split;
    }

    // A million bytes in uneven pieces around the 64-byte block size.
    const Vector& million = knownVectors()[5];
    const std::array<std::size_t, 6> sizes = {1, 63, 64, 65, 1000, 4096};
    std::size_t offset = 0;
    for (std::size_t i = 0; offset < million.message.size(); ++i) {
        const std::size_t size = std::min(sizes[i % sizes.size()], million.message.size() - offset);
        hasher.update(std::string_view(million.message).substr(offset, size));
        offset += size;
    }
    auto digest = hasher.finishHex();
    ASSERT_TRUE(digest) << digest.error().message;
    EXPECT_EQ(*digest, million.digest);
}

TEST(Sha256, FinishStartsTheNextMessage)
{
    Sha256 hasher;
    hasher.update("ab");
    auto first = hasher.finishHex();
    hasher.update("abc");
    auto second = hasher.finishHex();
    auto empty = hasher.finishHex(); // nothing fed since: the empty message
    ASSERT_TRUE(first && second && empty);
    EXPECT_EQ(*first, hex("ab"));
    EXPECT_EQ(*second, knownVectors()[1].digest);
    EXPECT_EQ(*empty, knownVectors()[0].digest);
}

TEST(Sha256, BinaryBytesThroughEitherOverload)
{
    std::vector<std::byte> bytes;
    for (int i = 0; i < 256; ++i)
        bytes.push_back(static_cast<std::byte>(i));
    const std::string asText(reinterpret_cast<const char*>(bytes.data()), bytes.size());

    Sha256 hasher;
    hasher.update(std::span<const std::byte>(bytes));
    auto viaBytes = hasher.finishHex();
    ASSERT_TRUE(viaBytes);
    EXPECT_EQ(*viaBytes, hex(asText));
    EXPECT_EQ(viaBytes->size(), 64u);
    EXPECT_NE(hex(asText), hex(asText.substr(0, 255))); // the trailing byte counts, NULs included
}

// The hasher is a plain value: a copy taken midway continues its message on its own.
TEST(Sha256, ACopyContinuesTheMessageOnItsOwn)
{
    Sha256 first;
    first.update("ab");
    Sha256 second = first;
    second.update("c");
    auto digest = second.finishHex();
    ASSERT_TRUE(digest);
    EXPECT_EQ(*digest, knownVectors()[1].digest);

    first.update("c");
    auto again = first.finishHex();
    ASSERT_TRUE(again);
    EXPECT_EQ(*again, knownVectors()[1].digest);
}

TEST(Hex, LowerCaseTwoDigitsPerByte)
{
    const std::array<std::uint8_t, 5> bytes = {0x00, 0x0f, 0x10, 0xab, 0xff};
    EXPECT_EQ(toHex(bytes), "000f10abff");
    EXPECT_EQ(toHex(std::span<const std::uint8_t>()), "");
}

// RFC 4231, test cases 1 and 2 (and 6: a key longer than a block, hashed first).
TEST(HmacSha256, KnownVectors)
{
    const std::vector<std::uint8_t> twenty(20, 0x0b);
    EXPECT_EQ(hmacSha256Hex(twenty, "Hi There").value(),
              "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    const std::string jefe = "Jefe";
    EXPECT_EQ(hmacSha256Hex(std::span(reinterpret_cast<const std::uint8_t*>(jefe.data()), jefe.size()),
                            "what do ya want for nothing?")
                  .value(),
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    const std::vector<std::uint8_t> long131(131, 0xaa);
    EXPECT_EQ(hmacSha256Hex(long131, "Test Using Larger Than Block-Size Key - Hash Key First").value(),
              "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

} // namespace
} // namespace sb
