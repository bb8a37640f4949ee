// Run-time defaults of AddressSanitizer, compiled into every executable of an ASan build
// (MCMSIM_SANITIZER_SOURCES in the top-level CMakeLists.txt), so that ctest, the sweep's
// child processes and MPI ranks, and a human running a binary by hand all get them. An
// ASAN_OPTIONS in the environment still overrides them (detect_leaks=1 turns LSan back on).
//
// detect_leaks=0: SystemC runs its threads on coroutine stacks and tells ASan of each switch.
// After the simulation has ended, LeakSanitizer's exit-time scan finds the main thread's stack
// range still pointing into a coroutine stack that SystemC has released ("stack pointer not in
// stack range" with verbosity=1), reads it, and its tracer dies of SIGSEGV ("Tracer caught
// signal 11 ... LeakSanitizer has encountered a fatal error") whether or not anything leaked;
// which test it hits depends only on where the stacks were mapped. use_tls=0 and
// intercept_tls_get_addr=0 move the crash between tests without removing it. Until the stack
// bounds are restored at exit, leak checking is off; ASan's and UBSan's checks all stay on.
extern "C" __attribute__((visibility("default"), used)) const char* __asan_default_options() { return "detect_leaks=0"; }
