// Verifying the audit log as every front end asks for it (usecases/audit_verify.h).

#include "usecases/audit_verify.h"

#include "usecase_fixture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

class AuditVerifyUseCaseTest : public usecasetest::StoreTest {
protected:
    void SetUp() override
    {
        usecasetest::StoreTest::SetUp();
        // Two audited changes: policy versions.
        Policy first;
        first.name = "first";
        ASSERT_TRUE(m_store->recordPolicy(first));
        Policy second;
        second.name = "second";
        ASSERT_TRUE(m_store->recordPolicy(second));
    }
};

TEST_F(AuditVerifyUseCaseTest, AnUntouchedLogIsIntact)
{
    auto verification = verifyAuditLog(*m_store, {});
    ASSERT_TRUE(verification) << verification.error().message;
    EXPECT_EQ(verdictOf(*verification), AuditVerdict::Intact);
    EXPECT_GE(verification->entries, 2);
}

TEST_F(AuditVerifyUseCaseTest, TheHeadIsAnAnchorALaterVerificationFinds)
{
    auto first = verifyAuditLog(*m_store, {});
    ASSERT_TRUE(first) << first.error().message;
    auto anchored = verifyAuditLog(*m_store, {.anchor = first->headHash});
    ASSERT_TRUE(anchored) << anchored.error().message;
    EXPECT_EQ(verdictOf(*anchored), AuditVerdict::Intact);
}

TEST_F(AuditVerifyUseCaseTest, AnAnchorTheLogDoesNotHoldBreaksIt)
{
    auto verification = verifyAuditLog(*m_store, {.anchor = std::string(64, 'a')});
    ASSERT_TRUE(verification) << verification.error().message;
    EXPECT_EQ(verdictOf(*verification), AuditVerdict::Broken);
    ASSERT_TRUE(verification->broken);
    EXPECT_EQ(verification->broken->damage, AuditDamage::AnchorMissing);
}

TEST_F(AuditVerifyUseCaseTest, AKeysFolderWithoutTheStoresKeyIsNotAPass)
{
    const fs::path empty = m_dir / "no-keys";
    fs::create_directories(empty);
    auto verification = verifyAuditLog(*m_store, {.keys = empty});
    ASSERT_TRUE(verification) << verification.error().message;
    EXPECT_EQ(verdictOf(*verification), AuditVerdict::NotVerified);
}

TEST_F(AuditVerifyUseCaseTest, ACancelledVerificationSaysSo)
{
    const std::atomic<bool> cancel{true};
    auto verification = verifyAuditLog(*m_store, {.cancel = &cancel});
    ASSERT_TRUE(verification) << verification.error().message;
    if (!verification->cancelled)
        GTEST_SKIP() << "the log was checked before the cancel was seen";
    EXPECT_EQ(verdictOf(*verification), AuditVerdict::Cancelled);
}

} // namespace
} // namespace sb
