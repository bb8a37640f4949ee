#include "traces/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace mcmsim {

std::string svg_num(double v, int decimals) {
    if (!std::isfinite(v)) return "0";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    if (s.size() == 2 && s[0] == '-' && s[1] == '0') s.erase(0, 1);  // a negative value that rounds to zero
    return s;
}

std::string xml_escape(const std::string& s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string palette(std::size_t i) {
    // Colour-blind-safe qualitative palette (Okabe and Ito).
    static const char* colours[] = {"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"};
    return colours[i % (sizeof colours / sizeof colours[0])];
}

std::string heat_colour(double t) {
    t = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0);
    // Light grey (unused) through orange to dark red (busiest).
    const double r = 230 + t * (180 - 230) + (t < 0.5 ? t * 2 * 25 : (1 - t) * 2 * 25);
    const double g = 230 - t * 210;
    const double b = 230 - t * 200;
    char buf[16];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", static_cast<int>(std::lround(r)), static_cast<int>(std::lround(g)),
                  static_cast<int>(std::lround(b)));
    return buf;
}

SvgCanvas::SvgCanvas(double width, double height, const std::string& label) : width_(width), height_(height), label_(label) {}

std::string SvgCanvas::titled(const std::string& open, const std::string& title) {
    if (title.empty()) return open + "/>";
    return open + "><title>" + xml_escape(title) + "</title></" + open.substr(1, open.find(' ') - 1) + ">";
}

void SvgCanvas::rect(double x, double y, double w, double h, const std::string& fill, const std::string& title,
                     const std::string& extra) {
    body_ += titled("<rect x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" width=\"" + svg_num(std::max(0.0, w)) +
                        "\" height=\"" + svg_num(std::max(0.0, h)) + "\" fill=\"" + fill + "\"" + extra,
                    title);
}

void SvgCanvas::line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
                     const std::string& title, const std::string& extra) {
    body_ += titled("<line x1=\"" + svg_num(x1) + "\" y1=\"" + svg_num(y1) + "\" x2=\"" + svg_num(x2) + "\" y2=\"" + svg_num(y2) +
                        "\" stroke=\"" + stroke + "\" stroke-width=\"" + svg_num(width) + "\"" + extra,
                    title);
}

void SvgCanvas::polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke, double width,
                         const std::string& title) {
    std::string pts;
    for (const auto& [x, y] : points) pts += (pts.empty() ? "" : " ") + svg_num(x) + "," + svg_num(y);
    body_ +=
        titled("<polyline points=\"" + pts + "\" fill=\"none\" stroke=\"" + stroke + "\" stroke-width=\"" + svg_num(width) + "\"",
               title);
}

void SvgCanvas::circle(double x, double y, double r, const std::string& fill, const std::string& title,
                       const std::string& extra) {
    body_ += titled(
        "<circle cx=\"" + svg_num(x) + "\" cy=\"" + svg_num(y) + "\" r=\"" + svg_num(r) + "\" fill=\"" + fill + "\"" + extra,
        title);
}

void SvgCanvas::text(double x, double y, const std::string& s, const std::string& anchor, double size, const std::string& extra) {
    body_ += "<text x=\"" + svg_num(x) + "\" y=\"" + svg_num(y) + "\" font-size=\"" + svg_num(size) + "\" text-anchor=\"" +
             anchor + "\"" + extra + ">" + xml_escape(s) + "</text>";
}

std::string SvgCanvas::str() const {
    return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + svg_num(width_) + "\" height=\"" + svg_num(height_) +
           "\" viewBox=\"0 0 " + svg_num(width_) + " " + svg_num(height_) + "\" role=\"img\" aria-label=\"" + xml_escape(label_) +
           "\" font-family=\"sans-serif\">" + body_ + "</svg>";
}

Axis Axis::nice(double lo, double hi, int max_ticks, double min_step) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
    if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
    const double raw = (hi - lo) / std::max(1, max_ticks - 1);
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    step = std::max(step, min_step);
    Axis a;
    a.lo = std::floor(lo / step) * step;
    a.hi = std::ceil(hi / step - 1e-9) * step;
    for (double t = a.lo; t <= a.hi + step * 1e-6; t += step) a.ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return a;
}

namespace {

// Plot area of every chart.
constexpr double kWidth = 900, kHeight = 320, kLeft = 72, kRight = 16, kTop = 44, kBottom = 74;

struct Frame {
    Axis x, y;
    double px(double v) const { return kLeft + (v - x.lo) / (x.hi - x.lo) * (kWidth - kLeft - kRight); }
    double py(double v) const { return kHeight - kBottom - (v - y.lo) / (y.hi - y.lo) * (kHeight - kTop - kBottom); }
};

std::string tick_text(double v) {
    const double a = std::fabs(v);
    if (a == 0) return "0";
    if (a >= 1e6 || a < 1e-3) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.3g", v);
        return buf;
    }
    return svg_num(v, a < 1 ? 3 : (a < 100 ? 2 : 0));
}

void draw_frame(SvgCanvas& c, const Frame& f, const ChartText& t, bool x_ticks) {
    c.text(kLeft, 16, t.title, "start", 13, " font-weight=\"bold\"");
    for (double v : f.y.ticks) {
        c.line(kLeft, f.py(v), kWidth - kRight, f.py(v), "#e4e4e4", 1);
        c.text(kLeft - 6, f.py(v) + 4, tick_text(v), "end", 10);
    }
    if (x_ticks)
        for (double v : f.x.ticks) c.text(f.px(v), kHeight - kBottom + 14, tick_text(v), "middle", 10);
    c.line(kLeft, kHeight - kBottom, kWidth - kRight, kHeight - kBottom, "#444", 1);
    c.line(kLeft, kTop, kLeft, kHeight - kBottom, "#444", 1);
    c.text(14, (kTop + kHeight - kBottom) / 2, t.y_label, "middle", 11,
           " transform=\"rotate(-90 14 " + svg_num((kTop + kHeight - kBottom) / 2) + ")\"");
    c.text((kLeft + kWidth - kRight) / 2, kHeight - 8, t.x_label, "middle", 11);
}

void draw_legend(SvgCanvas& c, const std::vector<std::string>& names) {
    double x = kWidth - kRight;
    for (std::size_t i = names.size(); i-- > 0;) {
        x -= 14 + 6.5 * static_cast<double>(names[i].size());
        c.rect(x, 23, 10, 10, palette(i));
        c.text(x + 13, 32, names[i], "start", 10);
        x -= 8;
    }
}

double max_of(const std::vector<double>& v, double floor) {
    double m = floor;
    for (double x : v)
        if (std::isfinite(x)) m = std::max(m, x);
    return m;
}

}  // namespace

std::string stacked_bar_chart(const std::vector<std::string>& labels, const std::vector<Series>& stacks, const ChartText& text) {
    std::vector<double> totals(labels.size(), 0.0);
    for (const Series& s : stacks)
        for (std::size_t i = 0; i < labels.size() && i < s.values.size(); ++i) totals[i] += std::max(0.0, s.values[i]);
    Frame f;
    f.x = Axis{0, static_cast<double>(std::max<std::size_t>(1, labels.size())), {}};
    f.y = Axis::nice(0, max_of(totals, 0) / text.y_scale);
    SvgCanvas c(kWidth, kHeight, text.title);
    draw_frame(c, f, text, false);
    const double slot = f.px(1) - f.px(0), bar = std::max(1.0, slot * 0.8);
    for (std::size_t i = 0; i < labels.size(); ++i) {
        double base = 0;
        for (std::size_t s = 0; s < stacks.size(); ++s) {
            const double v = i < stacks[s].values.size() ? std::max(0.0, stacks[s].values[i]) / text.y_scale : 0.0;
            if (v > 0)
                c.rect(f.px(static_cast<double>(i)) + (slot - bar) / 2, f.py(base + v), bar, f.py(base) - f.py(base + v),
                       palette(s), labels[i] + " " + stacks[s].name + ": " + svg_num(v, 3), " class=\"bar\"");
            base += v;
        }
        // Label at most ~60 bars so that the names stay legible.
        const std::size_t every = (labels.size() + 59) / 60;
        if (i % every == 0) {
            const double x = f.px(static_cast<double>(i) + 0.5), y = kHeight - kBottom + 6;
            std::string name = labels[i].size() > 14 ? labels[i].substr(0, 13) + "…" : labels[i];
            c.text(x, y, name, "end", 8, " transform=\"rotate(-60 " + svg_num(x) + " " + svg_num(y) + ")\"");
        }
    }
    std::vector<std::string> names;
    for (const Series& s : stacks) names.push_back(s.name);
    if (names.size() > 1) draw_legend(c, names);
    return c.str();
}

namespace {

std::string draw_lines(const std::vector<double>& x, const std::vector<Series>& lines, const ChartText& text, double x_scale,
                       const std::vector<double>* lo, const std::vector<double>* hi) {
    double ymax = 0;
    for (const Series& s : lines) ymax = max_of(s.values, ymax);
    if (hi) ymax = max_of(*hi, ymax);
    Frame f;
    f.x = Axis::nice(x.empty() ? 0 : x.front() / x_scale, x.empty() ? 1 : x.back() / x_scale, 6, text.integer_x ? 1 : 0);
    f.y = Axis::nice(0, ymax / text.y_scale);
    SvgCanvas c(kWidth, kHeight, text.title);
    draw_frame(c, f, text, true);
    if (lo && hi && !x.empty()) {
        std::string pts;
        for (std::size_t i = 0; i < x.size(); ++i)
            pts += svg_num(f.px(x[i] / x_scale)) + "," + svg_num(f.py((*hi)[i] / text.y_scale)) + " ";
        for (std::size_t i = x.size(); i-- > 0;)
            pts += svg_num(f.px(x[i] / x_scale)) + "," + svg_num(f.py((*lo)[i] / text.y_scale)) + " ";
        pts.pop_back();
        c.raw("<polygon class=\"band\" points=\"" + pts + "\" fill=\"#0072B2\" fill-opacity=\"0.18\" stroke=\"none\"/>");
    }
    for (std::size_t s = 0; s < lines.size(); ++s) {
        std::vector<std::pair<double, double>> pts;
        for (std::size_t i = 0; i < x.size() && i < lines[s].values.size(); ++i)
            pts.emplace_back(f.px(x[i] / x_scale), f.py(lines[s].values[i] / text.y_scale));
        c.polyline(pts, palette(s), 1.6, lines[s].name);
    }
    std::vector<std::string> names;
    for (const Series& s : lines) names.push_back(s.name);
    draw_legend(c, names);
    return c.str();
}

}  // namespace

std::string line_chart(const std::vector<double>& x, const std::vector<Series>& lines, const ChartText& text, double x_scale) {
    return draw_lines(x, lines, text, x_scale, nullptr, nullptr);
}

std::string band_chart(const std::vector<double>& x, const std::vector<Series>& lines, const std::vector<double>& lo,
                       const std::vector<double>& hi, const ChartText& text) {
    return draw_lines(x, lines, text, 1, &lo, &hi);
}

std::string scatter_chart(const std::vector<ScatterPoint>& points, const ChartText& text, double x_scale) {
    double xmin = std::numeric_limits<double>::max(), xmax = 0, ymin = std::numeric_limits<double>::max(), ymax = 0;
    for (const ScatterPoint& p : points) {
        xmin = std::min(xmin, p.x / x_scale), xmax = std::max(xmax, p.x / x_scale);
        ymin = std::min(ymin, p.y / text.y_scale), ymax = std::max(ymax, p.y / text.y_scale);
    }
    if (points.empty()) xmin = ymin = 0;
    Frame f;
    const double xpad = (xmax - xmin) * 0.05, ypad = (ymax - ymin) * 0.05;
    f.x = Axis::nice(std::max(0.0, xmin - xpad), xmax + xpad);
    f.y = Axis::nice(std::max(0.0, ymin - ypad), ymax + ypad);
    SvgCanvas c(kWidth, kHeight, text.title);
    draw_frame(c, f, text, true);
    std::vector<std::pair<double, double>> front;
    for (const ScatterPoint& p : points)
        if (p.highlighted) front.emplace_back(f.px(p.x / x_scale), f.py(p.y / text.y_scale));
    std::sort(front.begin(), front.end());
    if (front.size() > 1) c.polyline(front, palette(3), 1.2, "Pareto front");
    for (const ScatterPoint& p : points)
        c.circle(f.px(p.x / x_scale), f.py(p.y / text.y_scale), p.highlighted ? 5 : 3.5, p.highlighted ? palette(3) : palette(0),
                 p.label + ": " + svg_num(p.x / x_scale, 3) + ", " + svg_num(p.y / text.y_scale, 3),
                 p.highlighted ? " class=\"point front\"" : " class=\"point\"");
    for (const ScatterPoint& p : points)
        if (p.marked) {
            c.circle(f.px(p.x / x_scale), f.py(p.y / text.y_scale), 9, "none", p.label,
                     " class=\"best\" stroke=\"#000\" stroke-width=\"1.5\"");
            c.text(f.px(p.x / x_scale) + 12, f.py(p.y / text.y_scale) - 8, "best: " + p.label, "start", 10);
        }
    return c.str();
}

std::string histogram_chart(const std::vector<double>& values, int bins, const ChartText& text) {
    bins = std::max(1, bins);
    double lo = values.empty() ? 0 : *std::min_element(values.begin(), values.end());
    double hi = values.empty() ? 1 : *std::max_element(values.begin(), values.end());
    if (hi <= lo) hi = lo + 1e-9 + std::fabs(lo) * 1e-3;
    std::vector<double> counts(static_cast<std::size_t>(bins), 0.0);
    for (double v : values) {
        auto b = static_cast<std::size_t>((v - lo) / (hi - lo) * bins);
        counts[std::min(b, counts.size() - 1)] += 1;
    }
    Frame f;
    f.x = Axis::nice(lo / text.y_scale, hi / text.y_scale);
    f.y = Axis::nice(0, max_of(counts, 1));
    SvgCanvas c(kWidth, kHeight, text.title);
    draw_frame(c, f, text, true);
    const double w = (hi - lo) / bins / text.y_scale;
    for (std::size_t b = 0; b < counts.size(); ++b) {
        const double x0 = lo / text.y_scale + static_cast<double>(b) * w;
        c.rect(f.px(x0), f.py(counts[b]), f.px(x0 + w) - f.px(x0) - 1, f.py(0) - f.py(counts[b]), palette(0),
               svg_num(x0, 3) + " to " + svg_num(x0 + w, 3) + ": " + svg_num(counts[b], 0), " class=\"bar\"");
    }
    return c.str();
}

}  // namespace mcmsim
