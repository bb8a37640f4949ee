#pragma once
// The optimisers behind `mcmsim map --optimizer NAME --objective ...`: each returns its plan
// and the scores needed to print the improvement over the uniform baseline. Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/optimize/map_options.h"
#include "mapper/optimize/genome.h"
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

/// The space `map` searches: the file given, or the default; the --split partition and the
/// --collective are always in it (first), so the uniform baseline is a point of every space.
/// ga searches the whole space; milp and exhaustive search the formulation's share of it
/// (1-D partitions, xy/yx routes, the direct collective only: formulation.h). The default
/// space searches the diagonal route only on a package with diagonal links.
SearchSpace mapping_space_for(const ArchConfig& arch, const Workload& w, const MapOptions& o);

/// The GA's starting genomes: the uniform genome of every partition option (the first is the
/// baseline), the formulation-guided genome, and the baseline and guided genomes again under
/// each other collective of the space (all layers on it).
std::vector<Genome> ga_seeds(const ArchConfig& arch, const Workload& w, const MappingSpace& ms);

OptimizeResult optimize_mapping(const ArchConfig& arch, const Workload& w, const MapOptions& o);

/// One line: "improvement over uniform: 1.23x edp (uniform 2.1e-06 J*s, ga 1.7e-06 J*s)".
std::string improvement_line(const OptimizeResult& r, const std::string& optimizer);

}  // namespace mcmsim
