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

bool ProgressLine::due() {
    if (!enabled_) return false;
    auto now = std::chrono::steady_clock::now();
    // At most ten redraws a second: a fast run must not spend its time printing.
    if (shown_ && now - last_ < std::chrono::milliseconds(100)) return false;
    last_ = now;
    return true;
}

std::string ProgressLine::timing(double done, double total) const {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    char buf[96];
    if (done > 0 && total > done) {
        const double left = elapsed * (total - done) / done;
        std::snprintf(buf, sizeof buf, "  %.1f s, about %.*f s left", elapsed, left < 10 ? 1 : 0, left);
    } else std::snprintf(buf, sizeof buf, "  %.1f s", elapsed);
    return buf;
}

void ProgressLine::draw(const std::string& text) {
    shown_ = true;
    std::fprintf(stderr, "\r\033[K%s", text.c_str());
    std::fflush(stderr);
}

void ProgressLine::show(int step, double best, double elapsed) {
    if (!due()) return;
    char buf[160];
    if (total_ > 0) {
        std::snprintf(buf, sizeof buf, "%s  %s %d/%d  best %.4g %s", label_.c_str(), step_.c_str(), step, total_, best * scale_,
                      unit_.c_str());
        draw(buf + timing(step, total_));
        return;
    }
    std::snprintf(buf, sizeof buf, "%s  %s %d  best %.4g %s  %.1f s", label_.c_str(), step_.c_str(), step, best * scale_,
                  unit_.c_str(), elapsed);
    draw(buf);
}

std::function<void(std::size_t, std::size_t, double)> ProgressLine::ops_callback() {
    return [this](std::size_t done, std::size_t total, double simulated_ns) {
        if (!due()) return;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s  %zu/%zu ops (%.0f%%)  %.1f us simulated", label_.c_str(), done, total,
                      total ? 100.0 * static_cast<double>(done) / static_cast<double>(total) : 100.0, simulated_ns / 1e3);
        draw(buf + timing(static_cast<double>(done), static_cast<double>(total)));
    };
}

std::function<void(std::size_t, std::size_t, std::size_t, double)> ProgressLine::sweep_callback() {
    return [this](std::size_t done, std::size_t total, std::size_t failed, double best) {
        if (!due()) return;
        char buf[200];
        std::snprintf(buf, sizeof buf, "%s  %zu/%zu %s  %zu failed  best %.4g %s", label_.c_str(), done, total, step_.c_str(),
                      failed, best * scale_, unit_.c_str());
        draw(buf + timing(static_cast<double>(done), static_cast<double>(total)));
    };
}

std::function<void(std::size_t, std::size_t)> ProgressLine::runs_callback() {
    return [this](std::size_t done, std::size_t total) {
        if (!due()) return;
        char buf[160];
        std::snprintf(buf, sizeof buf, "%s  simulations %zu/%zu done", label_.c_str(), done, total);
        draw(buf + timing(static_cast<double>(done), static_cast<double>(total)));
    };
}

}  // namespace mcmsim
