#pragma once
// The memories as each chiplet sees them: package hops to where each memory attaches, and the
// chiplet's home, the nearest one (fewest hops; ties: the lowest memory id), which holds the
// weights, inputs and outputs the chiplet reads and writes. Pure C++.
#include "hw/common/id_vector.h"
#include "hw/config/arch_config.h"
#include "hw/topology/mesh_topology.h"

namespace mcmsim {

class ChipletMemories {
public:
    /// `topo`: the package's own routing, which the hops follow.
    ChipletMemories(const ArchConfig& arch, const MeshTopology& topo);

    /// The nearest memory of `chiplet`.
    int home(int chiplet) const { return home_[chiplet]; }
    /// Package hops from `chiplet` to where `memory` attaches.
    int hops(int chiplet, int memory) const { return hops_[chiplet][memory]; }
    int chiplets() const { return home_.size(); }

private:
    IdVector<int> home_;            ///< [chiplet]
    IdVector<IdVector<int>> hops_;  ///< [chiplet][memory]
};

}  // namespace mcmsim
