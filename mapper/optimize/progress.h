#pragma once
// A one-line progress display for long searches: "ga  gen 12  best 1.84e-06 J*s  3.1 s",
// redrawn in place on a terminal (stderr), silent when stderr is not a terminal (pipes, CI,
// files), so logs stay clean. Pure C++.
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

    /// Whether stderr is a terminal.
    static bool stderr_is_terminal();

private:
    void show(int step, double best, double elapsed);
    bool enabled_, shown_ = false;
    std::string label_, step_, unit_;
    double scale_;
    std::chrono::steady_clock::time_point last_{};
};

}  // namespace mcmsim
