#include "mapper/optimize/progress.h"

#include <unistd.h>
#include <cstdio>

namespace mcmsim {

ProgressLine::ProgressLine(bool enabled, std::string label, std::string step, std::string unit, double scale)
    : enabled_(enabled), label_(std::move(label)), step_(std::move(step)), unit_(std::move(unit)), scale_(scale) {}

ProgressLine::~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
}

bool ProgressLine::stderr_is_terminal() { return isatty(fileno(stderr)) != 0; }

std::function<void(int, double, double)> ProgressLine::callback() {
    return [this](int step, double best, double elapsed) { show(step, best, elapsed); };
}

void ProgressLine::show(int step, double best, double elapsed) {
    if (!enabled_) return;
    auto now = std::chrono::steady_clock::now();
    // At most ten redraws a second: a fast search must not spend its time printing.
    if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
    last_ = now;
    shown_ = true;
    std::fprintf(stderr, "\r\033[K%s  %s %d  best %.4g %s  %.1f s", label_.c_str(), step_.c_str(), step, best * scale_,
                 unit_.c_str(), elapsed);
    std::fflush(stderr);
}

}  // namespace mcmsim
