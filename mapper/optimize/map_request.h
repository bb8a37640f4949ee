#pragma once
// What a caller asks the mapper for: a typed request, checked once (check_request), that every
// optimiser reads. Bad values are RequestErrors naming the field; the CLI reports each under
// the option of the same name. Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/mapping/mapping.h"
#include "mapper/mapping/partition.h"
#include "mapper/optimize/objective.h"
#include "mapper/optimize/search_space.h"
#include "mapper/workload/workload.h"

#include <cstdint>
#include <functional>
#include <optional>

namespace mcmsim {

/// uniform: equal shares, the request's own partition, collective and delivery on every layer;
/// nonuniform: MCMComm-style shares that equalise finish times; ga, milp, exhaustive: searches
/// of the declared space (search_space.h).
enum class Optimizer { Uniform, Nonuniform, Ga, Milp, Exhaustive };

template <>
struct ChoiceNames<Optimizer> {
    static constexpr std::pair<Optimizer, const char*> all[] = {{Optimizer::Uniform, "uniform"},
                                                                {Optimizer::Nonuniform, "nonuniform"},
                                                                {Optimizer::Ga, "ga"},
                                                                {Optimizer::Milp, "milp"},
                                                                {Optimizer::Exhaustive, "exhaustive"}};
};

/// Every layer on the whole package, or pipeline segments of consecutive layers on bands of
/// grid columns with the batch streamed in micro-batches (mapper/mapping/pipeline_placement.h).
enum class Placement { Sequential, Pipelined };

template <>
struct ChoiceNames<Placement> {
    static constexpr std::pair<Placement, const char*> all[] = {{Placement::Sequential, "sequential"},
                                                                {Placement::Pipelined, "pipelined"}};
};

struct MapRequest {
    Optimizer optimizer = Optimizer::Uniform;
    std::uint64_t seed = 1;
    /// The uniform baseline's partition, and the first option of every searched space.
    PartitionOption split{Dim::K, Dim::K};
    /// Uniform optimiser: every layer's collective, weight and network-input delivery; the
    /// searches put them first in their space.
    Collective collective = Collective::Direct;
    Delivery weights = Delivery::Unicast;
    Delivery inputs = Delivery::Unicast;
    /// Uniform optimiser only: layer placement, segment count and samples per micro-batch.
    Placement placement = Placement::Sequential;
    int segments = 1;
    std::int64_t micro_batch = 1;
    /// What ga, milp and exhaustive minimise.
    Objective objective = Objective::Edp;
    /// Wall-clock limit of a search in seconds (0: none). Searches are deterministic for a
    /// seed only while this limit does not cut them short.
    double budget_s = 0;
    /// The space searched; none: the default space for the workload and package.
    std::optional<SearchSpace> space;
    /// GA size: population and generations, and local-search evaluations after the last one.
    int population = 20, generations = 25;
    int polish_evaluations = 0;
    /// Called as a search advances: step (generation), best objective value, elapsed s.
    std::function<void(int, double, double)> progress;
};

/// Throws RequestError for a field out of range or a combination that cannot be mapped on
/// `arch` (segments beyond the grid's columns, pipelined placement with a search, ...).
void check_request(const ArchConfig& arch, const MapRequest& r);

/// The request's uniform partition.
inline Partition split_partition(const MapRequest& r) { return r.split.uniform(); }

}  // namespace mcmsim
