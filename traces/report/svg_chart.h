#pragma once
// The charts of the HTML reports, written as inline SVG: stacked bars, lines, a scatter with
// a highlighted front, a histogram, and the canvas they draw on. Hand-written rather than a
// JavaScript charting library so that a report is static markup: it opens offline in any
// browser, is byte-identical for identical inputs (fixed number formatting, no layout engine
// at view time) and its figures are the report's own. Every mark carries a <title> with its
// value, shown as a tooltip. Pure C++.
#include <string>
#include <utility>
#include <vector>

namespace mcmsim {

/// A number as the SVG and the tooltips print it: fixed precision, no locale, "-0" as "0".
std::string svg_num(double v, int decimals = 2);
/// `s` with &, <, >, " escaped for text and attribute values.
std::string xml_escape(const std::string& s);
/// A colour of the fixed palette (cycled), and a white-to-red scale for 0 <= t <= 1.
std::string palette(std::size_t i);
std::string heat_colour(double t);

/// An SVG element tree written in order; attributes are passed as ready text.
class SvgCanvas {
public:
    SvgCanvas(double width, double height, const std::string& label);
    void rect(double x, double y, double w, double h, const std::string& fill, const std::string& title = "",
              const std::string& extra = "");
    void line(double x1, double y1, double x2, double y2, const std::string& stroke, double width, const std::string& title = "",
              const std::string& extra = "");
    void polyline(const std::vector<std::pair<double, double>>& points, const std::string& stroke, double width,
                  const std::string& title = "");
    void circle(double x, double y, double r, const std::string& fill, const std::string& title = "",
                const std::string& extra = "");
    /// `anchor`: start, middle or end.
    void text(double x, double y, const std::string& s, const std::string& anchor = "start", double size = 11,
              const std::string& extra = "");
    void raw(const std::string& markup) { body_ += markup; }
    std::string str() const;

private:
    static std::string titled(const std::string& open, const std::string& title);
    double width_, height_;
    std::string label_, body_;
};

/// A linear axis over [lo, hi] with "nice" ticks (1, 2, 5 times a power of ten).
struct Axis {
    double lo = 0, hi = 1;
    std::vector<double> ticks;
    /// `min_step`: no finer step than this (1 for counts).
    static Axis nice(double lo, double hi, int max_ticks = 6, double min_step = 0);
};

struct Series {
    std::string name;
    std::vector<double> values;
};

struct ChartText {
    std::string title, x_label, y_label;
    double y_scale = 1;      ///< values are divided by this for the axis (e.g. 1e3: ns shown as µs)
    bool integer_x = false;  ///< x counts things (layers): ticks at whole numbers only
};

/// One bar per label, the series stacked in order; a legend names them.
std::string stacked_bar_chart(const std::vector<std::string>& labels, const std::vector<Series>& stacks, const ChartText& text);
/// Lines over shared x values, one per series, with a legend.
std::string line_chart(const std::vector<double>& x, const std::vector<Series>& lines, const ChartText& text, double x_scale = 1);
/// Lines as line_chart draws them, plus a shaded band between `lo` and `hi` (same x).
std::string band_chart(const std::vector<double>& x, const std::vector<Series>& lines, const std::vector<double>& lo,
                       const std::vector<double>& hi, const ChartText& text);

struct ScatterPoint {
    double x = 0, y = 0;
    std::string label;
    bool highlighted = false;  ///< drawn larger and joined by a line (e.g. a Pareto front)
    bool marked = false;       ///< ringed and named (e.g. the best point)
};
std::string scatter_chart(const std::vector<ScatterPoint>& points, const ChartText& text, double x_scale = 1);
/// Counts of `values` in `bins` equal bins over their range (`text.y_scale` divides the values,
/// which lie along x).
std::string histogram_chart(const std::vector<double>& values, int bins, const ChartText& text);

}  // namespace mcmsim
