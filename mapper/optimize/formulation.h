#pragma once
// The closed-form model of a layer's bottleneck that the closed-form MILP (milp.h) solves and
// exhaustive.h enumerates: `milp` takes from it the shares that balance a layer's most-loaded
// resource as candidates of the layered formulation (chain_formulation.h). A simplified model
// of the plan; the plans themselves are priced by the analytical model. Pure C++.
//
// Covered instances: a plain mesh package (no diagonal links), every partition option of the
// space one-dimensional (one dimension over all chiplets), every route policy "xy" or "yx"
// and the direct collective only (every chiplet's bytes come straight from memory: relayed
// collectives are not modelled). Any package size and number of memories; every layer kind.
//
// Per layer l, chiplet i holds u_i of U share units (U = units_per_part x chiplets), a_i = 1
// when u_i > 0, and the layer's flows follow route policy rho (dimension-order XY or YX). The
// chiplet works on share u_i/U of the layer:
//   compute   c_l * u_i / U      c_l: the layer's MACs at the chiplet's peak MAC rate (vector
//                               layers: element-wise ops at the vector lanes' rate), ns
//   bytes in  IV_ld * u_i/U + IF_ld * a_i   from its home memory (the nearest, as the plan
//   bytes out OV_ld * u_i/U + OF_ld * a_i   builder's), back to it
// where the coefficients depend on the partition dimension d (W weights, I input, O output):
//   K:        IV = W,   IF = I (every chiplet needs the whole input), OV = O
//   C:        IV = W + I, OF = O x 4/bytes_per_element (32-bit partial sums, reduced in DRAM)
//   P, Q, N:  IV = I,   IF = W (every chiplet needs all weights),    OV = O
// (MatMul: the operand a split slices is variable, the other fixed; vector layers: IV = I,
// OV = O for every d). Bytes in cross DRAM m, PHY m -> NoC, the mesh links of the rho path
// from m's router to i, and i's NI; bytes out the reverse. Every such resource e has a
// bandwidth B_e, and
//   T_l = max( max_i c_l u_i / U,  max_e load_e / B_e )          (the bottleneck time)
//   E_l = MACs/vector-op energy (fixed) + sum_i (bytes in_i e_in_i + bytes out_i e_out_i)
// with e per byte = DRAM stream energy + PHY + D2D link energy per hop + router energy per
// flit / flit bytes per router visited. Over the workload:
//   latency = sum_l T_l,   energy = sum_l E_l + P_leak x latency,   EdP = latency x energy.
// Layers run one after the other; activations go through DRAM (no on-package forwarding):
// that is the simplification that makes per-layer costs independent of the neighbours'
// choices and the formulation linear in (u, a) for a fixed (d, rho).
#include "hw/config/arch_config.h"
#include "mapper/optimize/genome.h"
#include "mapper/optimize/objective.h"
#include "mapper/optimize/problem.h"
#include "mapper/workload/workload.h"

#include <string>
#include <vector>

namespace mcmsim {

/// Bytes of one layer under one partition option: variable (x u/U) and fixed (x a) parts.
struct OptionTraffic {
    double in_var = 0, in_fix = 0, out_var = 0, out_fix = 0;
};

/// A layer's cost under one gene: bottleneck time and energy that depends on the choice.
struct LayerCost {
    double time_ns = 0;
    double energy_pj = 0;  ///< data-movement energy (the fixed compute energy excluded)
};

class Formulation {
public:
    Formulation(const ArchConfig& arch, const Workload& w, const MappingSpace& space);

    /// Empty when covered; otherwise why not.
    const std::string& not_covered() const { return why_not_; }
    bool covers() const { return why_not_.empty(); }

    LayerCost layer_cost(std::size_t l, const LayerGene& g) const;
    /// Combines per-layer costs into the workload's latency and energy.
    Score total(const std::vector<LayerCost>& layers) const;
    Score score(const Genome& g) const;

    // What the MILP needs.
    const MappingSpace& space() const { return space_; }
    std::size_t layers() const { return work_ns_.size(); }
    int chiplets() const { return chiplets_; }
    int rows() const { return rows_; }
    int cols() const { return cols_; }
    int total_units() const { return space_.units_per_part * chiplets_; }
    double work_ns(std::size_t l) const { return work_ns_[l]; }  ///< c_l
    const OptionTraffic& traffic(std::size_t l, int option) const { return traffic_[l][option]; }
    int resources() const { return bandwidth_.size(); }
    double bandwidth(int e) const { return bandwidth_[e]; }
    const std::vector<int>& in_path(int chiplet, int route) const { return in_[route][chiplet]; }
    const std::vector<int>& out_path(int chiplet, int route) const { return out_[route][chiplet]; }
    double in_energy(int chiplet) const { return e_in_[chiplet]; }
    double out_energy(int chiplet) const { return e_out_[chiplet]; }
    double fixed_energy_pj() const { return fixed_energy_; }
    double leakage_pj_per_ns() const { return leak_; }

private:
    MappingSpace space_;
    int rows_, cols_, chiplets_;
    std::string why_not_;
    std::vector<double> work_ns_;
    std::vector<IdVector<OptionTraffic>> traffic_;   ///< [layer][option]
    IdVector<double> bandwidth_;                     ///< [resource] GB/s = bytes/ns
    IdVector<IdVector<std::vector<int>>> in_, out_;  ///< [route][chiplet] resources
    IdVector<double> e_in_, e_out_;                  ///< [chiplet] pJ per byte
    double fixed_energy_ = 0, leak_ = 0;
};

/// The formulation as a Problem, so the genetic optimiser can search it.
class FormulationProblem : public Problem {
public:
    explicit FormulationProblem(const Formulation& f) : Problem(f.space(), f.layers(), f.rows(), f.cols()), f_(f) {}
    Score evaluate(const Genome& g) const override { return f_.score(g); }

private:
    const Formulation& f_;
};

}  // namespace mcmsim
