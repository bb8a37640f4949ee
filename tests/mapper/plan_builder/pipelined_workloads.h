#pragma once
// Small workloads and packages the pipelined-placement tests share.
#include "hw/common/input_error.h"
#include "hw/compute/compute_cost.h"
#include "hw/config/arch_config.h"
#include "mapper/mapping/pipeline_placement.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/collectives.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/support/hand_arch.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace mcmsim::pipeline_test {

using namespace mcmsim;

inline Layer fc_layer(const std::string& name, std::int64_t c, std::int64_t k, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::FullyConnected;
    l.c = c;
    l.k = k;
    l.inputs = std::move(inputs);
    return l;
}

inline Layer relu_layer(const std::string& name, std::int64_t channels, int input) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Vector;
    l.set_op("relu");
    l.c = l.k = channels;
    l.inputs = {input};
    return l;
}

// A chain of fully connected layers (a ReLU after the second) with MACs per sample, in units
// of 1024: fc0 64x64 = 4, fc1 64x128 = 8, relu 0, fc2 128x32 = 4, fc3 32x128 = 4,
// fc4 128x64 = 8, fc5 64x16 = 1 (29 in all).
inline Workload chain(std::int64_t batch) {
    Workload w;
    w.name = "chain";
    w.batch = batch;
    w.layers = {fc_layer("fc0", 64, 64, {}),   fc_layer("fc1", 64, 128, {0}), relu_layer("relu", 128, 1),
                fc_layer("fc2", 128, 32, {2}), fc_layer("fc3", 32, 128, {3}), fc_layer("fc4", 128, 64, {4}),
                fc_layer("fc5", 64, 16, {5})};
    for (Layer& l : w.layers) l.n = batch;
    validate_workload(w, "chain");
    return w;
}

/// The chain, batch 4, pipelined in three segments on a 2 x 8 package, micro-batches of one.
struct ChainPlan {
    ArchConfig arch = test_support::hand_arch("hand-2x8", 2, 8, 20, 64, 64);
    Workload w = chain(4);
    PipelinePlacement place = pipeline_placement(w, 2, 8, 3);
    Plan plan;
    explicit ChainPlan(Collective collective = Collective::Direct, std::int64_t weight_buffer = 0) {
        if (weight_buffer > 0) arch.chiplet.weight_buffer.bytes = weight_buffer;
        Partition k;  // K over each group
        Mapping m = uniform_mapping(w, k);
        for (auto& l : m.layers) l.collective = collective;
        apply_placement(m, place, 1);
        plan = build_plan(arch, w, m);
        validate_plan(plan, "pipelined");
    }
};

/// Ops reachable backwards from each op: its dependencies and, for a recv, the sends of its flows.
struct Ancestry {
    const Plan& plan;
    PlanIndex index;
    std::vector<std::vector<std::size_t>> preds;
    explicit Ancestry(const Plan& p) : plan(p), index(p), preds(index.size()) {
        std::map<std::int64_t, std::size_t> sender;
        for (std::size_t i = 0; i < index.size(); ++i) {
            const PlanOp& op = *index.ops[i];
            for (std::int64_t d : op.deps) preds[i].push_back(index.index(d));
            if (op.kind == OpKind::Send)
                for (std::size_t t = 0; t < op.transfer_count(); ++t) sender[op.transfer(t).flow] = i;
        }
        for (std::size_t i = 0; i < index.size(); ++i) {
            const PlanOp& op = *index.ops[i];
            if (op.kind == OpKind::Recv)
                for (std::size_t t = 0; t < op.transfer_count(); ++t) preds[i].push_back(sender.at(op.transfer(t).flow));
        }
    }
    std::set<std::size_t> ancestors(std::size_t i) const {
        std::set<std::size_t> seen;
        std::vector<std::size_t> stack{i};
        while (!stack.empty()) {
            std::size_t j = stack.back();
            stack.pop_back();
            for (std::size_t p : preds[j])
                if (seen.insert(p).second) stack.push_back(p);
        }
        return seen;
    }
};

/// DRAM read bytes of each workload layer, over all its micro-batches.
inline std::vector<std::int64_t> dram_reads(const Plan& plan, std::size_t layers) {
    std::vector<std::int64_t> out(layers, 0);
    for (std::size_t pl = 0; pl < plan.layers.size(); ++pl)
        for (const PlanOp& op : plan.layers[pl].ops)
            if (op.kind == OpKind::DramRead) out[pl % layers] += op.bytes;
    return out;
}

// A small residual network (conv, two 3x3 convs, the residual add, pooling, a classifier),
// batch 4, pipelined in two segments on the 2 x 2 test package and simulated in SystemC:
// every op runs, every packet arrives, and the memories serve exactly the plan's DRAM bytes.
inline Workload small_resnet(std::int64_t batch) {
    Workload w;
    w.name = "small-resnet";
    w.batch = batch;
    auto conv = [&](const std::string& name, std::int64_t c, std::int64_t k, std::int64_t hw, std::int64_t r,
                    std::vector<int> in) {
        Layer l;
        l.name = name;
        l.kind = LayerKind::Conv;
        l.n = batch;
        l.c = c, l.k = k, l.h = l.w = hw, l.p = l.q = hw, l.r = l.s = r, l.pad = r / 2;
        l.inputs = std::move(in);
        return l;
    };
    w.layers.push_back(conv("conv1", 3, 16, 16, 3, {}));
    w.layers.push_back(conv("conv2a", 16, 16, 16, 3, {0}));
    w.layers.push_back(conv("conv2b", 16, 16, 16, 3, {1}));
    Layer add;
    add.name = "add";
    add.kind = LayerKind::Vector;
    add.set_op("add");
    add.operands = 2;
    add.n = batch, add.c = add.k = 16, add.h = add.w = add.p = add.q = 16;
    add.inputs = {0, 2};
    w.layers.push_back(add);
    Layer pool = add;
    pool.name = "pool";
    pool.set_op("avgpool");
    pool.operands = 1;
    pool.r = pool.s = pool.stride = 4;
    pool.p = pool.q = 4;
    pool.inputs = {3};
    w.layers.push_back(pool);
    Layer fc = fc_layer("fc", 16 * 4 * 4, 10, {4});
    fc.n = batch;
    w.layers.push_back(fc);
    validate_workload(w, "small-resnet");
    return w;
}

}  // namespace mcmsim::pipeline_test
