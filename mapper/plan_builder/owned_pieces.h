#pragma once
// Where each plan layer's output lies once computed and reduced: in pieces on the chiplets
// that own them (the reductions make them, the input delivery sends from them, the output
// spill and the network-output writes store them). Pure C++.
#include "hw/common/id_vector.h"
#include "mapper/mapping/partition.h"

#include <cstdint>
#include <vector>

namespace mcmsim {

/// Part of a layer's output a chiplet holds, and the op after which it is ready there.
struct OwnedPiece {
    WorkBox box;  ///< n, k, p, q meaningful (c is the full reduction)
    std::int64_t ready = -1;
};

/// Per chiplet, the pieces of one plan layer's output it holds.
using OwnedPieces = IdVector<std::vector<OwnedPiece>>;
/// [step][chiplet]: the pieces of each plan layer's output each chiplet holds.
using Ownership = IdVector<OwnedPieces>;

}  // namespace mcmsim
