// MipSolver on COIN-OR CBC (coinor-libcbc-dev): the problem loaded into CLP, branch and bound
// by CBC with its log silenced.
#include "mapper/optimize/mip_solver.h"

#include <CbcModel.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>

#include <cmath>

namespace mcmsim {

namespace {

class CbcMipSolver final : public MipSolver {
public:
    MipSolution solve(const MipProblem& p, const MipLimits& limits) const override {
        OsiClpSolverInterface si;
        const double inf = si.getInfinity();
        auto bound = [inf](double v) { return std::isinf(v) ? (v > 0 ? inf : -inf) : v; };
        const int columns = static_cast<int>(p.lb.size());
        CoinPackedMatrix m(false, 0, 0);
        m.setDimensions(0, columns);
        std::vector<double> rlo, rhi;
        for (const MipRow& r : p.rows) {
            m.appendRow(CoinPackedVector(static_cast<int>(r.idx.size()), r.idx.data(), r.val.data()));
            rlo.push_back(bound(r.lo));
            rhi.push_back(bound(r.hi));
        }
        std::vector<double> lb(p.lb), ub(p.ub);
        for (double& v : lb) v = bound(v);
        for (double& v : ub) v = bound(v);
        si.loadProblem(m, lb.data(), ub.data(), p.objective.data(), rlo.data(), rhi.data());
        for (int j = 0; j < columns; ++j)
            if (p.integer[static_cast<std::size_t>(j)]) si.setInteger(j);
        si.messageHandler()->setLogLevel(0);
        si.setHintParam(OsiDoReducePrint, true, OsiHintTry);
        CbcModel model(si);
        model.setLogLevel(0);
        model.messageHandler()->setLogLevel(0);
        model.setAllowableGap(0);
        model.setAllowableFractionGap(limits.relative_gap);
        if (limits.max_nodes > 0) model.setMaximumNodes(limits.max_nodes);
        if (limits.seconds > 0) model.setMaximumSeconds(limits.seconds);
        model.branchAndBound();
        MipSolution s;
        if (!model.bestSolution()) return s;
        s.found = true;
        s.optimal = model.isProvenOptimal();
        s.x.assign(model.bestSolution(), model.bestSolution() + columns);
        return s;
    }
};

}  // namespace

std::unique_ptr<MipSolver> cbc_mip_solver() { return std::make_unique<CbcMipSolver>(); }

}  // namespace mcmsim
