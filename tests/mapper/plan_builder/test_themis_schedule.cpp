// Themis chunk scheduling: each chunk takes the dimension order that keeps the link classes'
// loads closest. Expected orders are worked out by hand from the loads; the share of chunks
// sent columns first approaches the one that equalises the two classes, in closed form.
#include "mapper/plan_builder/collective_plan.h"
#include "mapper/plan_builder/themis_schedule.h"
#include "tests/mapper/plan_builder/collective_plans.h"

#include <gtest/gtest.h>

namespace mcmsim {
namespace test_themis_schedule {

using namespace collective_test;

/// A demand whose rows-first tree puts `rf` link-bytes per byte on (rows, columns) and whose
/// columns-first tree puts `cf`.
ThemisDemand demand(std::int64_t bytes, int chunks, std::pair<double, double> rf, std::pair<double, double> cf) {
    ThemisDemand d{bytes, chunks, {}};
    d.class_bytes_per_byte[0] = {rf.first, rf.second, 0};
    d.class_bytes_per_byte[1] = {cf.first, cf.second, 0};
    return d;
}

// Equal classes and a 4 x 4 2d broadcast (rows first: 3 row link-bytes and 12 column ones per
// byte; columns first the reverse). Chunk 1: both orders leave 12 on the busiest class, a tie,
// rows first. Chunk 2: rows first would make (6, 24), columns first (15, 15): columns. Chunk 3:
// (18, 27) or (27, 18), a tie: rows. So they alternate.
TEST(ThemisSchedule, EqualClassesAlternate) {
    const auto orders = themis_orders({demand(400, 4, {3, 12}, {12, 3})}, {1, 1, 0});
    using O = DimOrder;
    EXPECT_EQ(orders.at(0), (std::vector<O>{O::RowsFirst, O::ColumnsFirst, O::RowsFirst, O::ColumnsFirst}));
}

// Rows four times as fast as columns: columns first adds (12/4, 3) = (3, 3), rows first
// (3/4, 12); columns first keeps the busiest class lower every time.
TEST(ThemisSchedule, FastRowsTakeTheWideSecondPhase) {
    const auto orders = themis_orders({demand(800, 8, {3, 12}, {12, 3})}, {4, 1, 0});
    EXPECT_EQ(orders.at(0), std::vector<DimOrder>(8, DimOrder::ColumnsFirst));
}

// Rows twice as fast: a share x of the chunks columns first loads rows 1.5 (1 - x) + 6 x and
// columns 12 (1 - x) + 3 x per byte; they are equal at x = 10.5 / 13.5 = 7/9. Over 90 chunks
// the greedy sends 70 columns first, give or take one, and leaves the two classes within one
// chunk's load of each other.
TEST(ThemisSchedule, ShareOfEachOrderEqualisesTheClassesLoads) {
    const int chunks = 90;
    const auto orders = themis_orders({demand(90 * 1000, chunks, {3, 12}, {12, 3})}, {2, 1, 0});
    int columns_first = 0;
    double rows = 0, cols = 0;
    for (DimOrder o : orders.at(0)) {
        const bool cf = o == DimOrder::ColumnsFirst;
        columns_first += cf;
        rows += 1000 * (cf ? 12 : 3) / 2.0;
        cols += 1000 * (cf ? 3 : 12) / 1.0;
    }
    EXPECT_NEAR(columns_first, chunks * 7 / 9, 1);
    EXPECT_LE(std::abs(rows - cols), 1000 * 12.0);
}

TEST(ThemisSchedule, BadDemandsAreRefused) {
    EXPECT_THROW(themis_orders({demand(3, 4, {1, 1}, {1, 1})}, {1, 1, 0}), std::invalid_argument);
    EXPECT_THROW(themis_orders({demand(10, 1, {1, 1}, {1, 1})}, {1, 0, 0}), std::invalid_argument);  // columns without links
}

// On the package whose rows are UCIe advanced (256 GB/s) and columns UCIe standard (64 GB/s),
// Themis's chunked, balanced 2d trees beat the whole-message 2d tree in the analytical model,
// for an all-gather, a broadcast and a reduce-scatter; and it sends most chunks columns first
// there (the second, wider phase along the fast rows): its row links carry more than twice
// the bytes of its column links, as their energy shows (a row link costs half a column
// link's energy per bit).
TEST(ThemisSchedule, BeatsWholeMessage2dOnTheBridgedPackage) {
    const ArchConfig a = load_arch_config(std::string(MCMSIM_CONFIG_DIR) + "/arch/mcm-4x4-bridged-rows-hbm-edge.json");
    EstimateOptions o;
    o.granularity = Granularity::Packet;
    o.packets_per_event = 4;
    for (CollectivePattern p : {CollectivePattern::AllGather, CollectivePattern::Broadcast, CollectivePattern::ReduceScatter}) {
        const Plan two_d = build_collective_plan(a, p, Collective::TwoD, 1 << 18, 4);
        const Plan themis = build_collective_plan(a, p, Collective::Themis, 1 << 18, 4);
        EXPECT_LT(estimate_plan(a, themis, o).latency_ns, 0.95 * estimate_plan(a, two_d, o).latency_ns) << to_string(p);
    }
    const Estimate e = estimate_plan(a, build_collective_plan(a, CollectivePattern::AllGather, Collective::Themis, 1 << 18));
    double row = 0, col = 0;
    const nlohmann::json components = e.ledger.components_json();
    for (auto it = components.begin(); it != components.end(); ++it) {
        const std::string& name = it.key();
        if (name.rfind("link.", 0) != 0) continue;
        const bool horizontal = name.back() == 'E' || name.back() == 'W';
        (horizontal ? row : col) += it.value()["total"].get<double>();
    }
    EXPECT_GT(row, col);
}

}  // namespace test_themis_schedule
}  // namespace mcmsim
