#pragma once
// Tiny instances, temporary space files and GA settings the optimiser tests share.
#include "hw/common/input_error.h"
#include "hw/config/presets.h"
#include "hw/dram/dram_config.h"
#include "mapper/model/analytical_model.h"
#include "mapper/optimize/exhaustive.h"
#include "mapper/optimize/formulation.h"
#include "mapper/optimize/genetic.h"
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/milp.h"
#include "mapper/optimize/optimize.h"
#include "mapper/optimize/pareto.h"
#include "mapper/optimize/tiny_instance.h"
#include "mapper/plan_builder/plan_builder.h"
#include "mapper/workload/workload.h"
#include "traces/plan/plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>

namespace mcmsim::optimizer_test {

using namespace mcmsim;

inline bool rel_equal(double a, double b, double tol = 1e-6) {
    return std::abs(a - b) <= tol * std::max(std::abs(a), std::abs(b));
}

inline GaOptions tiny_ga(std::uint64_t seed) {
    GaOptions o;
    o.seed = seed;
    o.population = 40;
    o.generations = 60;
    o.polish_evaluations = 5000;
    return o;
}

inline std::vector<Genome> uniform_seeds(const MappingSpace& s, std::size_t layers, int rows, int cols) {
    std::vector<Genome> seeds;
    for (int o = 0; o < s.partitions.size(); ++o) seeds.push_back(uniform_genome(s, layers, o, rows, cols));
    return seeds;
}

inline std::string write_temp(const std::string& name, const std::string& text) {
    std::string path = ::testing::TempDir() + name;
    std::ofstream(path) << text;
    return path;
}

}  // namespace mcmsim::optimizer_test
