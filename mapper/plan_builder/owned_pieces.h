#pragma once
// Where each plan layer's output lies once computed and reduced: in pieces on the chiplets
// that own them (the reductions make them, the input delivery sends from them, the output
// spill and the network-output writes store them). Pure C++.
#include "mapper/mapping/partition.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// Part of a layer's output a chiplet holds, and the op after which it is ready there.
struct OwnedPiece {
    WorkBox box;  ///< n, k, p, q meaningful (c is the full reduction)
    std::int64_t ready = -1;
};

/// [step][chiplet]: the pieces of each plan layer's output each chiplet holds.
using Ownership = std::vector<std::vector<std::vector<OwnedPiece>>>;

}  // namespace mcmsim
