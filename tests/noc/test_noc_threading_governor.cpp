// The VC network's choice between stepping every lane on one thread and handing lanes to
// worker threads (noc/vc/threading_governor.h), fed with made-up timings: the policy is probe
// the workers for 160 cycles, probe one thread for 160, keep the workers for 4096 cycles
// unless one thread was 15 % faster (then one thread for 1024, doubling with each such probe
// in a row up to 16384), and, while the workers keep
// the work, probe one thread early when a 64-cycle window is 1.5x slower than their probe.
// A probe's or a window's figure is its total time over its total router steps.
#include "noc/vc/threading_governor.h"

#include <gtest/gtest.h>

using namespace mcmsim;

namespace test_noc_threading_governor {

constexpr int kProbe = 160, kKeepWorkers = 4096, kKeepAlone = 1024, kWindow = 64;
constexpr std::size_t kSteps = 64;  // router steps per cycle (an 8x8 mesh under load)

/// Feeds `cycles` cycles of `ns_per_step` each, checking that the governor asks for the
/// same way (`workers`) throughout.
void feed(ThreadingGovernor& g, int cycles, double ns_per_step, bool workers) {
    for (int c = 0; c < cycles; ++c) {
        ASSERT_EQ(g.use_workers(), workers) << "cycle " << c << " of " << cycles;
        g.record(ns_per_step * 1e-9 * static_cast<double>(kSteps), kSteps);
    }
}

/// Both probes, with the workers at `workers_ns` and one thread at `alone_ns` per step.
void probe(ThreadingGovernor& g, double workers_ns, double alone_ns) {
    feed(g, kProbe, workers_ns, true);
    feed(g, kProbe, alone_ns, false);
}

TEST(NocThreadingGovernor, KeepsTheWorkersUnlessOneThreadIsClearlyFaster) {
    ThreadingGovernor g;
    probe(g, 230, 250);  // one thread 8 % slower: the workers keep the work
    feed(g, kKeepWorkers, 230, true);
    probe(g, 230, 190);  // one thread 17 % faster (230 / 190 = 1.21 > 1.15): it takes over
    feed(g, kKeepAlone, 190, false);
    EXPECT_TRUE(g.use_workers());  // and the probes start again
}

TEST(NocThreadingGovernor, OneThreadOnlyTenPercentFasterDoesNotTakeOver) {
    ThreadingGovernor g;
    probe(g, 230, 210);  // 230 / 210 = 1.095 < 1.15
    feed(g, kKeepWorkers, 230, true);
}

TEST(NocThreadingGovernor, WorkersGrownSlowAreCheckedAgainstOneThreadAtOnce) {
    ThreadingGovernor g;
    probe(g, 230, 440);
    feed(g, 100, 230, true);
    // The second core is taken away: 2x the probe's time per step. The window of cycles
    // 64-127 of the stretch holds 36 fast cycles and 28 slow ones: (36 x 230 + 28 x 460) / 64
    // = 331 ns per step, below 1.5 x 230 = 345; the next one, cycles 128-191, is all slow
    // and ends the stretch.
    feed(g, 2 * kWindow - 100 + kWindow, 460, true);
    feed(g, kProbe, 300, false);  // then one thread is probed
    // 460 / 300 = 1.53 > 1.15: one thread keeps the work.
    feed(g, kKeepAlone, 300, false);
    EXPECT_TRUE(g.use_workers());
}

TEST(NocThreadingGovernor, WorkersSomewhatSlowerKeepTheWork) {
    ThreadingGovernor g;
    probe(g, 230, 440);
    feed(g, kKeepWorkers, 1.4 * 230, true);  // below the 1.5x that calls for a probe
    EXPECT_TRUE(g.use_workers());            // the next probe, with the workers
}

TEST(NocThreadingGovernor, AStalledCycleCountsForTheTimeItTook) {
    // A worker descheduled for one cycle makes that cycle 100x slower: the window's time per
    // step is (100 x 230 + 63 x 230) / 64 = 586 ns, above 345, and one thread is probed. (A
    // typical cycle of the window is as fast as the probe's, but the run pays for the stall.)
    ThreadingGovernor g;
    probe(g, 230, 440);
    feed(g, 1, 100 * 230, true);
    feed(g, kWindow - 1, 230, true);
    EXPECT_FALSE(g.use_workers());
    // And in a probe: one stalled cycle among the 128 that count adds 99 x 230 / 128 = 178 ns
    // to the workers' 230, and 408 > 1.15 x 300, so one thread takes over.
    ThreadingGovernor h;
    feed(h, kProbe - 1, 230, true);
    feed(h, 1, 100 * 230, true);
    feed(h, kProbe, 300, false);
    feed(h, kKeepAlone, 300, false);
    EXPECT_TRUE(h.use_workers());
}

TEST(NocThreadingGovernor, WorkersThatKeepLosingAreProbedLessOften) {
    // Every probe: workers 3x one thread (a busy host). One thread keeps the work for 1024,
    // 2048, 4096, 8192, then 16384 cycles at most; a probe the workers win resets that.
    ThreadingGovernor g;
    for (int stretch : {1024, 2048, 4096, 8192, 16384, 16384}) {
        probe(g, 600, 200);
        feed(g, stretch, 200, false);
    }
    probe(g, 200, 400);  // the second core is back: the workers win
    feed(g, kKeepWorkers, 200, true);
    probe(g, 600, 200);  // and the next loss starts again at 1024
    feed(g, kKeepAlone, 200, false);
    EXPECT_TRUE(g.use_workers());
}

}  // namespace test_noc_threading_governor
