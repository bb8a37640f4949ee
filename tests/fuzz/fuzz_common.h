#pragma once
// What every harness shares. The readers' contract is: bad input throws InputError (the CLI's
// exit 2 with one line), anything else is accepted. So an InputError is the expected outcome
// for most fuzzed inputs; any other exception escaping a reader is a finding and aborts, which
// libFuzzer records as a crash with the input that caused it.
#include "hw/common/input_error.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <typeinfo>

namespace mcmsim::fuzz {

inline std::string text_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// A property the harness checks on an accepted input (a round trip, say); aborts when it
/// does not hold, naming it.
inline void require(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz: property violated: %s\n", what);
    std::abort();
}

/// What an accepted input is written back as must read back to the same: `same` reads it and
/// compares; a rejection of what the program itself wrote is a finding too.
template <class Same>
void require_reads_back(Same&& same, const char* what) {
    try {
        require(same(), what);
    } catch (const InputError& e) {
        std::fprintf(stderr, "fuzz: %s: rejected: %s\n", what, e.what());
        std::abort();
    }
}

/// Runs `body` on one input: InputError is fine, every other exception aborts.
template <class Body>
int run_one(Body&& body) {
    try {
        body();
    } catch (const InputError&) {
        // The reader rejected the input the documented way.
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: uncaught %s: %s\n", typeid(e).name(), e.what());
        std::abort();
    } catch (...) {
        std::fprintf(stderr, "fuzz: uncaught non-std exception\n");
        std::abort();
    }
    return 0;
}

}  // namespace mcmsim::fuzz
