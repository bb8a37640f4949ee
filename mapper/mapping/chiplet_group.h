#pragma once
// A rectangle of the package's chiplet grid: the chiplets a layer runs on. Layer-sequential
// placement gives every layer the whole package; layer-pipelined placement gives each segment
// of consecutive layers its own band of the grid. Chiplet ids are the package's row-major ids;
// a group numbers its own chiplets row-major too (box i of a partition over the group's
// rows x cols runs on chiplet(i)). Pure C++.
namespace mcmsim {

struct ChipletGroup {
    int row0 = 0, col0 = 0;
    int rows = 0, cols = 0;  ///< 0 x 0: the whole package, whatever its size

    bool whole() const { return rows <= 0 || cols <= 0; }
    int size() const { return rows * cols; }
    /// The rectangle on a pkg_rows x pkg_cols package (the whole package when whole()).
    ChipletGroup on(int pkg_rows, int pkg_cols) const { return whole() ? ChipletGroup{0, 0, pkg_rows, pkg_cols} : *this; }
    /// Whether the rectangle lies inside a pkg_rows x pkg_cols package.
    bool fits(int pkg_rows, int pkg_cols) const {
        return whole() || (row0 >= 0 && col0 >= 0 && row0 + rows <= pkg_rows && col0 + cols <= pkg_cols);
    }
    /// Package id of the group's i-th chiplet (row-major inside the group); not whole().
    int chiplet(int i, int pkg_cols) const { return (row0 + i / cols) * pkg_cols + col0 + i % cols; }
    /// Index inside the group of package chiplet `id`, or -1 when it lies outside; not whole().
    int local(int id, int pkg_cols) const {
        const int r = id / pkg_cols - row0, c = id % pkg_cols - col0;
        return r >= 0 && r < rows && c >= 0 && c < cols ? r * cols + c : -1;
    }
    bool operator==(const ChipletGroup& o) const { return row0 == o.row0 && col0 == o.col0 && rows == o.rows && cols == o.cols; }
    bool operator!=(const ChipletGroup& o) const { return !(*this == o); }
};

}  // namespace mcmsim
