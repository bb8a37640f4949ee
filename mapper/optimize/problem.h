#pragma once
// What an optimiser searches: a mapping space over a rows x cols grid for a number of layers,
// and a way to score a genome. Two scorers: the analytical model on the built plan
// (AnalyticalProblem, what `mcmsim map` optimises) and the closed-form formulation shared with
// the MILP and the exhaustive search (mapper/optimize/formulation.h). Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/optimize/genome.h"
#include "mapper/optimize/objective.h"
#include "mapper/workload/workload.h"

#include <utility>
#include <vector>

namespace mcmsim {

class Problem {
public:
    Problem(MappingSpace space, std::size_t layers, int rows, int cols)
        : space_(std::move(space)), layers_(layers), rows_(rows), cols_(cols) {}
    virtual ~Problem() = default;

    const MappingSpace& space() const { return space_; }
    std::size_t layers() const { return layers_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }

    /// Scores a genome; must be safe to call from several threads at once.
    virtual Score evaluate(const Genome& g) const = 0;

    /// Unit segments of an option: [begin, end) ranges of a gene's units that keep their own
    /// total (1-D: all chiplets; 2-D: the grid rows, then the grid columns).
    std::vector<std::pair<int, int>> segments(int option) const;

    /// Whether layer `l` reads a network input (a tensor no layer produces): only there does
    /// the input-delivery gene (LayerGene::inputs) change the plan, so only there is it searched.
    bool reads_network_input(std::size_t l) const { return l < network_input_.size() && network_input_[l]; }

protected:
    std::vector<bool> network_input_;  ///< per layer, see reads_network_input(); empty: none

private:
    MappingSpace space_;
    std::size_t layers_;
    int rows_, cols_;
};

/// Per layer of `w`: whether it reads a network input (Problem::reads_network_input).
std::vector<bool> network_input_layers(const Workload& w);

/// The analytical model's latency and energy of the plan built from a genome.
class AnalyticalProblem : public Problem {
public:
    AnalyticalProblem(const ArchConfig& arch, const Workload& w, MappingSpace space);
    Score evaluate(const Genome& g) const override;

private:
    const ArchConfig& arch_;
    const Workload& w_;
};

}  // namespace mcmsim
