#include "sim/sweep/sweep_store.h"

#include "hw/common/input_error.h"

#include <sqlite3.h>

#include <stdexcept>

namespace mcmsim {

const std::vector<std::string>& sweep_figure_names() {
    static const std::vector<std::string> names = {"latency_ns",    "energy_pj",       "energy_compute_pj", "energy_sram_pj",
                                                   "energy_noc_pj", "energy_d2d_pj",   "energy_dram_pj",    "energy_leakage_pj",
                                                   "edp_j_s",       "mac_utilization", "busiest_link",      "busiest_link_bytes",
                                                   "dram_bytes"};
    return names;
}

namespace {

/// A prepared statement, finalised on every path out.
class Statement {
public:
    Statement(sqlite3* db, const std::string& sql) : db_(db) {
        if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s_, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(s_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    sqlite3_stmt* get() { return s_; }
    void text(int i, const std::string& v) { sqlite3_bind_text(s_, i, v.c_str(), -1, SQLITE_TRANSIENT); }
    void real(int i, double v) { sqlite3_bind_double(s_, i, v); }
    void integer(int i, std::int64_t v) { sqlite3_bind_int64(s_, i, v); }
    void null(int i) { sqlite3_bind_null(s_, i); }
    bool step() {
        const int rc = sqlite3_step(s_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        throw std::runtime_error(std::string("sqlite: ") + sqlite3_errmsg(db_));
    }
    std::string column_text(int i) {
        const unsigned char* t = sqlite3_column_text(s_, i);
        return t ? reinterpret_cast<const char*>(t) : "";
    }

private:
    sqlite3* db_;
    sqlite3_stmt* s_ = nullptr;
};

std::string figure_columns() {
    std::string s;
    // No declared type: SQLite keeps each figure as given (numbers as reals, a link name as text).
    for (const std::string& n : sweep_figure_names()) s += ", " + n;
    return s;
}

}  // namespace

SweepStore::SweepStore(const std::string& path) : path_(path) {
    if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(path, "", "an SQLite database that can be opened or created", why);
    }
    sqlite3_busy_timeout(db_, 10000);
    try {
        exec(
            "CREATE TABLE IF NOT EXISTS points (hash TEXT PRIMARY KEY, idx INTEGER, axes TEXT, workload TEXT, "
            "evaluator TEXT, status TEXT, reason TEXT" +
            figure_columns() + ", wall_s REAL)");
        exec("CREATE TABLE IF NOT EXISTS runs (hash TEXT)");
    } catch (const std::exception& e) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError(path, "", "an mcmsim sweep database", e.what());
    }
}

SweepStore::~SweepStore() { sqlite3_close(db_); }

void SweepStore::exec(const std::string& sql) const {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        const std::string why = err ? err : "unknown";
        sqlite3_free(err);
        throw std::runtime_error("sqlite: " + why);
    }
}

std::set<std::string> SweepStore::recorded() const {
    Statement s(db_, "SELECT hash FROM points");
    std::set<std::string> out;
    while (s.step()) out.insert(s.column_text(0));
    return out;
}

std::optional<PointResult> SweepStore::find(const std::string& hash) const {
    std::string cols = "status, reason";
    for (const std::string& n : sweep_figure_names()) cols += ", " + n;
    Statement s(db_, "SELECT " + cols + ", wall_s FROM points WHERE hash = ?");
    s.text(1, hash);
    if (!s.step()) return std::nullopt;
    PointResult r;
    r.status = parse_choice<PointStatus>(s.column_text(0)).value_or(PointStatus::Failed);
    r.reason = s.column_text(1);
    r.figures = nlohmann::json::object();
    const auto& names = sweep_figure_names();
    for (std::size_t i = 0; i < names.size(); ++i) {
        const int col = static_cast<int>(i) + 2;
        const int type = sqlite3_column_type(s.get(), col);
        if (type == SQLITE_NULL) continue;
        if (type == SQLITE_TEXT) r.figures[names[i]] = s.column_text(col);
        else r.figures[names[i]] = sqlite3_column_double(s.get(), col);
    }
    r.wall_s = sqlite3_column_double(s.get(), static_cast<int>(names.size()) + 2);
    return r;
}

void SweepStore::record(const SweepPoint& p, const std::string& workload, const PointResult& r) {
    std::string cols = "hash, idx, axes, workload, evaluator, status, reason", marks = "?, ?, ?, ?, ?, ?, ?";
    for (const std::string& n : sweep_figure_names()) cols += ", " + n, marks += ", ?";
    exec("BEGIN IMMEDIATE");
    try {
        Statement s(db_, "INSERT OR IGNORE INTO points (" + cols + ", wall_s) VALUES (" + marks + ", ?)");
        s.text(1, p.hash);
        s.integer(2, static_cast<std::int64_t>(p.index));
        s.text(3, p.axes.dump());
        s.text(4, workload);
        s.text(5, to_string(p.evaluator));
        s.text(6, to_string(r.status));
        s.text(7, r.reason);
        const auto& names = sweep_figure_names();
        for (std::size_t i = 0; i < names.size(); ++i) {
            const int at = static_cast<int>(i) + 8;
            const auto f = r.figures.find(names[i]);
            if (f == r.figures.end() || f->is_null()) s.null(at);
            else if (f->is_string()) s.text(at, f->get<std::string>());
            else s.real(at, f->get<double>());
        }
        s.real(static_cast<int>(names.size()) + 8, r.wall_s);
        s.step();
        if (sqlite3_changes(db_) > 0) {
            Statement log(db_, "INSERT INTO runs (hash) VALUES (?)");
            log.text(1, p.hash);
            log.step();
        }
        exec("COMMIT");
    } catch (...) {
        exec("ROLLBACK");
        throw;
    }
}

std::int64_t SweepStore::runs() const {
    Statement s(db_, "SELECT COUNT(*) FROM runs");
    s.step();
    return sqlite3_column_int64(s.get(), 0);
}

}  // namespace mcmsim
