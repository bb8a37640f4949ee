#pragma once
// The layered formulation that `milp` solves exactly and `exhaustive` enumerates: the
// workload as a chain of layers, each choosing one of its candidate genes (partition,
// shares, route policy, collective, weight and network-input delivery), the cost of a layer
// depending on its own gene and on the layout (partition and shares) of the layer before it.
// Pure C++.
//
// Per-layer model (exact for the layer): the cost of layer l under gene o after layer l - 1
// laid out as s is the analytical model (message granularity, what every optimiser searches
// with) on a plan of the layer in context: its producers (l - 1 in layout s, any other
// producer, such as the far end of a residual join, with the incumbent's gene), the layer
// with gene o, and its first consumer (so that its outputs stay on chip, as in the whole
// plan). The layer's time is its last op's end less the end of the layers before it in that
// plan; its energy is what the layer's own ops book (compute, SRAM, package, DRAM), plus the
// DRAM background its DRAM bytes keep active. Everything time-proportional (chiplet leakage,
// idle DRAM background, refresh) is one static power over the workload's latency:
//   latency = sum_l T_l,   energy = sum_l E_l + P_static x latency.
// So congestion enters as the model has it: every link, NI, PHY and DRAM channel at its own
// bandwidth, transfers competing where they overlap; collectives (synthesised ones included)
// and multicasts are priced as they are built.
//
// Coupling: only through the layout of the layer before (the state of the dynamic
// programme in milp.h); producers further back are taken as the incumbent has them, and
// milp re-tabulates with its own answer as the incumbent until the answer repeats.
//
// Candidates per layer (what the formulation chooses from): when a layer's whole gene space
// is small (at most `full_space_limit` genes: tiny instances) every gene of it; otherwise
// every partition option of the space with uniform shares under every route, collective,
// weight delivery and (on layers that read a network input) input delivery, plus the
// incumbent's gene and any further candidates the caller gives (ChainOptions::extra). Each
// (layout, gene) pair is priced once; a layer whose cost does not
// depend on the layer before (it does not read it) is priced once per gene.
#include "hw/config/arch_config.h"
#include "mapper/optimize/genome.h"
#include "mapper/optimize/objective.h"
#include "mapper/optimize/search_space.h"
#include "mapper/workload/workload.h"

#include <cstddef>
#include <map>
#include <mutex>
#include <vector>

namespace mcmsim {

struct ChainOptions {
    /// Every gene of a layer is a candidate when the layer has at most this many.
    std::size_t full_space_limit = 400;
    /// Threads pricing the tables (the tables do not depend on it).
    int threads = 2;
    /// [layer] further candidates (e.g. shares balanced by the closed-form MILP).
    std::vector<std::vector<LayerGene>> extra;
    /// > 0: a RequestError (field "optimizer") before anything is priced when the layers'
    /// candidate counts multiply to more (what an enumeration can go through).
    double max_combinations = 0;
};

/// A layer's time and energy under one (layout before, gene) pair.
struct ChainCost {
    double time_ns = 0;
    double energy_pj = 0;
};

class ChainFormulation {
public:
    /// `incumbent`: the genome whose genes the far producers and the consumers keep, and whose
    /// own genes are candidates. Throws std::invalid_argument for a pipelined incumbent.
    ChainFormulation(const ArchConfig& arch, const Workload& w, const MappingSpace& space, const Genome& incumbent,
                     const ChainOptions& o = {});

    std::size_t layers() const { return candidates_.size(); }
    const MappingSpace& space() const { return space_; }
    const std::vector<LayerGene>& candidates(std::size_t l) const { return candidates_[l]; }
    /// Layouts of layer l's candidates (the states of layer l + 1), and candidate o's layout.
    int layouts(std::size_t l) const { return static_cast<int>(layouts_[l].size()); }
    int layout_of(std::size_t l, int o) const { return layout_of_[l][static_cast<std::size_t>(o)]; }
    /// Whether layer l's cost depends on the layout of layer l - 1 (it reads it).
    bool coupled(std::size_t l) const { return coupled_[l]; }
    /// Layer l's cost under candidate o after layout s of layer l - 1 (any s when !coupled(l)).
    const ChainCost& cost(std::size_t l, int s, int o) const;
    /// Time-proportional power (leakage, idle DRAM background, refresh), pJ per ns.
    double static_pj_per_ns() const { return static_pj_per_ns_; }
    /// The workload's latency and energy from per-layer sums.
    Score total(double time_ns, double energy_pj) const { return Score{time_ns, energy_pj + static_pj_per_ns_ * time_ns}; }
    /// Any sequential genome's score in the formulation (genes outside the candidates are
    /// priced on demand and remembered; safe from several threads).
    Score score(const Genome& g) const;
    /// Plans priced to build the tables.
    std::size_t priced() const { return priced_; }

private:
    ChainCost price(std::size_t l, const LayerGene& before, const LayerGene& gene) const;

    const ArchConfig& arch_;
    const Workload& w_;
    MappingSpace space_;
    Genome incumbent_;
    std::vector<std::vector<LayerGene>> candidates_;
    std::vector<std::vector<LayerGene>> layouts_;  ///< [l][layout]: a representative gene (uniform route etc.)
    std::vector<std::vector<int>> layout_of_;      ///< [l][candidate]
    std::vector<bool> coupled_;
    std::vector<std::vector<ChainCost>> table_;  ///< [l][s * candidates + o]
    std::vector<int> first_consumer_;            ///< [l] -1: none
    double static_pj_per_ns_ = 0;
    std::size_t priced_ = 0;
    mutable std::mutex extra_mutex_;
    mutable std::map<std::vector<int>, ChainCost> extra_;  ///< genes priced on demand
};

/// Whether two genes lay a layer's output out alike (the same partition and shares).
bool same_layout(const LayerGene& a, const LayerGene& b);

}  // namespace mcmsim
