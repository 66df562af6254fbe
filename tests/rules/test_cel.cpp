#include "rules/cel/program.h"

#include <gtest/gtest.h>

TEST(Cel, Placeholder)
{
    SUCCEED();
}
