// Synthetic-traffic load points: the saturation verdict, its criteria alone. Expected values
// come from the Mann-Kendall formulas, computed here.
#include "noc/synthetic/saturation_check.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace mcmsim {
namespace test_noc_synthetic {

// Ten rising values: every one of the 45 pairs is concordant, S = 45, and
// z = (S - 1) / sqrt(n(n-1)(2n+5)/18) = 44 / sqrt(125); falling values give the negative.
TEST(NocSyntheticSaturation, MannKendallOfMonotoneSamples) {
    std::vector<double> up, flat(10, 7.0);
    for (int i = 0; i < 10; ++i) up.push_back(30.0 + i);
    EXPECT_NEAR(mann_kendall_z(up), 44.0 / std::sqrt(125.0), 1e-12);
    std::vector<double> down(up.rbegin(), up.rend());
    EXPECT_NEAR(mann_kendall_z(down), -44.0 / std::sqrt(125.0), 1e-12);
    EXPECT_EQ(mann_kendall_z(flat), 0.0);
    // Three values can reach at most S = 3: z = 2 / sqrt(3 * 2 * 11 / 18), never significant.
    EXPECT_NEAR(mann_kendall_z({1, 2, 3}), 2.0 / std::sqrt(66.0 / 18.0), 1e-12);
    EXPECT_LT(mann_kendall_z({1, 2, 3}), SaturationCriteria::kTrendZ);
}

// Each criterion on its own, at values on either side of its threshold (backlogs in packets).
TEST(NocSyntheticSaturation, EachCriterionDecidesOnItsOwn) {
    const std::vector<double> steady = {30, 31, 30, 31, 30, 31, 30, 31, 30, 31};
    SaturationVerdict v = judge_saturation(0.3, 0.3, true, 0, steady);
    EXPECT_FALSE(v.saturated);
    // Pairs: 15 concordant (a 30 before a 31), 10 discordant, 20 ties: S = 5.
    EXPECT_NEAR(*v.backlog_trend_z, 4.0 / std::sqrt(125.0), 1e-12);
    EXPECT_NEAR(*v.backlog_growth_ratio, 30.6 / 30.4 - 1.0, 1e-12);  // halves 30.4 and 30.6

    // Throughput: 6 % short is beyond the 5 % tolerance, 4 % is not.
    v = judge_saturation(0.5, 0.47, true, 0, steady);
    EXPECT_TRUE(v.saturated);
    EXPECT_TRUE(v.throughput);
    EXPECT_NEAR(v.throughput_shortfall, 0.06, 1e-12);
    EXPECT_FALSE(judge_saturation(0.5, 0.48, true, 0, steady).saturated);

    // Backlog growth: 30..39 rises throughout; halves average 32 and 37, 15.6 % apart.
    std::vector<double> rising;
    for (int i = 0; i < 10; ++i) rising.push_back(30.0 + i);
    v = judge_saturation(0.3, 0.3, true, 0, rising);
    EXPECT_TRUE(v.backlog_growth);
    EXPECT_TRUE(v.saturated);
    EXPECT_NEAR(*v.backlog_growth_ratio, 37.0 / 32.0 - 1.0, 1e-12);
    // The same trend but 0.1 packet a sample (1.7 % between the halves): significant, negligible.
    std::vector<double> creeping;
    for (int i = 0; i < 10; ++i) creeping.push_back(30.0 + 0.1 * i);
    v = judge_saturation(0.3, 0.3, true, 0, creeping);
    EXPECT_GT(*v.backlog_trend_z, SaturationCriteria::kTrendZ);
    EXPECT_FALSE(v.backlog_growth);
    EXPECT_FALSE(v.saturated);
    // A 10 % step between the halves without a steady rise is not a trend: within each half
    // the values fall, so S = 25 - 20 = 5 again.
    std::vector<double> step = {31, 30.8, 30.6, 30.4, 30.2, 34, 33.8, 33.6, 33.4, 33.2};
    v = judge_saturation(0.3, 0.3, true, 0, step);
    EXPECT_NEAR(*v.backlog_trend_z, 4.0 / std::sqrt(125.0), 1e-12);
    EXPECT_FALSE(v.saturated);

    // Undelivered packets: saturated, and no trend is read from backlogs not all reported.
    v = judge_saturation(0.3, 0.3, false, 1, steady);
    EXPECT_TRUE(v.saturated);
    EXPECT_TRUE(v.undelivered);
    EXPECT_TRUE(v.not_drained);
    EXPECT_FALSE(v.backlog_trend_z.has_value());
}

}  // namespace test_noc_synthetic
}  // namespace mcmsim
