#pragma once
// SCALE-Sim topology CSV import (scale-sim-v2 conventions, scalesim/topology_utils.py).
#include "mapper/workload/workload.h"

#include <cstdint>
#include <string>

namespace mcmsim {

/// Reads a SCALE-Sim topology file; the header row picks the format:
///   convolution: "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width,
///                 Channels, Num Filter, Strides," (an optional ninth column gives a separate
///                 column stride; mcmsim needs both strides equal)
///   GEMM:        "Layer, M, N, K,"  ->  a fully connected layer: M rows, K in, N out.
/// Conventions kept from SCALE-Sim: the IFMAP sizes already include any padding; the output
/// size is ceil((IFMAP − Filter + Stride) / Stride), i.e. (IFMAP − Filter)/Stride + 1 when the
/// stride divides (rounded up otherwise, expressed as the smallest symmetric pad that gives the
/// same size, so MAC counts match SCALE-Sim's); a layer whose name contains "DP" is
/// depthwise (each of its Channels input channels gets Num Filter filters: groups = Channels);
/// trailing commas and a trailing "#comment" field are ignored. mcmsim additions: a layer reads
/// the previous one's output when the channels match, else the network input from DRAM (a
/// note lists those); blank rows and section rows (a name with no numbers, or a line starting
/// with '#') are skipped with a note. `batch` multiplies every layer (SCALE-Sim has none).
/// A malformed row throws InputError naming the file, "line N" and the field.
Workload import_scalesim_csv(const std::string& path, std::int64_t batch = 1);

}  // namespace mcmsim
