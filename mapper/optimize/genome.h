#pragma once
// A point of the mapping search space: per layer a partition option, whole share units per
// part, a route policy, a collective algorithm, a weight and a network-input delivery. Every optimiser produces one; `to_mapping`
// turns it into the plan builder's input. Pure C++.
#include "mapper/mapping/mapping.h"
#include "mapper/optimize/search_space.h"
#include "mapper/workload/workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim {

struct LayerGene {
    int option = 0;       ///< index into MappingSpace::partitions
    IdVector<int> units;  ///< [part] 1-D: one per chiplet; 2-D: grid rows first, then grid columns
    int route = 0;        ///< index into MappingSpace::routes
    int collective = 0;   ///< index into MappingSpace::collectives
    int weights = 0;      ///< index into MappingSpace::weights
    int inputs = 0;       ///< index into MappingSpace::inputs (optimisers change it only on layers reading a network input)
    bool operator==(const LayerGene& o) const {
        return option == o.option && units == o.units && route == o.route && collective == o.collective && weights == o.weights &&
               inputs == o.inputs;
    }
};

struct Genome {
    std::vector<LayerGene> layers;
    int segments = 0;  ///< index into MappingSpace::pipeline_segments (0: the first, sequential)
    /// Pipelined: how many layers each segment boundary moves from the MAC-balanced cut
    /// (entry k: the start of segment k + 1; missing entries are 0).
    IdVector<int> boundary_shift;
    bool operator==(const Genome& o) const {
        return layers == o.layers && segments == o.segments && boundary_shift == o.boundary_shift;
    }
    /// Flattened genes, the exact key of the fitness cache.
    std::vector<int> key() const;
};

struct GenomeKeyHash {
    std::size_t operator()(const std::vector<int>& k) const;
};

/// Parts a layer's units are spread over for an option on a rows x cols grid.
int parts_of(const PartitionOption& o, int rows, int cols);

/// Uniform units for option `option` (every part holds units_per_part); the first route and
/// the first collective of the space.
LayerGene uniform_gene(const MappingSpace& s, int option, int rows, int cols);

/// Every layer on `option`, uniform.
Genome uniform_genome(const MappingSpace& s, std::size_t layers, int option, int rows, int cols);

/// The plan builder's input for a genome. A genome with more than one pipeline segment is
/// placed on column bands of the package (mapper/mapping/pipeline_placement.h) — the MAC-balanced
/// cut with its boundaries moved by `boundary_shift` — one sample per micro-batch, each layer
/// split uniformly over its band.
Mapping to_mapping(const MappingSpace& s, const Genome& g, const Workload& w, int rows, int cols);

/// "k[4 4 4 4]/xy" per layer, for reports ("k[4 4 4 4]/xy/ring" when the space has more than
/// one collective).
std::string describe_gene(const MappingSpace& s, const LayerGene& g, int rows, int cols);

}  // namespace mcmsim
