#pragma once
// A sweep spread over MPI ranks (`mpirun -np R mcmsim sweep ...`) with dynamic hand-out: every
// rank expands the same points from the same file; rank 0 holds the list of jobs, hands one to
// a rank whenever it has a free child slot, runs children itself too, and alone records the
// results. Ranks never share files (only messages), so they need no common filesystem. The
// results are the children's, so the table is the same for any number of ranks. Built on
// Debian's OpenMPI.
#include "sim/sweep/child_pool.h"

#include <functional>
#include <vector>

namespace mcmsim {

/// Whether this process was started by mpirun (it sets the rank variables).
bool launched_by_mpi();

/// MPI_Init and MPI_Finalize around a scope.
class MpiSession {
public:
    MpiSession();
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }
    /// Ranks on this node (for the default number of child slots).
    int local_size() const;

private:
    int rank_ = 0, size_ = 1;
};

/// Rank 0's `ids` on every rank.
void mpi_broadcast(std::vector<std::size_t>& ids);

/// Runs the jobs named by `ids` (indices into `candidates`; read on rank 0, broadcast to the
/// others) over all ranks, each with `pool`'s slots. `record` (rank 0) gets every result.
/// Every rank must call it, the same number of times.
void mpi_run_jobs(const MpiSession& mpi, ChildPool& pool, const std::vector<SweepPoint>& candidates, std::vector<std::size_t> ids,
                  const std::function<void(std::size_t, const PointResult&)>& record);

}  // namespace mcmsim
