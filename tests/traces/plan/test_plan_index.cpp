// The dense op index and its key table.
#include "hw/common/input_error.h"
#include "tests/support/file_text.h"
#include "tests/traces/plan/sample_plans.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace mcmsim {
namespace test_plan_index {

using namespace plan_test;

// The flow lookup the analytical model fills while it reads a plan, before it knows how many
// flows there are: keys 0, 1, 2, ... grow the flat table, a key past the bound goes to the
// map, and every key finds the value it was given (the first one, when inserted twice).
TEST(KeyIndex, GrowingTableFindsDenseAndSparseKeys) {
    KeyIndex index;
    index.prepare_growing(1000);
    for (std::int64_t k = 0; k < 300; ++k) EXPECT_TRUE(index.insert(k, static_cast<std::size_t>(2 * k)));
    EXPECT_TRUE(index.insert(5000, 7));
    EXPECT_TRUE(index.insert(999, 8));
    EXPECT_FALSE(index.insert(10, 9));
    for (std::int64_t k = 0; k < 300; ++k) EXPECT_EQ(index.find(k), static_cast<std::size_t>(2 * k));
    EXPECT_EQ(index.find(5000), 7u);
    EXPECT_EQ(index.find(999), 8u);
    EXPECT_EQ(index.find(300), KeyIndex::kNone);
    EXPECT_EQ(index.find(4999), KeyIndex::kNone);
    // Prepared again, it forgets every key.
    index.prepare_growing(1000);
    EXPECT_EQ(index.find(10), KeyIndex::kNone);
    EXPECT_EQ(index.find(5000), KeyIndex::kNone);
    EXPECT_TRUE(index.insert(10, 1));
    EXPECT_EQ(index.find(10), 1u);
}

}  // namespace test_plan_index
}  // namespace mcmsim
