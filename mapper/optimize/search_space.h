#pragma once
// The one declared search space every optimiser (uniform, nonuniform, ga, milp, exhaustive)
// and the co-design loop draw from. Pure C++.
//
// Mapping part, per layer:
//  - a partition option: one dimension over all chiplets (rows_dim == cols_dim) or one along
//    grid rows and one along grid columns;
//  - non-uniform shares, discretised: every part (chiplet for a 1-D split, grid row and grid
//    column for a 2-D one) owns a whole number of share units, `units_per_part` x parts units
//    in all, so the uniform split is every part holding `units_per_part`; a part may hold 0;
//  - a route policy for the layer's flows (the plan builder's: xy, yx, split, and diagonal —
//    the package's own diagonal-first routing — on packages with diagonal links);
//  - a collective algorithm for the layer's one-to-many input redistribution (the plan
//    builder's: direct, ring, 2d, tree; mapper/plan_builder/collectives.h; synth,
//    collective_synthesis.h). The four fixed ones by default: a relayed all-gather is often
//    the single biggest saving on a mesh; synth when a space file lists it;
//  - weight delivery: "unicast" (every chiplet reads its weight slice from DRAM) or
//    "multicast" (chiplets sharing a slice — P, Q, N splits replicate filters — get it from
//    the one nearest its memory over the package). Both by default;
// Whole plan: the layer-pipeline segment count (`pipeline_segments`: 1 is layer-sequential,
// every layer on all chiplets; S > 1 cuts the network into S segments — the MAC-balanced cut,
// each boundary moved by whole layers as the genome says (Genome::boundary_shift) — on bands
// of grid columns with the batch streamed through them one sample at a time,
// mapper/mapping/pipeline_placement.h; a pipelined plan splits each layer uniformly over its band,
// so the units of the genome matter only when sequential). Default: 1 for batch 1 (nothing
// to stream), 1 to 4 (at most the package's columns) for a batch.
// Hardware part (co-design only): diagonal links, link preset (packaging), link bandwidth per
// direction, DRAM count and placement, link bandwidth per class under a cost budget. Every list holds the values to try; a knob
// left out keeps the base architecture's value.
//
// JSON form (configs/spaces/*.json), read strictly (unknown keys, empty lists, values out of
// range are InputErrors naming file and JSON pointer):
// {
//   "mapping": { "partitions": ["k", "p", "q", "pxk"], "units_per_part": 4,
//                "routes": ["xy"], "collectives": ["direct", "ring"], "weights": ["unicast"],
//                "pipeline_segments": [1, 2, 3] },
//   "hardware": { "diagonal_links": [false, true], "link_preset": ["ucie-standard"],
//                 "link_bandwidth_gbps": [32, 64], "dram_count": [1, 2],
//                 "dram_placement": ["west", "corners"],
//                 "link_budget": { "cost_model": "../costs/ucie-shoreline.json", "budget": [2.3],
//                                  "row_share": [0.3, 0.5, 0.7], "diagonal_share": [0.2] } }
// }
// (the cost model's path relative to the space file).
#include "hw/common/id_vector.h"
#include "hw/config/arch_config.h"
#include "hw/config/link_cost_model.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mcmsim {

/// Each list holds the values to try; a gene names one by its index (LayerGene, Genome).
struct MappingSpace {
    IdVector<PartitionOption> partitions;
    int units_per_part = 4;
    IdVector<RoutePolicy> routes{RoutePolicy::XY};
    IdVector<Collective> collectives{Collective::Direct};
    /// How chiplets that share a weight slice get it: each from DRAM, or read once and
    /// forwarded by the layer's collective (LayerMapping::weight_multicast).
    IdVector<Delivery> weights{Delivery::Unicast};
    /// How chiplets that need the same region of a network input (a tensor no layer produces)
    /// get it: each reads it from DRAM, or read once and forwarded by the layer's collective
    /// (LayerMapping::input_multicast). Matters only on layers that read one.
    IdVector<Delivery> inputs{Delivery::Unicast};
    IdVector<int> pipeline_segments{1};  ///< segment counts to try (1: layer-sequential)
};

/// Where the DRAM stacks sit: the first column (rows spread), the corners, one per side round
/// the package, or the centre.
enum class DramPlacement { West, Corners, Edges, Centre };

template <>
struct ChoiceNames<DramPlacement> {
    static constexpr std::pair<DramPlacement, const char*> all[] = {{DramPlacement::West, "west"},
                                                                    {DramPlacement::Corners, "corners"},
                                                                    {DramPlacement::Edges, "edges"},
                                                                    {DramPlacement::Centre, "centre"}};
};

/// Link bandwidth per class bought with a budget (mapper/optimize/link_allocation.h): each
/// point spends `budget` (in the cost model's unit), the rows taking `row_share` of it, the
/// diagonals `diagonal_share` when the point's package has them, the columns the rest.
struct LinkBudgetSpace {
    LinkCostModel costs;
    std::vector<double> budget;
    std::vector<double> row_share;       ///< each in (0, 1)
    std::vector<double> diagonal_share;  ///< each in [0, 1); empty: the package has none
};

struct HardwareSpace {
    std::vector<bool> diagonal_links;
    std::vector<std::string> link_preset;  ///< preset names (configs/links/)
    std::vector<double> link_bandwidth_gbps;
    std::vector<int> dram_count;
    std::vector<DramPlacement> dram_placement;
    std::optional<LinkBudgetSpace> link_budget;
};

struct SearchSpace {
    MappingSpace mapping;
    HardwareSpace hardware;
    std::string file;  ///< where it was loaded from (empty: built in)
};

/// The default space: 1-D K, C, P, Q (and N when the batch is > 1) and the 2-D pairs PxK, KxP,
/// QxK; 4 units per part; the routes xy, yx, split (and diagonal when the package has diagonal
/// links); every collective, direct first; unicast and multicast weights; no hardware knobs.
SearchSpace default_search_space(bool batched, PackageTopology topology = PackageTopology::Mesh);

/// Loads and checks a space file; throws InputError (file, JSON pointer, expected, found).
SearchSpace load_search_space(const std::string& path);

nlohmann::json search_space_to_json(const SearchSpace& s);

}  // namespace mcmsim
