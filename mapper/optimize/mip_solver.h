#pragma once
// A small mixed-integer linear programming interface, so that the optimisers state their
// models once and the solver behind them is one choice: COIN-OR CBC from Debian
// (cbc_mip_solver.cpp). Pure C++ (the solver's headers stay in its one source file).
#include <limits>
#include <memory>
#include <vector>

namespace mcmsim {

/// lo <= sum_k val[k] x[idx[k]] <= hi (an index may appear once).
struct MipRow {
    double lo, hi;
    std::vector<int> idx;
    std::vector<double> val;
};

/// min objective . x subject to the rows and lb <= x <= ub, x integer where asked. Infinite
/// bounds are std::numeric_limits<double>::infinity() (or its negative).
struct MipProblem {
    std::vector<double> lb, ub, objective;
    std::vector<bool> integer;
    std::vector<MipRow> rows;
};

/// Where the search may stop: a relative gap between the best solution and the best bound, a
/// count of branch-and-bound nodes (0: none; a count gives the same answer on any machine),
/// a wall-clock limit (0: none).
struct MipLimits {
    double relative_gap = 0;
    int max_nodes = 0;
    double seconds = 0;
};

struct MipSolution {
    bool found = false;    ///< a feasible solution
    bool optimal = false;  ///< proven optimal within the gap
    std::vector<double> x;
};

class MipSolver {
public:
    virtual ~MipSolver() = default;
    virtual MipSolution solve(const MipProblem& p, const MipLimits& limits) const = 0;
};

/// COIN-OR CBC with CLP relaxations, quiet.
std::unique_ptr<MipSolver> cbc_mip_solver();

constexpr double kMipInf = std::numeric_limits<double>::infinity();

}  // namespace mcmsim
