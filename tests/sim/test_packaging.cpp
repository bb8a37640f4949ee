// Packaging seen through the network models: the organic and the interposer 4x4 packages
// differ only in their links (UCIe standard, 64 GB/s, against UCIe advanced, 256 GB/s; both
// 2 ns). ResNet-50 on the same uniform plan, in each network model, against a floor: the same
// package with links of 4096 GB/s (same latency), where link bandwidth no longer matters.
//   - direction: floor <= interposer < organic (more bandwidth never hurts; the floor up to
//     0.5 %: a different arrival order at the DRAM changes its row hits);
//   - amount: what bandwidth costs, T - floor, shrinks at least 4-fold from organic to
//     interposer: serialisation scales with 1 / bandwidth, and queueing behind other packets
//     scales with their serialisation times and falls as utilisation falls, while latencies
//     are the same in all three.
#include "hw/config/arch_config.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/support/in_child.h"

using namespace mcmsim;

namespace test_packaging {

// SystemC elaborates once per process: each simulation runs in a child.
double simulated_ns(const ArchConfig& arch, const Plan& plan) {
    const double ns = test_support::in_child<double>([&] {
        const SimResult r = simulate_plan(arch, plan);
        return r.completed && r.conservation_ok ? r.simulated_ns : -1.0;
    });
    if (ns < 0) throw std::runtime_error("simulation did not complete");
    return ns;
}

TEST(Packaging, InterposerLinksShrinkWhatBandwidthCosts) {
    const ArchConfig organic = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    const ArchConfig interposer = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-interposer-hbm-edge.json");
    ASSERT_DOUBLE_EQ(organic.package.link.latency_ns, interposer.package.link.latency_ns);
    const double ratio = organic.package.link.bandwidth_gbps / interposer.package.link.bandwidth_gbps;  // 1/4
    const Plan plan = map_uniform(organic, zoo_workload("resnet50", 1), 1);
    for (RouterModel model : {RouterModel::Packet, RouterModel::Vc}) {
        ArchConfig o = organic, i = interposer, floor = organic;
        o.package.router.model = i.package.router.model = floor.package.router.model = model;
        floor.package.link.bandwidth_gbps = 4096;
        const double t_o = simulated_ns(o, plan), t_i = simulated_ns(i, plan), t_f = simulated_ns(floor, plan);
        std::printf("%s: organic %.1f us, interposer %.1f us, floor %.1f us\n", to_string(model), t_o / 1000, t_i / 1000,
                    t_f / 1000);
        EXPECT_LT(t_i, t_o) << to_string(model);
        EXPECT_GE(t_i, t_f * 0.995) << to_string(model);
        EXPECT_LE(t_i - t_f, (t_o - t_f) * ratio) << to_string(model);
    }
}

}  // namespace test_packaging
