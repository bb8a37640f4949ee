#pragma once
// Builders for the zoo networks; zoo.cpp dispatches to them by name.
#include "mapper/workload.h"

#include <cstdint>

namespace mcmsim {

Workload build_resnet50(std::int64_t batch);

}  // namespace mcmsim
