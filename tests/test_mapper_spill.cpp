// Outputs spilled to DRAM when they do not fit (mapper/output_spill.h): a chiplet whose output
// slice of a layer exceeds its global buffer writes it to its nearest memory, sends each other
// consumer chiplet a one-flit notice, and every consumer reads exactly its part from DRAM.
// Expected values are worked out by hand from the partition arithmetic in the comments.
#include "hw/config/arch_config.h"
#include "mapper/analytical_model.h"
#include "mapper/mapper.h"
#include "mapper/plan_builder.h"
#include "mapper/workload.h"
#include "sim/system.h"
#include "traces/plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace mcmsim;

namespace {

// mcm-2x2: chiplets 0 1 / 2 3, one HBM stack (memory 0), package flits of 32 bytes. The
// global buffer is cut to 300 bytes: a slice of 512 bytes does not fit, one of 128 does.
constexpr std::int64_t kBuffer = 300, kFlit = 32;
ArchConfig small_buffer_2x2() {
    ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-2x2.json");
    a.chiplet.global_buffer_bytes = kBuffer;
    return a;
}

Layer conv1x1(const std::string& name, std::int64_t c, std::int64_t k, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Conv;
    l.c = c, l.k = k, l.h = l.w = l.p = l.q = 8, l.r = l.s = 1;
    l.inputs = std::move(inputs);
    return l;
}

// a: 4 -> 32 channels on 8 x 8 (input from DRAM), b: 32 -> 8 reads a, c: 8 -> 8 reads b (the
// output). 1 byte per element. Split by K over the 4 chiplets, chiplet i owns:
//   a: channels [8i, 8i + 8) x 64 pixels = 512 bytes  > 300: spills
//   b: channels [2i, 2i + 2) x 64 pixels = 128 bytes <= 300: stays on chip
// b and c need all their input channels on every chiplet (a K split).
Workload three_convs() {
    Workload w;
    w.name = "three-convs";
    w.layers = {conv1x1("a", 4, 32, {}), conv1x1("b", 32, 8, {0}), conv1x1("c", 8, 8, {1})};
    validate_workload(w, "three-convs");
    return w;
}

Partition split(Dim d) {
    Partition p;
    p.rows_dim = p.cols_dim = d;
    return p;
}

const PlanOp* find_op(const Plan& plan, std::int64_t id) {
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops)
            if (op.id == id) return &op;
    return nullptr;
}

/// A DramRead of a spilled slice: it waits for a write (same chiplet) or a notice's recv,
/// where weight reads wait for computes or nothing.
bool is_spill_read(const Plan& plan, const PlanOp& op) {
    if (op.kind != OpKind::DramRead) return false;
    for (std::int64_t d : op.deps) {
        const PlanOp* dep = find_op(plan, d);
        if (dep && (dep->kind == OpKind::Recv || dep->kind == OpKind::DramWrite)) return true;
    }
    return false;
}

std::vector<const PlanOp*> ops_of(const PlanLayer& l, OpKind kind) {
    std::vector<const PlanOp*> out;
    for (const PlanOp& op : l.ops)
        if (op.kind == kind) out.push_back(&op);
    return out;
}

/// Flows sent and received in a layer pair up one to one (flow id -> (from, to, bytes)).
void expect_flows_pair(const PlanLayer& l) {
    std::map<std::int64_t, std::tuple<int, int, std::int64_t>> sent, received;
    for (const PlanOp& op : l.ops) {
        if (op.kind != OpKind::Send && op.kind != OpKind::Recv) continue;
        for (std::size_t i = 0; i < op.transfer_count(); ++i) {
            const TransferRef t = op.transfer(i);
            auto& side = op.kind == OpKind::Send ? sent : received;
            EXPECT_TRUE(side.count(t.flow) == 0) << "flow " << t.flow << " twice";
            side[t.flow] = op.kind == OpKind::Send ? std::make_tuple(op.chiplet, t.peer, t.bytes) : std::make_tuple(t.peer, op.chiplet, t.bytes);
        }
    }
    EXPECT_EQ(sent, received) << l.name;
}

}  // namespace

TEST(OutputSpill, SlicesLargerThanTheGlobalBufferGoToDram) {
    const ArchConfig arch = small_buffer_2x2();
    const Workload w = three_convs();
    const Plan plan = build_plan(arch, w, uniform_mapping(w, split(Dim::K)));
    ASSERT_EQ(plan.layers.size(), 3u);
    const PlanLayer &a = plan.layers[0], &b = plan.layers[1], &c = plan.layers[2];

    // a: every chiplet writes its 512-byte slice once, to memory 0, after its compute.
    std::map<int, const PlanOp*> write_of;
    for (const PlanOp* op : ops_of(a, OpKind::DramWrite)) {
        EXPECT_EQ(op->bytes, 8 * 64);
        EXPECT_EQ(op->memory, 0);
        ASSERT_EQ(op->deps.size(), 1u);
        EXPECT_EQ(find_op(plan, op->deps[0])->kind, OpKind::Compute);
        write_of[op->chiplet] = op;
    }
    EXPECT_EQ(write_of.size(), 4u);
    ASSERT_TRUE(a.mapping.has_value());
    EXPECT_EQ(a.mapping->spilled_bytes, 4 * 512);
    EXPECT_EQ(a.mapping->spilled_producers, 4);

    // b: chiplet j needs all 32 channels of a; owner i holds 8 of them, so j reads 512 bytes
    // of each of the 4 slices, starting at the slice's first byte (its channels are the
    // whole slice): 4 x 4 reads, 8192 bytes. Reads of another chiplet's slice wait for the
    // recv of that chiplet's notice; the read of its own slice for its own write.
    std::map<std::pair<int, int>, int> reads;  // (consumer, owner) -> count
    std::int64_t read_bytes = 0;
    for (const PlanOp& op : b.ops) {
        if (!is_spill_read(plan, op)) continue;
        read_bytes += op.bytes;
        EXPECT_EQ(op.bytes, 512);
        EXPECT_EQ(op.memory, 0);
        ASSERT_EQ(op.deps.size(), 1u);
        const PlanOp* dep = find_op(plan, op.deps[0]);
        int owner = dep->kind == OpKind::DramWrite ? dep->chiplet : dep->transfer(0).peer;
        if (dep->kind == OpKind::Recv) {
            EXPECT_EQ(dep->chiplet, op.chiplet);
            ASSERT_EQ(dep->transfer_count(), 1u);
            EXPECT_EQ(dep->bytes, kFlit);
            EXPECT_NE(owner, op.chiplet);
        } else {
            EXPECT_EQ(owner, op.chiplet);
        }
        EXPECT_EQ(op.address, write_of.at(owner)->address) << "consumer " << op.chiplet << " owner " << owner;
        ++reads[{op.chiplet, owner}];
    }
    EXPECT_EQ(read_bytes, 4 * 4 * 512);
    EXPECT_EQ(reads.size(), 16u);
    for (const auto& [pair, n] : reads) EXPECT_EQ(n, 1);

    // Notices: one send per owner, after its write, one 32-byte transfer to each of the other
    // three; they are b's only package bytes (the data itself no longer crosses the package).
    const auto sends = ops_of(b, OpKind::Send);
    ASSERT_EQ(sends.size(), 4u);
    for (const PlanOp* s : sends) {
        EXPECT_EQ(s->deps, std::vector<std::int64_t>{write_of.at(s->chiplet)->id});
        ASSERT_EQ(s->transfer_count(), 3u);
        std::set<int> to;
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(s->transfer(i).bytes, kFlit);
            to.insert(s->transfer(i).peer);
        }
        EXPECT_EQ(to.size(), 3u);
        EXPECT_EQ(to.count(s->chiplet), 0u);
    }
    EXPECT_EQ(ops_of(b, OpKind::Recv).size(), 12u);
    expect_flows_pair(b);
    ASSERT_TRUE(b.mapping.has_value());
    EXPECT_EQ(b.mapping->package_bytes, 12 * kFlit);
    EXPECT_EQ(b.mapping->onchip_bytes, 0);  // even its own part comes back from DRAM
    // b's 128-byte slices fit: b writes nothing and c gets them over the package — each
    // chiplet the other three owners' 2 channels x 64 = 128 bytes, and keeps its own.
    EXPECT_TRUE(ops_of(b, OpKind::DramWrite).empty());
    EXPECT_EQ(b.mapping->spilled_producers, 0);
    ASSERT_TRUE(c.mapping.has_value());
    EXPECT_EQ(c.mapping->package_bytes, 12 * 128);
    EXPECT_EQ(c.mapping->onchip_bytes, 4 * 128);
    for (const PlanOp& op : c.ops) EXPECT_FALSE(is_spill_read(plan, op));
    expect_flows_pair(c);
    // c is the network's output: its ordinary output writes, 2 channels x 64 per chiplet.
    const auto out = ops_of(c, OpKind::DramWrite);
    ASSERT_EQ(out.size(), 4u);
    for (const PlanOp* op : out) EXPECT_EQ(op->bytes, 128);
    validate_plan(plan, "spill");
    // The record survives the plan file.
    const Plan back = plan_from_json(plan_to_json(plan), "spill");
    EXPECT_EQ(back.layers[0].mapping->spilled_bytes, 2048);
    EXPECT_EQ(back.layers[0].mapping->spilled_producers, 4);
}

TEST(OutputSpill, NothingSpillsWhenEverySliceFits) {
    // The default buffer (64 KiB) holds a's 512-byte slices: no DRAM writes before the output
    // layer, and b gets a over the package: every chiplet 3 x 512 bytes from the others.
    ArchConfig arch = small_buffer_2x2();
    arch.chiplet.global_buffer_bytes = 512;  // exactly the slice: it fits
    const Workload w = three_convs();
    const Plan plan = build_plan(arch, w, uniform_mapping(w, split(Dim::K)));
    EXPECT_TRUE(ops_of(plan.layers[0], OpKind::DramWrite).empty());
    EXPECT_TRUE(ops_of(plan.layers[1], OpKind::DramWrite).empty());
    EXPECT_EQ(plan.layers[0].mapping->spilled_producers, 0);
    EXPECT_EQ(plan.layers[1].mapping->package_bytes, 4 * 3 * 512);
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops) EXPECT_FALSE(is_spill_read(plan, op));
    EXPECT_EQ(plan_to_json(plan)["layers"][0]["mapping"].count("spilled_bytes"), 0u);
}

TEST(OutputSpill, TheSliceIsJudgedAfterTheReduction) {
    // a split by C: each chiplet computes all 32 output channels from one input channel, then
    // a reduce-scatter leaves chiplet i the summed channels [8i, 8i + 8): 512 bytes, which
    // spill (4 x 512 written), not the 32 x 64 x 4-byte partial sums it held before.
    const ArchConfig arch = small_buffer_2x2();
    const Workload w = three_convs();
    Mapping m = uniform_mapping(w, split(Dim::K));
    m.layers[0].partition = split(Dim::C);
    const Plan plan = build_plan(arch, w, m);
    const PlanLayer& a = plan.layers[0];
    EXPECT_EQ(a.mapping->spilled_bytes, 4 * 512);
    EXPECT_EQ(a.mapping->spilled_producers, 4);
    for (const PlanOp* op : ops_of(a, OpKind::DramWrite)) {
        EXPECT_EQ(op->bytes, 512);
        // After the reduction that landed on the chiplet.
        const PlanOp* dep = find_op(plan, op->deps.at(0));
        EXPECT_EQ(dep->kind, OpKind::Compute);
        EXPECT_EQ(dep->tile.rfind("reduce", 0), 0u) << dep->tile;
    }
    std::int64_t read = 0;
    for (const PlanOp& op : plan.layers[1].ops)
        if (is_spill_read(plan, op)) read += op.bytes;
    EXPECT_EQ(read, 4 * 4 * 512);
    validate_plan(plan, "spill-c");
}

TEST(OutputSpill, AResidualSumIsReadOnceAfterEveryProducer) {
    // a (4 -> 32) and a2 (32 -> 32, reads a) both leave 512-byte slices; b reads their sum
    // (inputs {a, a2}, same layout). Each consumer reads each owner's part once — 4 x 512,
    // not twice that — from a2's slice, the latest producer, and the owner's notice waits for
    // both writes on it.
    const ArchConfig arch = small_buffer_2x2();
    Workload w;
    w.name = "residual";
    w.layers = {conv1x1("a", 4, 32, {}), conv1x1("a2", 32, 32, {0}), conv1x1("b", 32, 8, {0, 1})};
    validate_workload(w, "residual");
    const Plan plan = build_plan(arch, w, uniform_mapping(w, split(Dim::K)));
    std::map<int, const PlanOp*> write_a, write_a2;
    for (const PlanOp* op : ops_of(plan.layers[0], OpKind::DramWrite)) write_a[op->chiplet] = op;
    for (const PlanOp* op : ops_of(plan.layers[1], OpKind::DramWrite)) write_a2[op->chiplet] = op;
    ASSERT_EQ(write_a.size(), 4u);
    ASSERT_EQ(write_a2.size(), 4u);
    const PlanLayer& b = plan.layers[2];
    std::int64_t read = 0;
    std::set<std::uint64_t> a2_addresses;
    for (const auto& [chiplet, op] : write_a2) a2_addresses.insert(op->address);
    for (const PlanOp& op : b.ops)
        if (is_spill_read(plan, op)) {
            read += op.bytes;
            EXPECT_EQ(a2_addresses.count(op.address), 1u);
        }
    EXPECT_EQ(read, 4 * 4 * 512);
    for (const PlanOp* s : ops_of(b, OpKind::Send))
        EXPECT_EQ(s->deps, (std::vector<std::int64_t>{write_a.at(s->chiplet)->id, write_a2.at(s->chiplet)->id}));
    expect_flows_pair(b);
    validate_plan(plan, "residual");
}

TEST(OutputSpill, SpillingPlanSimulatesWithConservation) {
    const ArchConfig arch = small_buffer_2x2();
    const Workload w = three_convs();
    Mapping m = uniform_mapping(w, split(Dim::K));
    for (auto& l : m.layers) l.collective = Collective::Ring;
    const Plan plan = build_plan(arch, w, m);
    ASSERT_GT(plan.layers[0].mapping->spilled_producers, 0);
    std::int64_t dram = 0;
    for (const PlanLayer& l : plan.layers)
        for (const PlanOp& op : l.ops)
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) dram += op.bytes;
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), dram);
    EXPECT_GT(estimate_plan(arch, plan).latency_ns, 0.0);
}

TEST(OutputSpill, PipelinedMicroBatchesSimulateWithConservation) {
    // Batch 4 in micro-batches of 1, two segments of one column (2 chiplets) each, ring
    // collective. Per micro-batch a 16 -> 16 conv on 16 x 16 makes 16 x 256 = 4096 bytes, 2048
    // per chiplet of its column: more than a 1024-byte buffer, so those layers spill, every
    // micro-batch.
    ArchConfig arch = small_buffer_2x2();
    arch.chiplet.global_buffer_bytes = 1024;
    Workload w;
    w.name = "pipelined-spill";
    w.batch = 4;
    auto conv3x3 = [](const std::string& name, std::int64_t c, std::vector<int> in) {
        Layer l = conv1x1(name, c, 16, std::move(in));
        l.n = 4, l.h = l.w = l.p = l.q = 16, l.r = l.s = 3, l.pad = 1;
        return l;
    };
    w.layers = {conv3x3("conv1", 3, {}), conv3x3("conv2", 16, {0}), conv3x3("conv3", 16, {1}), conv3x3("conv4", 16, {2})};
    validate_workload(w, "pipelined-spill");
    MapOptions o;
    o.placement = "pipelined";
    o.segments = 2;
    o.collective = "ring";
    const Plan plan = map_workload(arch, w, o);
    ASSERT_EQ(plan.layers.size(), 4 * w.layers.size());
    int spilled = 0;
    std::int64_t dram = 0;
    for (const PlanLayer& l : plan.layers) {
        spilled += l.mapping->spilled_producers;
        for (const PlanOp& op : l.ops)
            if (op.kind == OpKind::DramRead || op.kind == OpKind::DramWrite) dram += op.bytes;
    }
    // conv1..conv3 have consumers; each of their 4 micro-batches spills on both chiplets of
    // its column (conv4 is the output and has none).
    EXPECT_EQ(spilled, 3 * 4 * 2);
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
    EXPECT_EQ(sim.checks["ops_executed"], sim.checks["ops_total"]);
    EXPECT_FALSE(sim.checks["deadlock"].get<bool>());
    EXPECT_EQ(sim.checks["dram_bytes_served"].get<std::int64_t>(), dram);
    EXPECT_GT(estimate_plan(arch, plan).latency_ns, 0.0);
}
