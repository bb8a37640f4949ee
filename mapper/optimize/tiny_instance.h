#pragma once
// Seeded tiny instances for checking the optimisers against each other: the 2x2 package
// (configs/arch/mcm-2x2.json), three chained layers of random conv or fully-connected shapes,
// and a space the formulation covers (1-D K, C, P, Q; 2 units per chiplet; XY and YX routes).
// The same seed always gives the same instance. Pure C++.
#include "hw/config/arch_config.h"
#include "mapper/optimize/search_space.h"
#include "mapper/workload/workload.h"

#include <cstdint>

namespace mcmsim {

struct TinyInstance {
    ArchConfig arch;
    Workload workload;
    MappingSpace space;
};

TinyInstance tiny_instance(std::uint64_t seed);

}  // namespace mcmsim
