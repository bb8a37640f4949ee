// Outputs spilled to DRAM when they do not fit (mapper/plan_builder/output_spill.h): a chiplet whose output
// slice of a layer exceeds its global buffer writes it to its nearest memory; a part that
// several consumer chiplets need is read once, by the needing chiplet nearest that memory,
// which forwards it to the others; a part one consumer needs is read by that consumer. Each
// chiplet that reads gets a one-flit notice from the producer (unless it is the producer).
// Expected values are worked out by hand from the partition arithmetic in the comments.
#include "hw/config/arch_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/optimize.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "sim/system/system.h"
#include "tests/mapper/plan_builder/spill_plans.h"
#include "tests/support/plan_bytes.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace mcmsim {
namespace test_output_spill {

using namespace spill_test;

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

    // b: every chiplet needs all 32 channels of a, i.e. the whole of each owner's 512-byte
    // slice (one piece): the same bytes for all four, so each slice is read once, by the
    // needing chiplet nearest memory 0 — chiplet 0, where the stack attaches (0 hops; 1 and 2
    // are 1 hop away, 3 is 2) — at the slice's first byte: 4 reads of 512 bytes on chiplet 0,
    // 2048 bytes in all, exactly what a spilled. The read of chiplet 0's own slice waits for
    // its write; the others for the recv of their owner's notice.
    std::map<int, int> reads;             // owner -> count
    std::map<int, std::int64_t> read_of;  // owner -> the read's id
    std::int64_t read_bytes = 0;
    for (const PlanOp& op : b.ops) {
        if (!is_spill_read(plan, op)) continue;  // not b's own weight reads
        read_bytes += op.bytes;
        EXPECT_EQ(op.chiplet, 0);
        EXPECT_EQ(op.bytes, 512);
        EXPECT_EQ(op.memory, 0);
        ASSERT_EQ(op.deps.size(), 1u);
        const PlanOp* dep = find_op(plan, op.deps[0]);
        int owner = dep->kind == OpKind::DramWrite ? dep->chiplet : dep->transfer(0).peer;
        if (dep->kind == OpKind::Recv) {
            EXPECT_EQ(dep->chiplet, 0);
            ASSERT_EQ(dep->transfer_count(), 1u);
            EXPECT_EQ(dep->bytes, kFlit);
            EXPECT_NE(owner, 0);
        } else {
            EXPECT_EQ(owner, 0);
        }
        EXPECT_EQ(op.address, write_of.at(owner)->address) << "owner " << owner;
        ++reads[owner];
        read_of[owner] = op.id;
    }
    EXPECT_EQ(read_bytes, 4 * 512);
    EXPECT_EQ(read_bytes, a.mapping->spilled_bytes);
    EXPECT_EQ(reads.size(), 4u);
    for (const auto& [owner, n] : reads) EXPECT_EQ(n, 1);

    // Notices only to the chiplet that reads: owners 1, 2 and 3 each send one 32-byte notice
    // to chiplet 0 after their write. Forwarding (direct collective): after each read, one
    // send from chiplet 0 of the 512 bytes to each of 1, 2 and 3 — 4 sends of 3 transfers;
    // chiplets 1..3 each receive the 4 slices, 2048 bytes, in one recv.
    int notices = 0, forwards = 0;
    for (const PlanOp* s : ops_of(b, OpKind::Send)) {
        if (s->chiplet != 0) {
            ++notices;
            EXPECT_EQ(s->deps, std::vector<std::int64_t>{write_of.at(s->chiplet)->id});
            ASSERT_EQ(s->transfer_count(), 1u);
            EXPECT_EQ(s->transfer(0).peer, 0);
            EXPECT_EQ(s->transfer(0).bytes, kFlit);
            continue;
        }
        ++forwards;
        ASSERT_EQ(s->deps.size(), 1u);
        const PlanOp* rd = find_op(plan, s->deps[0]);
        EXPECT_EQ(rd->kind, OpKind::DramRead);
        ASSERT_EQ(s->transfer_count(), 3u);
        std::set<int> to;
        for (std::size_t i = 0; i < 3; ++i) {
            EXPECT_EQ(s->transfer(i).bytes, 512);
            to.insert(s->transfer(i).peer);
        }
        EXPECT_EQ(to, (std::set<int>{1, 2, 3}));
    }
    EXPECT_EQ(notices, 3);
    EXPECT_EQ(forwards, 4);
    const auto recvs = ops_of(b, OpKind::Recv);
    EXPECT_EQ(recvs.size(), 3u + 3u);  // chiplet 0: the 3 notices; 1..3: the forwarded slices
    for (const PlanOp* r : recvs) EXPECT_EQ(r->bytes, r->chiplet == 0 ? kFlit : 4 * 512) << "chiplet " << r->chiplet;
    // Every chiplet's compute waits for all four slices: chiplet 0 for its reads, the others
    // for their recv.
    for (const PlanOp* cp : ops_of(b, OpKind::Compute)) {
        if (cp->chiplet == 0) {
            for (const auto& [owner, id] : read_of) EXPECT_TRUE(std::count(cp->deps.begin(), cp->deps.end(), id) == 1);
        } else {
            bool waits = false;
            for (std::int64_t d : cp->deps)
                waits = waits || (find_op(plan, d)->kind == OpKind::Recv && find_op(plan, d)->bytes == 4 * 512);
            EXPECT_TRUE(waits) << "chiplet " << cp->chiplet;
        }
    }
    expect_flows_pair(b);
    ASSERT_TRUE(b.mapping.has_value());
    EXPECT_EQ(b.mapping->package_bytes, 3 * kFlit + 4 * 3 * 512);
    EXPECT_EQ(b.mapping->spill_dram_bytes_saved, 4 * 3 * 512);
    EXPECT_EQ(b.mapping->multicasts, 0);    // direct: no collective multicast
    EXPECT_EQ(b.mapping->onchip_bytes, 0);  // even chiplet 0's own part comes back from DRAM
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
    EXPECT_EQ(back.layers[1].mapping->spill_dram_bytes_saved, 4 * 3 * 512);
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
    // b (K split) needs every slice whole on every chiplet: each read once (by chiplet 0,
    // next to the memory) and forwarded, 4 x 512 bytes read.
    std::int64_t read = 0;
    for (const PlanOp& op : plan.layers[1].ops)
        if (is_spill_read(plan, op)) read += op.bytes;
    EXPECT_EQ(read, 4 * 512);
    validate_plan(plan, "spill-c");
}

TEST(OutputSpill, AResidualSumIsReadOnceAfterEveryProducer) {
    // a (4 -> 32) and a2 (32 -> 32, reads a) both leave 512-byte slices; b reads their sum
    // (inputs {a, a2}, same layout). Every consumer needs each owner's whole part, so it is
    // read once — by chiplet 0, next to the memory: 4 x 512 bytes, not twice that — from a2's
    // slice, the latest producer; the notices of owners 1..3 to chiplet 0 wait for both writes
    // on the owner, chiplet 0's read of its own part for both its writes.
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
    EXPECT_EQ(read, 4 * 512);
    int notices = 0;
    for (const PlanOp* s : ops_of(b, OpKind::Send)) {
        if (s->chiplet == 0) continue;  // chiplet 0 forwards what it read
        ++notices;
        EXPECT_EQ(s->bytes, kFlit);
        EXPECT_EQ(s->deps, (std::vector<std::int64_t>{write_a.at(s->chiplet)->id, write_a2.at(s->chiplet)->id}));
    }
    EXPECT_EQ(notices, 3);
    for (const PlanOp& op : b.ops) {
        if (!is_spill_read(plan, op) || find_op(plan, op.deps.front())->kind != OpKind::DramWrite) continue;
        EXPECT_EQ(op.deps, (std::vector<std::int64_t>{write_a.at(0)->id, write_a2.at(0)->id}));
    }
    expect_flows_pair(b);
    validate_plan(plan, "residual");
}

TEST(OutputSpill, TheNeedingChipletNearestTheSlicesMemoryReadsIt) {
    // A second stack at chiplet 3 (row 1, col 1). Nearest memories: chiplet 0 -> 0, chiplet 3
    // -> 1, chiplets 1 and 2 are 1 hop from both and take the first, 0. So a's slices of
    // owners 0, 1, 2 lie in memory 0 and are read by chiplet 0 (0 hops; 1 and 2 are 1 hop, 3
    // is 2); owner 3's slice lies in memory 1 and is read by chiplet 3 itself right after its
    // write (0 hops), no notice. Notices: owners 1 and 2 to chiplet 0 only. Forwards: chiplet
    // 0 sends 3 slices to {1, 2, 3}, chiplet 3 one slice to {0, 1, 2}, 512 bytes each.
    ArchConfig arch = small_buffer_2x2();
    MemoryConfig second = arch.memories.at(0);
    second.name = "hbm1";
    second.attach_row = second.attach_col = 1;
    arch.memories.push_back(second);
    const Workload w = three_convs();
    const Plan plan = build_plan(arch, w, uniform_mapping(w, split(Dim::K)));
    std::map<int, const PlanOp*> write_of;
    for (const PlanOp* op : ops_of(plan.layers[0], OpKind::DramWrite)) write_of[op->chiplet] = op;
    ASSERT_EQ(write_of.size(), 4u);
    EXPECT_EQ(write_of.at(3)->memory, 1);
    for (int o = 0; o < 3; ++o) EXPECT_EQ(write_of.at(o)->memory, 0);
    const PlanLayer& b = plan.layers[1];
    std::map<std::uint64_t, int> reader;  // (slice address, memory) -> chiplet reading it
    std::int64_t read = 0;
    for (const PlanOp& op : b.ops) {
        if (!is_spill_read(plan, op)) continue;
        read += op.bytes;
        EXPECT_EQ(op.bytes, 512);
        EXPECT_TRUE(reader.emplace(op.address * 2 + static_cast<std::uint64_t>(op.memory), op.chiplet).second);
    }
    EXPECT_EQ(read, 4 * 512);
    ASSERT_EQ(reader.size(), 4u);
    for (int o = 0; o < 4; ++o)
        EXPECT_EQ(reader.at(write_of.at(o)->address * 2 + static_cast<std::uint64_t>(write_of.at(o)->memory)), o == 3 ? 3 : 0)
            << "owner " << o;
    std::map<int, std::int64_t> sent;  // chiplet -> bytes it sent
    for (const PlanOp* s : ops_of(b, OpKind::Send)) sent[s->chiplet] += s->bytes;
    EXPECT_EQ(sent, (std::map<int, std::int64_t>{{0, 3 * 3 * 512}, {1, kFlit}, {2, kFlit}, {3, 3 * 512}}));
    EXPECT_EQ(b.mapping->package_bytes, 4 * 3 * 512 + 2 * kFlit);
    expect_flows_pair(b);
    validate_plan(plan, "two-stacks");
    SimResult sim = simulate_plan(arch, plan);
    EXPECT_TRUE(sim.completed);
    EXPECT_TRUE(sim.conservation_ok);
}

}  // namespace test_output_spill
}  // namespace mcmsim
