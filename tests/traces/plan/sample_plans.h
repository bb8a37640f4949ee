#pragma once
// Hand-made plans and the error checks the plan tests share.
#include "hw/common/input_error.h"
#include "tests/support/file_text.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace mcmsim::plan_test {

using nlohmann::json;

const char* const kBadFile = "bad_plan.json";

inline PlanOp make_op(std::int64_t id, int chiplet, OpKind kind, std::vector<std::int64_t> deps = {}) {
    PlanOp op;
    op.id = id;
    op.chiplet = chiplet;
    op.kind = kind;
    op.deps = std::move(deps);
    return op;
}

// 2 chiplets, 1 memory. Layer 0 on chiplet 0: read, compute, send to chiplet 1 (which
// receives it). Layer 1 on chiplet 1: compute on the received data, write back.
// JSON positions: /layers/0/ops/0..3 = ops 1..4, /layers/1/ops/0..1 = ops 5..6.
inline Plan sample_plan() {
    Plan plan;
    plan.arch = "mcm-2x1";
    plan.workload = "tiny-mlp";
    plan.optimizer = "hand";
    plan.seed = (1ULL << 63) + 5;  // beyond int64: exercises the unsigned path
    plan.chiplets = 2;
    plan.memories = 1;

    PlanLayer l0;
    l0.name = "fc1";
    l0.macs = 1000;
    PlanOp rd = make_op(1, 0, OpKind::DramRead);
    rd.bytes = 4096;
    rd.memory = 0;
    rd.address = 1ULL << 40;
    PlanOp mm = make_op(2, 0, OpKind::Compute, {1});
    mm.macs = 1000;
    mm.sram_bytes = 8192;
    mm.tile = "k[0:64)";
    PlanOp tx = make_op(3, 0, OpKind::Send, {2});
    tx.bytes = 2048;
    tx.flow = 0;
    tx.peer = 1;
    tx.route = {0, 1};
    PlanOp rx = make_op(4, 1, OpKind::Recv);
    rx.bytes = 2048;
    rx.flow = 0;
    rx.peer = 0;
    l0.ops = {rd, mm, tx, rx};

    PlanLayer l1;
    l1.name = "fc2";
    l1.macs = 500;
    PlanOp mm2 = make_op(5, 1, OpKind::Compute, {4});
    mm2.macs = 500;
    mm2.sram_bytes = 100;
    PlanOp wr = make_op(6, 1, OpKind::DramWrite, {5});
    wr.bytes = 1024;
    wr.memory = 0;
    wr.address = 65536;
    l1.ops = {mm2, wr};

    plan.layers = {l0, l1};
    return plan;
}

// The message of the InputError that reading `doc` raises, or "no error".
inline std::string error_of(const json& doc) {
    try {
        plan_from_json(doc, kBadFile);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

inline std::string error_of(const Plan& plan) {
    try {
        validate_plan(plan, kBadFile);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

// Every bad-plan message must name the file, the offending pointer, and the given parts.
inline ::testing::AssertionResult names(const std::string& msg, const std::string& pointer,
                                        std::initializer_list<const char*> parts) {
    std::vector<std::string> want{kBadFile, std::string(": ") + pointer + ": "};
    for (const char* p : parts) want.emplace_back(p);
    for (const auto& w : want)
        if (msg.find(w) == std::string::npos) return ::testing::AssertionFailure() << "\"" << w << "\" missing in: " << msg;
    return ::testing::AssertionSuccess();
}

inline json& op_at(json& doc, int layer, int index) { return doc["layers"][layer]["ops"][index]; }

// ---- grouped transfers (version 2) -------------------------------------------------------
// 3 chiplets in a row (routers 0-1-2). Chiplet 0 sends one grouped op: 100 bytes to chiplet 1
// (flow 10), 300 bytes to chiplet 2 over the route 0 -> 1 -> 2 (flow 11). Chiplet 2 receives
// flow 11 and, in the same grouped recv, 50 bytes from chiplet 1 (flow 12, single-form send).
// JSON positions: /layers/0/ops/0..4 = ops 0..4.
inline Plan grouped_plan() {
    Plan plan;
    plan.arch = "row3";
    plan.workload = "hand";
    plan.optimizer = "hand";
    plan.chiplets = 3;
    plan.memories = 0;
    PlanLayer l;
    l.name = "scatter";
    PlanOp tx = make_op(0, 0, OpKind::Send);
    tx.transfers = {Transfer{1, 100, 10, {}}, Transfer{2, 300, 11, {0, 1, 2}}};
    tx.bytes = 400;
    PlanOp tx1 = make_op(1, 1, OpKind::Send);
    tx1.bytes = 50, tx1.flow = 12, tx1.peer = 2;
    PlanOp rx1 = make_op(2, 1, OpKind::Recv);
    rx1.transfers = {Transfer{0, 100, 10, {}}};
    rx1.bytes = 100;
    PlanOp rx2 = make_op(3, 2, OpKind::Recv);
    rx2.transfers = {Transfer{1, 50, 12, {}}, Transfer{0, 300, 11, {}}};
    rx2.bytes = 350;
    l.ops = {tx, tx1, rx1, rx2};
    plan.layers = {l};
    return plan;
}

}  // namespace mcmsim::plan_test
