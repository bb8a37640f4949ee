// Pipeline placement: MAC-balanced segments on bands of grid columns, explicit boundaries,
// the request's placement fields, and collectives relayed inside a chiplet group.
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
#include "tests/mapper/plan_builder/pipelined_workloads.h"
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

namespace mcmsim {
namespace test_pipeline_placement {

using namespace pipeline_test;

// Three segments of the chain. The smallest possible largest segment is 12: a first segment
// of fc0 alone leaves 25 for two segments (at least 13 in one), and any first segment with fc1
// holds 12 already; 4+8 | 0? | 4+4 | 8+1 reaches it. Filling each segment as far as 12 allows:
// [fc0 fc1 relu] = 12 (fc2 would make 16), [fc2 fc3] = 8 (fc4 would make 16), [fc4 fc5] = 9.
// Columns of a 2 x 8 package: one each, then the five others one by one to the highest MACs
// per column: 12/1 -> seg 0 (6); 9/1 -> seg 2 (4.5); 8/1 -> seg 1 (4); 6 -> seg 0 (4);
// 4.5 -> seg 2 (3): 3, 2, 3 columns (8 x 12/29 = 3.3, 8 x 8/29 = 2.2, 8 x 9/29 = 2.5).
TEST(PipelinePlacement, SegmentsBalanceMacsAndColumnsFollowThem) {
    PipelinePlacement p = pipeline_placement(chain(1), 2, 8, 3);
    ASSERT_EQ(p.segments.size(), 3);
    const std::size_t first[] = {0, 3, 5}, last[] = {3, 5, 7};
    const std::int64_t macs[] = {12 * 1024, 8 * 1024, 9 * 1024};
    const int col0[] = {0, 3, 5}, cols[] = {3, 2, 3};
    for (int s = 0; s < 3; ++s) {
        EXPECT_EQ(p.segments[s].first, first[s]);
        EXPECT_EQ(p.segments[s].last, last[s]);
        EXPECT_EQ(p.segments[s].macs, macs[s]);
        EXPECT_EQ(p.segments[s].group, (ChipletGroup{0, col0[s], 2, cols[s]}));
    }
    EXPECT_EQ(p.segment_of, (std::vector<int>{0, 0, 0, 1, 1, 2, 2}));  // the MAC-free relu stays with fc1
}

// Two segments: the cuts give 4 | 25 (after fc0), 12 | 17 (after fc1 or the relu), 16 | 13
// (after fc2), 20 | 9 (after fc3), ...: the best is 16 | 13, [fc0 fc1 relu fc2] | [fc3 fc4 fc5].
// Columns of 1 x 4: 16/1 -> seg 0 (8), 13/1 -> seg 1 (6.5): 2 and 2.
TEST(PipelinePlacement, TwoSegmentsTakeTheBestCut) {
    PipelinePlacement p = pipeline_placement(chain(1), 1, 4, 2);
    ASSERT_EQ(p.segments.size(), 2);
    EXPECT_EQ(p.segments[0].last, 4u);
    EXPECT_EQ(p.segments[0].macs, 16 * 1024);
    EXPECT_EQ(p.segments[1].macs, 13 * 1024);
    EXPECT_EQ(p.segments[0].group, (ChipletGroup{0, 0, 1, 2}));
    EXPECT_EQ(p.segments[1].group, (ChipletGroup{0, 2, 1, 2}));
}

TEST(PipelinePlacement, ExplicitBoundariesAndBadCounts) {
    PipelinePlacement p = pipeline_placement_at(chain(1), 2, 8, {2, 6});
    ASSERT_EQ(p.segments.size(), 3);
    EXPECT_EQ(p.segments[1].first, 2u);
    EXPECT_EQ(p.segments[2].first, 6u);
    EXPECT_EQ(p.segments[2].macs, 1024);
    EXPECT_THROW(pipeline_placement(chain(1), 2, 8, 0), InputError);
    EXPECT_THROW(pipeline_placement(chain(1), 2, 8, 9), InputError);   // more than the columns
    EXPECT_THROW(pipeline_placement(chain(1), 2, 16, 8), InputError);  // more than the 7 layers
    EXPECT_THROW(pipeline_placement_at(chain(1), 2, 8, {3, 3}), InputError);
}

// The request's placement fields: segment counts outside 1..columns (or other than 1 when
// sequential), a micro-batch below 1 and pipelined placement with a searching optimiser are
// request errors naming the field.
TEST(PipelinePlacement, RequestIsChecked) {
    ArchConfig a = test_support::hand_arch("hand-2x3", 2, 3, 20, 64, 64);
    auto field_of = [&](const MapRequest& r) -> std::string {
        try {
            check_request(a, r);
        } catch (const RequestError& e) {
            return e.field();
        }
        return "";
    };
    MapRequest o;
    o.segments = 2;
    EXPECT_EQ(field_of(o), "segments");
    o.placement = Placement::Pipelined;
    EXPECT_EQ(field_of(o), "");
    o.segments = 4;
    EXPECT_EQ(field_of(o), "segments");
    o.segments = 0;
    EXPECT_EQ(field_of(o), "segments");
    o.segments = 3;
    o.micro_batch = 0;
    EXPECT_EQ(field_of(o), "micro_batch");
    o.micro_batch = 1;
    o.optimizer = Optimizer::Ga;
    EXPECT_EQ(field_of(o), "placement");
}

// A collective on a group of the package: the relays stay in the group, the bytes enter it
// once from a root outside, and the whole package as the group changes nothing.
TEST(PipelinePlacement, CollectivesRelayInsideTheGroup) {
    const ChipletGroup band{0, 2, 2, 2};  // columns 2-3 of a 2 x 4 package: chiplets 2, 3, 6, 7
    const std::vector<int> dests{2, 3, 6, 7};
    for (Collective alg : {Collective::Ring, Collective::TwoD, Collective::Tree}) {
        std::vector<CollectiveHop> hops = collective_hops(alg, 2, 4, band, /*root*/ 1, dests);
        ASSERT_EQ(hops.size(), dests.size());
        // Chiplet 2 is the one destination one step from chiplet 1: the entry.
        EXPECT_EQ(hops[0].from, 1);
        EXPECT_EQ(hops[0].to, 2);
        EXPECT_EQ(hops[0].parent, -1);
        std::multiset<int> reached;
        for (std::size_t i = 0; i < hops.size(); ++i) {
            reached.insert(hops[i].to);
            if (i == 0) continue;
            EXPECT_GE(band.local(hops[i].from, 4), 0) << to_string(alg);
            ASSERT_GE(hops[i].parent, 0);
            ASSERT_LT(hops[i].parent, static_cast<int>(i));
            EXPECT_EQ(hops[static_cast<std::size_t>(hops[i].parent)].to, hops[i].from);
            EXPECT_EQ(hops[i].depth, hops[static_cast<std::size_t>(hops[i].parent)].depth + 1);
        }
        EXPECT_EQ(reached, std::multiset<int>(dests.begin(), dests.end()));
        // The whole package as the group: the package-wide hops.
        std::vector<CollectiveHop> whole = collective_hops(alg, 2, 4, ChipletGroup{}, 1, dests);
        std::vector<CollectiveHop> plain = collective_hops(alg, 2, 4, 1, dests);
        ASSERT_EQ(whole.size(), plain.size());
        for (std::size_t i = 0; i < whole.size(); ++i) {
            EXPECT_EQ(whole[i].from, plain[i].from);
            EXPECT_EQ(whole[i].to, plain[i].to);
            EXPECT_EQ(whole[i].parent, plain[i].parent);
        }
    }
}

}  // namespace test_pipeline_placement
}  // namespace mcmsim
