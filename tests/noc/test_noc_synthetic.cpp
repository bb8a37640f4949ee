// Synthetic-traffic load points: the saturation verdict (its criteria alone, then on small
// meshes below and far above the bisection bound), sweeps that stop at the first saturated
// point, undelivered points, and the conventions the report states. Expected values come
// from the bisection bound, Little's law and the Mann-Kendall formulas, computed here.
#include "hw/energy/energy_ledger.h"
#include "noc/synthetic/saturation_check.h"
#include "noc/synthetic/synthetic_report.h"
#include "noc/synthetic/synthetic_traffic.h"
#include "tests/noc/vc_configs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace mcmsim {
namespace test_noc_synthetic {

using namespace vc_test;

/// Bit-complement on a k x k mesh sends every packet across the middle column cut: N/2
/// sources at R flits/cycle each over the k links of one direction, so R <= 2k/N = 2/k.
double bitcomp_bisection_bound(int k) { return 2.0 * k / (k * k); }

SyntheticOptions bitcomp_options(std::vector<double> rates) {
    SyntheticOptions o;
    o.pattern = TrafficPattern::BitComplement;
    o.rates = std::move(rates);
    o.warmup = 500;
    o.measure = 4000;
    return o;
}

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

// At a fifth of the bisection bound the network is stable: not saturated, and accepted
// equals offered up to the change of the population inside over the window. That population
// is the Little's-law mean offered x N x latency; well below saturation the latency is within
// 1.5 x T0 and the population within twice its mean, so |accepted - offered| <=
// 3 x offered x T0 / window.
TEST(NocSyntheticLoad, WellBelowBisectionIsNotSaturated) {
    const int k = 4, n = k * k;
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    const double rate = 0.2 * bitcomp_bisection_bound(k);
    SyntheticOptions o = bitcomp_options({rate});
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 1u);
    const SyntheticPoint& p = run.points[0];
    EXPECT_FALSE(p.saturated) << p.to_json().dump();
    EXPECT_TRUE(p.drained);
    EXPECT_EQ(p.undelivered_packets, 0);
    // Bernoulli injection: the offered rate is the set one within 4 standard deviations.
    const double sd = std::sqrt(rate * (1 - rate) / (static_cast<double>(n) * static_cast<double>(o.measure)));
    EXPECT_NEAR(p.offered, rate, 4 * sd);
    EXPECT_NEAR(p.accepted, p.offered, 3.0 * p.offered * p.zero_load_latency / static_cast<double>(o.measure));
    EXPECT_LT(p.saturation.throughput_shortfall, SaturationCriteria::kThroughputTolerance);
    ASSERT_TRUE(p.avg_packet_latency);
    EXPECT_LT(*p.avg_packet_latency, 1.5 * p.zero_load_latency);
}

// At 1.8 x the bisection bound no routing can carry the load: accepted stays at or below the
// bound, so it falls short of offered by at least 1 - 1/1.8 = 44 %, and the source queues
// grow by the difference every cycle, so the backlog rises through the window.
TEST(NocSyntheticLoad, FarAboveBisectionIsSaturated) {
    const int k = 4;
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    const double bound = bitcomp_bisection_bound(k);
    SyntheticRun run = run_synthetic(c, bitcomp_options({1.8 * bound}));
    ASSERT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 1u);
    const SyntheticPoint& p = run.points[0];
    EXPECT_TRUE(p.saturated);
    EXPECT_LE(p.accepted, bound);
    EXPECT_TRUE(p.saturation.throughput) << p.to_json().dump();
    EXPECT_GE(p.saturation.throughput_shortfall, 1.0 - 1.0 / 1.8 - 0.02);  // offered is 1.8 x bound within sampling
    EXPECT_TRUE(p.saturation.backlog_growth) << p.to_json().dump();
}

// A sweep runs its points in order and stops after the first saturated one: of 0.1, 0.3,
// 1.6 and 1.8 x the bound the first two run and are stable, the third is saturated, the
// fourth never runs.
TEST(NocSyntheticLoad, SweepStopsAtFirstSaturatedPoint) {
    const int k = 4;
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    const double bound = bitcomp_bisection_bound(k);
    SyntheticOptions o = bitcomp_options({0.1 * bound, 0.3 * bound, 1.6 * bound, 1.8 * bound});
    o.measure = 2000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 3u);
    EXPECT_FALSE(run.points[0].saturated);
    EXPECT_FALSE(run.points[1].saturated);
    EXPECT_TRUE(run.points[2].saturated);
    EXPECT_DOUBLE_EQ(run.points[2].rate, 1.6 * bound);
}

// Overload with a drain limit far shorter than any packet's zero-load latency: the packets
// created in the window's last cycle (every node creates one at rate 1) cannot be out by
// then, so at least N measured packets are undelivered. Their latency is unknown, not 0.
TEST(NocSyntheticLoad, SmallDrainLimitReportsUndelivered) {
    const int k = 4, n = k * k;
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    SyntheticOptions o = bitcomp_options({1.0});
    o.warmup = 200;
    o.measure = 1000;
    o.drain_limit = 5;
    // Bit-complement pairs are at least 2 hops apart: T0 >= 2 t_ni + 3 P + 2 t_link.
    const double shortest = 2.0 * c.ni_latency_cycles + 3.0 * c.router.pipeline_cycles() + 2.0 * c.links[0].latency_cycles;
    ASSERT_GT(shortest, static_cast<double>(o.drain_limit) + 1);
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_EQ(run.points.size(), 1u);
    const SyntheticPoint& p = run.points[0];
    EXPECT_FALSE(p.drained);
    EXPECT_TRUE(p.saturated);
    EXPECT_TRUE(p.saturation.undelivered);
    EXPECT_GE(p.undelivered_packets, n);
    EXPECT_DOUBLE_EQ(p.delivered_fraction(),
                     static_cast<double>(p.packets_measured - p.undelivered_packets) / static_cast<double>(p.packets_measured));
    EXPECT_LT(p.delivered_fraction(), 1.0);
    EXPECT_FALSE(p.avg_packet_latency.has_value());
    EXPECT_FALSE(p.p99_packet_latency.has_value());
    EXPECT_FALSE(p.avg_hops.has_value());
    const nlohmann::json j = p.to_json();
    EXPECT_TRUE(j["avg_packet_latency_cycles"].is_null()) << j.dump();
    EXPECT_TRUE(j["p99_packet_latency_cycles"].is_null());
    EXPECT_TRUE(j["avg_hops"].is_null());
    EXPECT_EQ(j["undelivered_packets"].get<std::int64_t>(), p.undelivered_packets);
    EXPECT_TRUE(j["saturated"].get<bool>());
    EXPECT_NE(j["saturation"]["reasons"].dump().find("undelivered"), std::string::npos);
    // CSV and text say n/a where the latency would be.
    const std::string csv = synthetic_csv(run);
    const std::string row = csv.substr(csv.find('\n') + 1);
    EXPECT_NE(row.find(",n/a,n/a,n/a,"), std::string::npos) << csv;
    const std::string text = synthetic_point_text(c, o, run);
    EXPECT_NE(text.find("avg n/a, p99 n/a"), std::string::npos) << text;
}

// The report states its conventions, and the figures follow them. On a 4x4 mesh `neighbor`
// sends (r, c) to (r, c + 1 mod 4): one link from columns 0-2, three (back west) from column
// 3, so 1.5 hops on average counted in links (2.5 if routers were counted), and the zero-load
// latency is the textbook T0 at H = 1.5: NI in and out, H + 1 router pipelines, H links,
// L - 1 cycles for the tail.
TEST(NocSyntheticReport, JsonStatesConventionsTheFiguresFollow) {
    const int k = 4, flits = 3;
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    SyntheticOptions o;
    o.pattern = TrafficPattern::Neighbor;
    o.rates = {0.05};
    o.packet_flits = flits;
    o.warmup = 200;
    o.measure = 4000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_EQ(run.points.size(), 1u);
    const SyntheticPoint& p = run.points[0];
    EXPECT_NEAR(p.zero_load_latency, textbook_t0(c, 1.5, flits), 1e-9);
    // Packets per source column are Bernoulli counts: the share from column 3 is 1/4 within
    // a few per cent of ~1000 packets, so the mean within 0.1 of 1.5.
    ASSERT_TRUE(p.avg_hops);
    EXPECT_NEAR(*p.avg_hops, 1.5, 0.1);
    EnergyLedger ledger;
    const nlohmann::json j = synthetic_point_json(c, o, run, ledger);
    ASSERT_TRUE(j.contains("conventions")) << j.dump();
    const nlohmann::json& conv = j["conventions"];
    auto says = [&](const char* key, const char* what) {
        ASSERT_TRUE(conv.contains(key)) << key;
        EXPECT_NE(conv[key].get<std::string>().find(what), std::string::npos) << key << ": " << conv[key];
    };
    says("hops", "links");
    says("hops", "not counted");
    says("latency", "creation");
    says("latency", "tail");
    says("latency", "source queueing is included");
    says("zero_load_latency", "H + 1 routers");
    says("zero_load_latency", "pipeline");
    says("zero_load_latency", "ni_latency_cycles");
    says("zero_load_latency", "latency_cycles + cycles_per_flit - 1");
    says("zero_load_latency", "serialisation");
    says("rates", "flits/node/cycle");
    says("undelivered", "null");
    EXPECT_EQ(j["saturation"]["criteria"]["samples"].get<int>(), SaturationCriteria::kSamples);
}

}  // namespace test_noc_synthetic
}  // namespace mcmsim
