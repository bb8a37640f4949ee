#pragma once
// The optimisers behind one dispatcher, optimize_mapping(): each returns its plan and the
// analytical scores of it and of the uniform baseline. Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/optimize/genome.h"
#include "mapper/optimize/map_request.h"
#include "mapper/optimize/objective.h"
#include "mapper/optimize/search_space.h"
#include "traces/plan/plan.h"

#include <optional>
#include <string>

namespace mcmsim {

struct OptimizeResult {
    Plan plan;
    Objective objective = Objective::Edp;
    Score uniform;  ///< analytical model, uniform plan
    Score chosen;   ///< analytical model, the optimiser's plan
    /// Formulation objective (milp, exhaustive) of the uniform and the chosen genome.
    std::optional<Score> formulation_uniform, formulation_chosen;
    std::string detail;  ///< one line: what the optimiser did (generations, solves, method)

    /// uniform / chosen objective: > 1 is better than the baseline.
    double improvement() const { return uniform.value(objective) / chosen.value(objective); }
};

/// The space a search covers: the request's, or the default; the request's partition and
/// collective are always in it (first), so the uniform baseline is a point of every space.
/// ga searches the whole space; milp and exhaustive search the formulation's share of it
/// (1-D partitions, xy/yx routes, the direct collective only: formulation.h). The default
/// space searches the diagonal route only on a package with diagonal links.
SearchSpace mapping_space_for(const ArchConfig& arch, const Workload& w, const MapRequest& r);

/// The GA's starting genomes: the uniform genome of every partition option (the first is the
/// baseline), the formulation-guided genome, and the baseline and guided genomes again under
/// each other collective of the space (all layers on it).
std::vector<Genome> ga_seeds(const ArchConfig& arch, const Workload& w, const MappingSpace& ms);

/// Checks the request, then maps with its optimiser.
OptimizeResult optimize_mapping(const ArchConfig& arch, const Workload& w, const MapRequest& r);
/// The plan of optimize_mapping().
Plan map_workload(const ArchConfig& arch, const Workload& w, const MapRequest& r);

/// The uniform optimiser's plan for a checked request.
Plan uniform_plan(const ArchConfig& arch, const Workload& w, const MapRequest& r);
/// The baseline: every layer split uniformly over all chiplets by output channels (K).
Plan map_uniform(const ArchConfig& arch, const Workload& w, std::uint64_t seed);
/// MCMComm-style non-uniform shares: starting from the uniform split, each layer's shares are
/// moved towards equal finish times — less work for chiplets whose data arrives late (far from
/// DRAM, behind congested links) — using the analytical model, keeping the best energy-delay
/// product seen.
Plan map_nonuniform(const ArchConfig& arch, const Workload& w, const Partition& start, std::uint64_t seed);

/// One line: "improvement over uniform: 1.23x edp (uniform 2.1e-06 J*s, ga 1.7e-06 J*s)".
std::string improvement_line(const OptimizeResult& r, Optimizer optimizer);

}  // namespace mcmsim
