#include "util/uuid.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using sb::isCanonicalUuid;
using sb::randomUuid;

TEST(Uuid, IsCanonicalVersion4Text)
{
    for (int i = 0; i < 200; ++i) {
        const auto id = randomUuid();
        ASSERT_TRUE(id) << id.error().message;
        EXPECT_TRUE(isCanonicalUuid(*id)) << *id;
        EXPECT_EQ((*id)[14], '4') << *id;                                         // the version
        EXPECT_NE(std::string("89ab").find((*id)[19]), std::string::npos) << *id; // the variant
    }
}

TEST(Uuid, DoesNotRepeat)
{
    std::set<std::string> seen;
    for (int i = 0; i < 1000; ++i)
        EXPECT_TRUE(seen.insert(randomUuid().value()).second);
}

TEST(Uuid, CanonicalTextIsExact)
{
    EXPECT_TRUE(isCanonicalUuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"));
    EXPECT_FALSE(isCanonicalUuid(""));
    EXPECT_FALSE(isCanonicalUuid("0F1E2D3C-4B5A-4968-8776-A5B4C3D2E1F0"));  // upper case
    EXPECT_FALSE(isCanonicalUuid("0f1e2d3c4b5a49688776a5b4c3d2e1f0"));      // no dashes
    EXPECT_FALSE(isCanonicalUuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f"));   // short
    EXPECT_FALSE(isCanonicalUuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f00")); // long
    EXPECT_FALSE(isCanonicalUuid("0f1e2d3c-4b5a-4968-8776_a5b4c3d2e1f0"));  // a dash replaced
    EXPECT_FALSE(isCanonicalUuid("0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1g0"));  // not hex
}
