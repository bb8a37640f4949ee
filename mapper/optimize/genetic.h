#pragma once
// The genetic optimiser over a Problem's mapping space. Pure C++.
//
// Encoding: one gene per layer (partition option, share units per part, route policy,
// collective algorithm).
// Operators: tournament selection; uniform crossover of whole layer genes (a layer's option,
// units, route and collective travel together, so a child never mixes units of different
// options); mutation of a layer gene — another partition option (uniform units, same route
// and collective), another route, another collective, or share units moved from one part to
// another within a segment (so totals stay fixed). A space with one route or one collective
// draws no random numbers for it, so adding a one-value list changes no result;
// elitism (the best `elites` survive unchanged). The initial population holds the given
// seeds (the uniform baseline first, so the result is never worse than it) and random
// genomes. After the generations a best-improvement local search ("polish") walks the best
// genome's single-gene neighbourhood.
//
// Determinism: all randomness comes from one engine seeded with `seed`, drawn in the main
// thread; a generation's new genomes are evaluated in parallel into indexed slots; fitness is
// cached by the exact gene key. Same seed -> same result, whatever the thread count. Only
// `budget_s` (a wall-clock limit, off by default) can make two runs differ.
#include "mapper/optimize/objective.h"
#include "mapper/optimize/problem.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace mcmsim {

struct GaOptions {
    std::uint64_t seed = 1;
    Objective objective = Objective::Edp;
    int population = 24;
    int generations = 30;
    int elites = 2;
    int tournament = 3;
    double crossover_rate = 0.9;
    int polish_evaluations = 400;  ///< local-search evaluations after the last generation
    int threads = 2;
    double budget_s = 0;  ///< wall-clock limit (0: none); stops between generations
    /// Called after each generation (and polish pass): generation, best value, elapsed s.
    std::function<void(int, double, double)> progress;
};

struct GaResult {
    Genome best;
    Score best_score;
    int generations = 0;
    std::size_t evaluations = 0;  ///< distinct genomes scored
    bool budget_hit = false;
};

/// `seeds` go into the first generation as they are (at least one is required).
GaResult run_genetic(const Problem& problem, const std::vector<Genome>& seeds, const GaOptions& options);

}  // namespace mcmsim
