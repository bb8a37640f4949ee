#include "mapper/plan_builder/chiplet_memories.h"

#include <limits>

namespace mcmsim {

ChipletMemories::ChipletMemories(const ArchConfig& arch, const MeshTopology& topo)
    : home_(arch.chiplet_count()), hops_(arch.chiplet_count()) {
    for (int c = 0; c < arch.chiplet_count(); ++c) {
        IdVector<int>& hops = hops_[c];
        int best = 0, best_hops = std::numeric_limits<int>::max();
        for (const MemoryConfig& mem : arch.memories) {
            const int h = topo.hops(c, topo.id(mem.attach_row, mem.attach_col));
            if (h < best_hops) best_hops = h, best = hops.size();
            hops.push_back(h);
        }
        home_[c] = best;
    }
}

}  // namespace mcmsim
