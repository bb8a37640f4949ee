#pragma once
// A sweep's results: an SQLite database (DIR/sweep.sqlite), one row per point keyed by the
// point's content hash, so that a sweep started again runs only the points it has no row for.
// Each result is committed on its own (SQLite's atomic commit), so a sweep killed at any
// moment loses at most the points in flight and never records one twice. Columns: the point's
// index, axis values (JSON text), workload, evaluator, status (ok, failed, invalid), the reason
// of a failure, the figures, and the wall time; a `runs` table logs every recorded evaluation
// (what a test counts). Pure C++ over Debian's libsqlite3.
#include "sim/sweep/sweep_points.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <set>
#include <string>

struct sqlite3;

namespace mcmsim {

/// The figures every point reports, in the table's column order.
const std::vector<std::string>& sweep_figure_names();

/// What became of a point: evaluated, its child failed, its arch refused by the reader, or
/// not recorded yet.
enum class PointStatus { Ok, Failed, Invalid, Missing };
template <>
struct ChoiceNames<PointStatus> {
    static constexpr std::pair<PointStatus, const char*> all[] = {{PointStatus::Ok, "ok"},
                                                                  {PointStatus::Failed, "failed"},
                                                                  {PointStatus::Invalid, "invalid"},
                                                                  {PointStatus::Missing, "missing"}};
};

struct PointResult {
    PointStatus status = PointStatus::Missing;
    std::string reason;      ///< failed, invalid: the one-line error
    nlohmann::json figures;  ///< name -> value (sweep_figure_names)
    double wall_s = 0;
};

class SweepStore {
public:
    /// Opens or creates the database; throws InputError naming `path` when it cannot.
    explicit SweepStore(const std::string& path);
    ~SweepStore();
    SweepStore(const SweepStore&) = delete;
    SweepStore& operator=(const SweepStore&) = delete;

    /// Hashes with a row.
    std::set<std::string> recorded() const;
    std::optional<PointResult> find(const std::string& hash) const;
    /// Commits the point's row and one `runs` entry. A point already recorded is left alone.
    void record(const SweepPoint& p, const std::string& workload, const PointResult& r);
    /// Evaluations recorded since the database was created.
    std::int64_t runs() const;

private:
    void exec(const std::string& sql) const;
    std::string path_;
    sqlite3* db_ = nullptr;
};

}  // namespace mcmsim
