#pragma once
// A one-line progress display for long runs: "ga  gen 12  best 1.84e-06 J*s  3.1 s", or with
// a known total "simulate  1234/3456 ops (36%)  152.3 us simulated  1.2 s, about 2.1 s left",
// redrawn in place on a terminal (stderr), silent when stderr is not a terminal (pipes, CI,
// files) or the user asked for quiet, so logs and report files stay clean. Pure C++.
#include <chrono>
#include <functional>
#include <string>

namespace mcmsim {

class ProgressLine {
public:
    /// `enabled` false: never prints. `label` names the search, `step` what it counts
    /// ("generation"), `unit` the objective's unit; `scale` converts the optimiser's value
    /// into that unit.
    ProgressLine(bool enabled, std::string label, std::string step, std::string unit, double scale);
    ~ProgressLine();  ///< clears the line

    /// The callback optimisers take: step, best value, elapsed seconds.
    std::function<void(int, double, double)> callback();
    /// With a total, callback() shows "step k/total" and the time left at the rate so far.
    void set_total(int total) { total_ = total; }
    /// The callback a simulation takes: ops done, ops in all, simulated ns.
    std::function<void(std::size_t, std::size_t, double)> ops_callback();
    /// A sweep's: points done, points, failed, best objective so far (in the optimiser's unit).
    std::function<void(std::size_t, std::size_t, std::size_t, double)> sweep_callback();
    /// Simulations done of a batch (child processes).
    std::function<void(std::size_t, std::size_t)> runs_callback();

    /// Whether stderr is a terminal.
    static bool stderr_is_terminal();
    /// Whether to show progress: stderr is a terminal and the user did not ask for quiet.
    static bool wanted(bool quiet) { return !quiet && stderr_is_terminal(); }

private:
    void show(int step, double best, double elapsed);
    /// Throttles redraws; false when this one is skipped.
    bool due();
    /// " 1.2 s, about 2.1 s left" after `done` of `total`.
    std::string timing(double done, double total) const;
    void draw(const std::string& text);
    bool enabled_, shown_ = false;
    int total_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::string label_, step_, unit_;
    double scale_;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace mcmsim
