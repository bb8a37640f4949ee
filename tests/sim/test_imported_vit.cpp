// ViT-B/16 written as an opset-13 ONNX export writes it (about 600 operators, a dynamic
// batch) and the zoo's vit_b16 (148 layers) are one network: on the 4×4 organic package,
// mapped uniformly, both evaluators must give them the same latency and energy within 2 %,
// and the import must keep every dependency (the causality check passes).
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "traces/plan/plan_causality.h"
#include "traces/plan/plan_index.h"

#include <gtest/gtest.h>

#include "tests/support/in_child.h"

#include "tests/mapper/workload/onnx_vit_graph.h"

using namespace mcmsim;

namespace test_imported_vit {

using onnx_graph_test::VitDims;
using onnx_graph_test::VitGraph;

struct Evaluated {
    double estimate_ns = 0, estimate_pj = 0, simulated_ns = 0, simulated_pj = 0;
};

struct Simulated {
    double ns = 0, pj = 0;
    bool completed = false, conserved = false, causal = false;
};

Simulated simulate(const ArchConfig& arch, const Plan& plan) {
    const SimResult sim = simulate_plan(arch, plan);
    return {sim.simulated_ns, sim.ledger.total_pj(), sim.completed, sim.conservation_ok,
            check_causality(plan, PlanIndex(plan), sim.ops).ok()};
}

Evaluated evaluate(const ArchConfig& arch, const Workload& w, bool in_child) {
    const Plan plan = map_uniform(arch, w, 1);
    // Packet granularity, as `validate` prices: the message granularity reserves each path
    // whole in issue order, so two descriptions of one network whose flows issue in another
    // order differ there by more than their costs do.
    EstimateOptions options;
    options.granularity = Granularity::Packet;
    const Estimate est = estimate_plan(arch, plan, options);
    EXPECT_TRUE(check_causality(plan, PlanIndex(plan), est.ops).ok()) << w.name << " (analytical model)";
    // SystemC elaborates once per process: the second network is simulated in a child.
    const Simulated sim =
        in_child ? test_support::in_child<Simulated>([&] { return simulate(arch, plan); }) : simulate(arch, plan);
    EXPECT_TRUE(sim.completed && sim.conserved) << w.name;
    EXPECT_TRUE(sim.causal) << w.name << " (SystemC)";
    return {est.latency_ns, est.ledger.total_pj(), sim.ns, sim.pj};
}

TEST(ImportedVit, ExportCostsWhatTheZooModelCosts) {
    const ArchConfig arch = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    VitDims d;
    d.batch = -1;  // the symbolic batch of a dynamic_axes export, bound to 1 by the import
    onnx_graph_test::File file("vit_dynamic", VitGraph(d).graph().model());
    const Workload imported = import_onnx(file.path());
    d.batch = 1;
    onnx_graph_test::File fixed("vit_static", VitGraph(d).graph().model());
    const Workload imported_fixed = import_onnx(fixed.path());
    EXPECT_EQ(imported_fixed.layers.size(), imported.layers.size());
    EXPECT_EQ(imported_fixed.total_activation_bytes(), imported.total_activation_bytes());
    EXPECT_EQ(imported_fixed.total_vector_ops(), imported.total_vector_ops());
    const Workload zoo = zoo_workload("vit_b16", 1);
    ASSERT_EQ(imported.total_macs(), zoo.total_macs());
    ASSERT_EQ(imported.total_weight_bytes(), zoo.total_weight_bytes());
    const Evaluated a = evaluate(arch, imported, true), b = evaluate(arch, zoo, false);
    EXPECT_NEAR(a.estimate_ns / b.estimate_ns, 1.0, 0.02);
    EXPECT_NEAR(a.estimate_pj / b.estimate_pj, 1.0, 0.02);
    EXPECT_NEAR(a.simulated_ns / b.simulated_ns, 1.0, 0.02);
    EXPECT_NEAR(a.simulated_pj / b.simulated_pj, 1.0, 0.02);
}

// Without fusion every operator is a layer: slower (each view and element-wise op is a
// layer boundary that moves its tensor), but no dependency is lost.
TEST(ImportedVit, UnfusedImportKeepsEveryDependency) {
    const ArchConfig arch = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-organic-hbm-edge.json");
    VitDims d;
    d.blocks = 2;
    onnx_graph_test::File file("vit_unfused", VitGraph(d).graph().model());
    OnnxImportOptions opt;
    opt.fuse_layers = false;
    const Workload w = import_onnx(file.path(), opt);
    EXPECT_GT(w.layers.size(), 90u);
    const Plan plan = map_uniform(arch, w, 1);
    const PlanIndex index(plan);
    const CausalityCheck c = check_causality(plan, index, estimate_plan(arch, plan).ops);
    EXPECT_TRUE(c.ok()) << (c.first.empty() ? "" : c.first.front());
}

}  // namespace test_imported_vit
