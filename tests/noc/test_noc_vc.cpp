// Flit-level VC network ("vc" router model): zero-load latency, hop counts, saturation,
// queueing, conservation, deadlock and dateline, energy, config errors. Every expected value
// is computed here from a formula; synthetic runs are kept short (the suite stays fast).
#include "hw/common/input_error.h"
#include "hw/config/presets.h"
#include "hw/energy/energy_ledger.h"
#include "noc/noc_config.h"
#include "noc/synthetic/synthetic_traffic.h"
#include "noc/synthetic/zero_load_model.h"
#include "noc/vc/vc_network.h"
#include "tests/noc/vc_configs.h"
#include "tests/support/in_child.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <systemc>
#include <vector>

namespace mcmsim {
namespace test_noc_vc {

using namespace vc_test;

// At rate 0.01 the measured mean latency is within 1 cycle of T0 at the pattern's mean hop
// count: mesh n(k^2-1)/(3k), torus n * (mean ring distance), self-traffic included.
TEST_P(NocVcZeroLoad, MeanLatencyWithinOneCycleOfFormula) {
    const ZeroLoadCase z = GetParam();
    NocConfig c = grid_config(z.kind, z.k, z.k);
    const double hops = z.kind == NocTopologyKind::Mesh ? 2.0 * (z.k * z.k - 1) / (3.0 * z.k) : 2.0 * ring_mean(z.k);
    const double t0 = textbook_t0(c, hops, z.flits);
    SyntheticOptions o;
    o.rates = {0.01};
    o.packet_flits = z.flits;
    o.warmup = 500;
    o.measure = z.k == 4 ? 40000 : 15000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 1u);
    const SyntheticPoint& p = run.points[0];
    EXPECT_NEAR(p.zero_load_latency, t0, 1e-9) << "analytical model vs textbook formula";
    RecordProperty("formula_cycles", std::to_string(t0));
    ASSERT_TRUE(p.avg_packet_latency) << "every measured packet delivered";
    RecordProperty("measured_cycles", std::to_string(*p.avg_packet_latency));
    EXPECT_NEAR(*p.avg_packet_latency, t0, 1.0) << "measured over " << p.packets_measured << " packets";
    EXPECT_FALSE(p.saturated);
}

INSTANTIATE_TEST_SUITE_P(Grids, NocVcZeroLoad,
                         ::testing::Values(ZeroLoadCase{NocTopologyKind::Mesh, 4, 1}, ZeroLoadCase{NocTopologyKind::Mesh, 4, 5},
                                           ZeroLoadCase{NocTopologyKind::Mesh, 8, 1}, ZeroLoadCase{NocTopologyKind::Mesh, 8, 5},
                                           ZeroLoadCase{NocTopologyKind::Torus, 8, 1},
                                           ZeroLoadCase{NocTopologyKind::Torus, 8, 5}),
                         [](const ::testing::TestParamInfo<ZeroLoadCase>& i) {
                             return std::string(i.param.kind == NocTopologyKind::Mesh ? "mesh" : "torus") +
                                    std::to_string(i.param.k) + "_" + std::to_string(i.param.flits) + "flit";
                         });

// One packet alone crossing a die-to-die link: PHY latency and flit serialisation exactly.
// 2x2 chiplets of 2x2 routers; the D2D link runs at 4 B/cycle, so a 16-byte flit takes 4
// cycles, and its 2 ns PHY latency is 2 cycles at 1 GHz.
TEST(NocVcDieToDie, SinglePacketLatencyIsExact) {
    init_time_resolution();
    const std::string path = "noc_d2d_test.json";
    {
        std::ofstream f(path);
        f << R"({"topology": {"type": "hierarchical", "chiplets": {"rows": 2, "cols": 2},
                              "chiplet_mesh": {"rows": 2, "cols": 2}},
                 "router": {"flit_bits": 128, "clock_ghz": 1.0},
                 "d2d_link": {"preset": "ucie-standard", "bandwidth_gbps": 4, "latency_ns": 2}})";
    }
    NocConfig c = load_noc_config(path);
    std::remove(path.c_str());
    ASSERT_EQ(c.links.size(), 2u);
    EXPECT_EQ(c.links[1].cycles_per_flit, 4);  // 16 B / (4 B/cycle)
    EXPECT_EQ(c.links[1].latency_cycles, 2);
    VcNetwork net("network", c);
    TailLog log;
    net.set_listener(&log);
    const NocTopology& t = net.topology();
    const int flits = 5, src = t.id(0, 0), dst = t.id(0, 3);  // crosses the chiplet edge once
    net.create_packet(src, dst, flits, 0);
    sc_core::sc_start();
    ASSERT_EQ(log.tails.size(), 1u);
    // The head reaches router (0,2) behind the D2D link after NI 1 + 2 routers x P + on-die 1
    // + PHY 2 + one flit serialised over 4 cycles (latency includes one of them: 2 + 4 - 1).
    // The link spaces flits 4 cycles apart, so the tail arrives (L-1) x 4 later; from there
    // the tail needs SA+ST per router (2 routers), one on-die link and the ejection NI.
    const double p = c.router.pipeline_cycles();
    const double sa_st = c.router.stages.switch_alloc + c.router.stages.switch_traversal;
    const double head_at_02 = 1 + 2 * p + 1 + (2 + 4 - 1);
    const double expected = head_at_02 + (flits - 1) * 4 + 2 * sa_st + 1 + 1;
    EXPECT_EQ(log.tails[0].second, static_cast<Cycle>(expected)) << ::testing::PrintToString(log.flits);
    EXPECT_EQ(zero_load_path(c, t, net.routing(), src, dst, flits).cycles, expected);
    EXPECT_EQ(log.tails[0].first.hops, 3);
}

// Uniform traffic on a k x k mesh: the routes' mean hop count over all pairs (self pairs
// included) is exactly n(k^2-1)/(3k); the simulated packets sample it.
TEST(NocVcHops, UniformMeanHopsMatchFormula) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 8, 8);
    NocTopology t = build_topology(c);
    auto r = make_routing(c, t);
    double sum = 0;
    for (int s = 0; s < t.routers(); ++s)
        for (int d = 0; d < t.routers(); ++d) sum += zero_load_path(c, t, *r, s, d, 1).hops;
    const double formula = 2.0 * (8 * 8 - 1) / (3.0 * 8);  // 5.25
    EXPECT_DOUBLE_EQ(sum / (64.0 * 64.0), formula);
    SyntheticOptions o;
    o.rates = {0.1};
    o.warmup = 200;
    o.measure = 4000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_EQ(run.points.size(), 1u);
    // ~25k packets: the standard error of the mean is about 2.4 / sqrt(25k) = 0.015 hops.
    ASSERT_TRUE(run.points[0].avg_hops);
    EXPECT_NEAR(*run.points[0].avg_hops, formula, 0.06);
}

// 8x8 mesh, XY, uniform, 1-flit packets: accepted throughput never exceeds the bisection
// bound 4/k and saturates between 75 % and 95 % of it.
TEST(NocVcSaturation, UniformSaturatesBelowBisectionBound) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 8, 8);
    const double bound = 4.0 / 8;
    SyntheticOptions o;
    o.rates = {0.3, 0.7};  // well below, then well beyond saturation
    o.warmup = 1000;
    o.measure = 2500;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    ASSERT_EQ(run.points.size(), 2u);
    EXPECT_FALSE(run.points[0].saturated);
    EXPECT_NEAR(run.points[0].accepted, run.points[0].offered, 0.02);
    const SyntheticPoint& sat = run.points[1];
    RecordProperty("saturation_fraction_of_bound", std::to_string(sat.accepted / bound));
    EXPECT_TRUE(sat.saturated);
    for (const SyntheticPoint& p : run.points) EXPECT_LE(p.accepted, bound);
    EXPECT_GE(sat.accepted, 0.75 * bound);
    EXPECT_LE(sat.accepted, 0.95 * bound);
}

// Bit-complement sends every packet across the bisection: accepted <= 2/k.
TEST(NocVcSaturation, BitComplementBelowHalfBisection) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 8, 8);
    SyntheticOptions o;
    o.pattern = TrafficPattern::BitComplement;
    o.rates = {0.5};
    o.warmup = 1000;
    o.measure = 2500;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_EQ(run.points.size(), 1u);
    EXPECT_TRUE(run.points[0].saturated);
    RecordProperty("accepted", std::to_string(run.points[0].accepted));
    EXPECT_LE(run.points[0].accepted, 2.0 / 8);
    EXPECT_GE(run.points[0].accepted, 0.3 * 2.0 / 8);  // and it does carry traffic
}

// Below half of saturation the mean latency follows T0 plus an M/D/1 wait on every channel
// of the route, with channel loads from the XY routes of uniform traffic (1-flit packets,
// service time 1 cycle): W(rho) = rho / (2 (1 - rho)).
TEST(NocVcQueueing, LatencyTracksPerChannelMD1) {
    const int k = 8, n = k * k;
    const double lambda = 0.15;  // saturation is ~0.42 (see above)
    NocConfig c = grid_config(NocTopologyKind::Mesh, k, k);
    NocTopology t = build_topology(c);
    auto r = make_routing(c, t);
    std::vector<double> load(t.channels().size(), 0.0);
    std::vector<std::vector<int>> paths(static_cast<std::size_t>(n * n));
    for (int s = 0; s < n; ++s)
        for (int d = 0; d < n; ++d) {
            RouteState st;
            for (int at = s;;) {
                RouteDecision dec = r->route(at, d, st, nullptr);
                if (dec.port == kLocalPort) break;
                int ch = t.out_channel(at, dec.port);
                paths[static_cast<std::size_t>(s * n + d)].push_back(ch);
                load[static_cast<std::size_t>(ch)] += lambda / n;  // each source sends 1/n of its rate to d
                at = t.channel(ch).dst;
            }
        }
    auto wait = [](double rho) { return rho / (2.0 * (1.0 - rho)); };
    double model = 0;
    for (int s = 0; s < n; ++s)
        for (int d = 0; d < n; ++d) {
            double w = wait(lambda) + wait(lambda);  // injection and ejection channels
            for (int ch : paths[static_cast<std::size_t>(s * n + d)]) w += wait(load[static_cast<std::size_t>(ch)]);
            model += zero_load_path(c, t, *r, s, d, 1).cycles + w;
        }
    model /= static_cast<double>(n) * n;
    SyntheticOptions o;
    o.rates = {lambda};
    o.warmup = 1000;
    o.measure = 4000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_EQ(run.points.size(), 1u);
    const double measured = run.points[0].avg_packet_latency.value();
    RecordProperty("md1_model_cycles", std::to_string(model));
    RecordProperty("measured_cycles", std::to_string(measured));
    EXPECT_NEAR(measured, model, 0.10 * model) << "M/D/1 model " << model << ", measured " << measured;
}

TEST_P(NocVcConservation, EveryFlitEjectedOnceInOrder) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 4, 4);
    c.router.vcs = 4;
    c.router.buffer_depth = 4;
    SyntheticOptions o;
    o.packet_flits = 5;
    o.rates = {0.2, 0.9};
    o.warmup = 500;
    o.measure = 3000;
    o.threads = GetParam();
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    EXPECT_EQ(run.threads, GetParam());
    ASSERT_EQ(run.points.size(), 2u);
    EXPECT_TRUE(run.points[1].drained);
    EXPECT_GT(run.flits_injected, 0);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
    EXPECT_EQ(run.flits_ejected, run.packets_ejected * 5);
    EXPECT_EQ(run.order_violations, 0);
}

// The same on an 8x8 mesh: with two threads, each steps a lane of its routers, and more flits
// and credits cross between the lanes than on the 4x4 mesh.
TEST_P(NocVcConservation, EveryFlitEjectedOnceInOrderOnAnEightByEightMesh) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 8, 8);
    c.router.vcs = 2;
    c.router.buffer_depth = 4;
    SyntheticOptions o;
    o.packet_flits = 4;
    o.rates = {0.2};
    o.warmup = 300;
    o.measure = 2000;
    o.threads = GetParam();
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked);
    EXPECT_EQ(run.threads, GetParam());
    ASSERT_EQ(run.points.size(), 1u);
    EXPECT_TRUE(run.points[0].drained);
    EXPECT_GT(run.flits_injected, 0);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
    EXPECT_EQ(run.flits_ejected, run.packets_ejected * 4);
    EXPECT_EQ(run.order_violations, 0);
}

INSTANTIATE_TEST_SUITE_P(Threads, NocVcConservation, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& i) { return std::to_string(i.param) + "_threads"; });

// The event-driven schedule steps a router only when something in it can progress. Stepping
// every router every cycle, as a clocked model does, must give the same run: same latencies,
// same flits on every link, same allocator conflicts. Meshes with long packets near and past
// saturation, a torus (dateline VC classes) and die-to-die links whose flits take a
// fractional number of cycles, with receive buffers shorter than the credit round trip.
struct ScheduleCase {
    const char* name;
    NocConfig config;
    int packet_flits;
    std::vector<double> rates;
};

NocConfig d2d_config(const std::string& d2d, int buffer_flits) {
    // Runs when the cases are registered, in every process of this binary: a file of its own.
    const std::string path = ::testing::TempDir() + "/noc_schedule_" + std::to_string(::getpid()) + ".json";
    {
        std::ofstream f(path);
        f << R"({"topology": {"type": "hierarchical", "chiplets": {"rows": 2, "cols": 2},
                              "chiplet_mesh": {"rows": 2, "cols": 2}},
                 "router": {"flit_bits": 128, "clock_ghz": 1.0, "vcs": 2, "buffer_depth": 4},
                 "d2d_link": )"
          << d2d << "}";
    }
    NocConfig c = load_noc_config(path);
    std::remove(path.c_str());
    c.links.at(1).buffer_flits = buffer_flits;
    return c;
}

std::vector<ScheduleCase> schedule_cases() {
    NocConfig mesh = grid_config(NocTopologyKind::Mesh, 4, 4);
    mesh.router.vcs = 4;
    mesh.router.buffer_depth = 4;
    NocConfig torus = grid_config(NocTopologyKind::Torus, 4, 4);
    torus.router.vcs = 4;
    torus.router.buffer_depth = 2;
    return {{"mesh", mesh, 5, {0.2, 0.6}},
            {"mesh_one_flit", mesh, 1, {0.3, 0.9}},
            {"torus", torus, 3, {0.2, 0.5}},
            {"d2d_fractional",
             d2d_config(R"({"preset": "ucie-standard", "bandwidth_gbps": 6, "latency_ns": 7})", 3),
             4,
             {0.05, 0.3}}};
}

void PrintTo(const ScheduleCase& c, std::ostream* os) { *os << c.name; }

class NocVcSchedule : public ::testing::TestWithParam<ScheduleCase> {};

/// What the comparison needs of a run, as bytes that cross a pipe (each run is a process).
struct ScheduleOutcome {
    bool deadlocked;
    std::int64_t flits_injected, flits_ejected;
    double avg[2], p99[2], accepted[2];
    std::size_t network_hash;  ///< of the network statistics (every link's flits, conflicts)
};

ScheduleOutcome run_schedule_case(const ScheduleCase& k, bool exhaustive) {
    return test_support::in_child<ScheduleOutcome>([&] {
        SyntheticOptions o;
        o.packet_flits = k.packet_flits;
        o.rates = k.rates;
        o.warmup = 300;
        o.measure = 1500;
        o.exhaustive_stepping = exhaustive;
        const SyntheticRun run = run_synthetic(k.config, o);
        ScheduleOutcome out{run.deadlocked,
                            run.flits_injected,
                            run.flits_ejected,
                            {-1, -1},
                            {-1, -1},
                            {-1, -1},
                            std::hash<std::string>{}(run.network.dump())};
        for (std::size_t i = 0; i < run.points.size() && i < 2; ++i) {
            out.avg[i] = run.points[i].avg_packet_latency.value_or(-1);
            out.p99[i] = run.points[i].p99_packet_latency.value_or(-1);
            out.accepted[i] = run.points[i].accepted;
        }
        return out;
    });
}

TEST_P(NocVcSchedule, SteppingEveryRouterEveryCycleChangesNothing) {
    const ScheduleCase& k = GetParam();
    ASSERT_EQ(k.rates.size(), 2u);
    const ScheduleOutcome events = run_schedule_case(k, false);
    const ScheduleOutcome clocked = run_schedule_case(k, true);
    ASSERT_FALSE(events.deadlocked);
    ASSERT_GT(events.flits_injected, 0);
    EXPECT_EQ(events.flits_injected, clocked.flits_injected);
    EXPECT_EQ(events.flits_ejected, clocked.flits_ejected);
    for (std::size_t i = 0; i < 2; ++i) {
        EXPECT_GT(events.avg[i], 0) << "rate " << k.rates[i];
        EXPECT_EQ(events.avg[i], clocked.avg[i]) << "rate " << k.rates[i];
        EXPECT_EQ(events.p99[i], clocked.p99[i]) << "rate " << k.rates[i];
        EXPECT_EQ(events.accepted[i], clocked.accepted[i]) << "rate " << k.rates[i];
    }
    EXPECT_EQ(events.network_hash, clocked.network_hash);
}

INSTANTIATE_TEST_SUITE_P(Networks, NocVcSchedule, ::testing::ValuesIn(schedule_cases()),
                         [](const ::testing::TestParamInfo<ScheduleCase>& i) { return std::string(i.param.name); });

// A clock whose period is not a whole number of ps (2.9 GHz: 344.83 ps, a one-cycle delay
// rounds to 345 ps) must not lose wake-ups: the network's wake-up time is taken from the
// cycle's absolute time, so after thousands of back-to-back wake-ups it still lands on the
// cycle whose routers are waiting. (Delays summed from wake-up to wake-up would add up the
// rounding of each until a wake-up skipped a cycle and left its routers asleep: a deadlock.)
TEST(NocVcClock, NonIntegerPeriodLosesNoWakeUps) {
    NocConfig c = grid_config(NocTopologyKind::Mesh, 4, 4);
    c.router.clock_ghz = 2.9;
    SyntheticOptions o;
    o.rates = {0.3};
    o.warmup = 500;
    o.measure = 5000;
    SyntheticRun run = run_synthetic(c, o);
    ASSERT_FALSE(run.deadlocked) << "deadlock at cycle " << run.deadlock_cycle;
    EXPECT_TRUE(run.points.at(0).drained);
    EXPECT_GT(run.flits_injected, 0);
    EXPECT_EQ(run.flits_injected, run.flits_ejected);
}

// Energy: each router on the path books flits x (buffer write + read + crossbar + allocation),
// each link crossed books flits x flit bits x pJ/bit, into per-router and per-link accounts.
TEST(NocVcEnergy, RouterAndLinkEnergyPerFlit) {
    init_time_resolution();
    NocConfig c = grid_config(NocTopologyKind::Mesh, 3, 3);
    VcNetwork net("network", c);
    const int flits = 5, src = 0, dst = 8, hops = 4;
    net.create_packet(src, dst, flits, 0);
    sc_core::sc_start();
    EnergyLedger ledger;
    net.book_energy(ledger);
    const double router_pj = flits * c.router.energy.per_flit();
    const double link_pj = flits * c.router.flit_bits * c.links[0].energy_pj_per_bit;
    EXPECT_NEAR(ledger.category_pj(EnergyCategory::Noc), (hops + 1) * router_pj + hops * link_pj, 1e-6);
    nlohmann::json comp = ledger.components_json();
    EXPECT_EQ(comp.size(), static_cast<std::size_t>(2 * hops + 1)) << comp.dump();
    ASSERT_TRUE(comp.contains("network.r0_0"));
    EXPECT_NEAR(comp["network.r0_0"]["noc"].get<double>(), router_pj, 1e-9);
    ASSERT_TRUE(comp.contains("network.link.r0_0.E"));
    EXPECT_NEAR(comp["network.link.r0_0.E"]["noc"].get<double>(), link_pj, 1e-9);
}

TEST(NocVcConfig, BadConfigsNameFileAndPointer) {
    std::string m = config_error(R"({"topology": {"type": "hypercube", "rows": 4, "cols": 4}})");
    EXPECT_NE(m.find("/topology/type"), std::string::npos) << m;
    m = config_error(R"({"topology": {"type": "mesh", "rows": 4, "cols": 4}, "router": {"vcs": 0}})");
    EXPECT_NE(m.find("/router/vcs"), std::string::npos) << m;
    m = config_error(R"({"topology": {"type": "torus", "rows": 4, "cols": 4}, "routing": "west_first"})");
    EXPECT_NE(m.find("/routing"), std::string::npos) << m;
    m = config_error(R"({"topology": {"type": "mesh", "rows": 4, "cols": 4}, "routing": "diagonal"})");
    EXPECT_NE(m.find("/routing"), std::string::npos) << m;
    m = config_error(R"({"topology": {"type": "mesh", "rows": 4, "cols": 4}, "d2d_link": "ucie-standard"})");
    EXPECT_NE(m.find("/d2d_link"), std::string::npos) << m;
    for (const std::string& s : {std::string("noc_bad_test.json"), std::string("expected")})
        EXPECT_NE(m.find(s), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos);
    // The shipped configs load.
    for (const char* f : {"mesh8x8", "mesh16x16", "torus8x8", "diagonal_mesh8x8", "hierarchical_2x2_of_4x4", "custom_graph"})
        EXPECT_NO_THROW(load_noc_config(default_config_dir() + "/noc/" + f + ".json")) << f;
}

}  // namespace test_noc_vc
}  // namespace mcmsim
