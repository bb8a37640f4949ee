#include "sim/sweep/sweep_mpi.h"

#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <thread>

namespace mcmsim {

namespace {

enum Tag : int { kRequest = 1, kAssign = 2, kResult = 3 };

/// Waits for `req` without spinning: OpenMPI's blocking calls poll at full speed, and on a
/// machine whose cores run the children a waiting rank would take one from them.
void wait_gently(MPI_Request& req) {
    for (;;) {
        int done = 0;
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done) return;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
}

void barrier_gently() {
    MPI_Request req;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    wait_gently(req);
}

std::string encode(std::size_t id, const PointResult& r) {
    return nlohmann::json{
        {"id", id}, {"status", to_string(r.status)}, {"reason", r.reason}, {"figures", r.figures}, {"wall_s", r.wall_s}}
        .dump();
}

std::pair<std::size_t, PointResult> decode(const std::string& text) {
    const nlohmann::json j = nlohmann::json::parse(text);
    PointResult r;
    r.status = parse_choice<PointStatus>(j.at("status").get<std::string>()).value_or(PointStatus::Failed);
    r.reason = j.at("reason").get<std::string>();
    r.figures = j.at("figures");
    r.wall_s = j.at("wall_s").get<double>();
    return {j.at("id").get<std::size_t>(), r};
}

}  // namespace

void mpi_broadcast(std::vector<std::size_t>& ids) {
    unsigned long long n = ids.size();
    MPI_Request req;
    MPI_Ibcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD, &req);
    wait_gently(req);
    std::vector<unsigned long long> buf(ids.begin(), ids.end());
    buf.resize(n);
    if (n) {
        MPI_Ibcast(buf.data(), static_cast<int>(n), MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD, &req);
        wait_gently(req);
    }
    ids.assign(buf.begin(), buf.end());
}

namespace {

void worker(ChildPool& pool, const std::vector<SweepPoint>& candidates, const std::vector<std::size_t>& ids) {
    bool stopped = false;
    for (;;) {
        while (!stopped && pool.has_slot()) {
            int ask = 0;
            MPI_Send(&ask, 1, MPI_INT, 0, kRequest, MPI_COMM_WORLD);
            long long job = -1;
            MPI_Request req;
            MPI_Irecv(&job, 1, MPI_LONG_LONG, 0, kAssign, MPI_COMM_WORLD, &req);
            wait_gently(req);
            if (job < 0) stopped = true;
            else pool.start(candidates[ids[static_cast<std::size_t>(job)]], static_cast<std::size_t>(job));
        }
        if (pool.running() == 0) return;
        for (const auto& [job, r] : pool.reap(true)) {
            const std::string msg = encode(job, r);
            MPI_Send(msg.data(), static_cast<int>(msg.size()), MPI_CHAR, 0, kResult, MPI_COMM_WORLD);
        }
    }
}

void coordinator(const MpiSession& mpi, ChildPool& pool, const std::vector<SweepPoint>& candidates,
                 const std::vector<std::size_t>& ids, const std::function<void(std::size_t, const PointResult&)>& record) {
    std::size_t next = 0, remote = 0;
    int workers = mpi.size() - 1;
    for (;;) {
        bool busy = false;
        while (pool.has_slot() && next < ids.size()) {
            pool.start(candidates[ids[next]], next);
            ++next;
            busy = true;
        }
        int flag = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
        if (flag) {
            busy = true;
            if (st.MPI_TAG == kRequest) {
                int ask = 0;
                MPI_Recv(&ask, 1, MPI_INT, st.MPI_SOURCE, kRequest, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                long long job = next < ids.size() ? static_cast<long long>(next++) : -1;
                if (job >= 0) ++remote;
                else --workers;
                MPI_Send(&job, 1, MPI_LONG_LONG, st.MPI_SOURCE, kAssign, MPI_COMM_WORLD);
            } else {
                int len = 0;
                MPI_Get_count(&st, MPI_CHAR, &len);
                std::string text(static_cast<std::size_t>(len), '\0');
                MPI_Recv(text.data(), len, MPI_CHAR, st.MPI_SOURCE, kResult, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                const auto [job, r] = decode(text);
                --remote;
                record(ids[job], r);
            }
        }
        for (const auto& [job, r] : pool.reap(false)) {
            busy = true;
            record(ids[job], r);
        }
        if (next == ids.size() && pool.running() == 0 && remote == 0 && workers == 0) return;
        // Polling, not blocking: a blocking receive in OpenMPI spins and would take a core
        // from the children.
        if (!busy) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
}

}  // namespace

bool launched_by_mpi() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK"); }

MpiSession::MpiSession() {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SINGLE, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
    barrier_gently();  // rank 0 writes the outputs meanwhile; MPI_Finalize alone would spin
    MPI_Finalize();
}

int MpiSession::local_size() const {
    if (const char* s = std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE")) return std::max(1, std::atoi(s));
    return size_;
}

void mpi_run_jobs(const MpiSession& mpi, ChildPool& pool, const std::vector<SweepPoint>& candidates, std::vector<std::size_t> ids,
                  const std::function<void(std::size_t, const PointResult&)>& record) {
    mpi_broadcast(ids);
    if (mpi.rank() == 0) coordinator(mpi, pool, candidates, ids, record);
    else worker(pool, candidates, ids);
    barrier_gently();
}

}  // namespace mcmsim
