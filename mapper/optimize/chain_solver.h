#pragma once
// Exact solution of the layered formulation (chain_formulation.h), and its plain enumeration
// for checking it. Pure C++.
//
// Dynamic programme over the layers. A label is a partial solution of layers 0..l: its summed
// time and energy, the layout of layer l (the state) and the choice that made it. Latency and
// energy objectives keep one label per state: the least time, or the least energy plus static
// power x time. EdP = latency x (energy + static power x latency) is not a sum, so the
// programme keeps, per state, every label that no other label of that state beats in both
// time and energy: the exact (time, energy) Pareto front of each state. The optimum is the
// best EdP point of the last layer's fronts (a dominated partial solution stays dominated when
// the same layers are added to both, and EdP grows with both time and energy). The work is
// bounded by counts, not the clock: a front larger than `max_labels` is thinned to that many
// points spread over its time range, and the answer is then reported with the gap between its
// EdP and a lower bound (the least time times the least energy reachable, each optimised
// alone), which is 0 when nothing was thinned. Before a front is thinned, its labels that
// cannot lead to a solution better than a known one (`upper_bound`, e.g. the incumbent's
// value) are dropped, which loses nothing: a label's EdP can be no less than that of its time
// and energy plus the least time and the least energy of every layer after it.
#include "mapper/optimize/chain_formulation.h"

#include <cstddef>
#include <limits>

namespace mcmsim {

struct ChainSolveOptions {
    std::size_t max_labels = 20000;  ///< per state; beyond it a front is thinned (not proven)
    std::size_t keep_best = 1;       ///< solutions to return, best first (ChainResult::best_few)
    /// EdP: the objective of a known solution; a front over `max_labels` first loses the
    /// labels that cannot beat it. Infinity: none known.
    double upper_bound = std::numeric_limits<double>::infinity();
};

struct ChainResult {
    Genome best;
    Score score;              ///< the formulation's latency and energy of `best`
    bool proven = true;       ///< false when a front was thinned
    double gap = 0;           ///< relative: (objective - bound) / objective; 0 when proven
    std::size_t labels = 0;   ///< largest front kept, over all states
    std::size_t visited = 0;  ///< labels extended (solve), or solutions enumerated
    /// The `keep_best` best distinct solutions of the last layer's fronts, best first
    /// (`best` the first of them).
    std::vector<Genome> best_few;
};

/// The formulation's optimum for `objective`.
ChainResult solve_chain(const ChainFormulation& f, Objective objective, const ChainSolveOptions& o = {});

/// Every combination of the layers' candidates; std::invalid_argument beyond `max_solutions`.
ChainResult enumerate_chain(const ChainFormulation& f, Objective objective, double max_solutions = 5e7);

}  // namespace mcmsim
