#pragma once
// SystemC elaborates once per process: a test that needs a second simulation runs it in a
// forked child, which sends back a trivially copyable result through a pipe.
#include <sys/wait.h>
#include <unistd.h>

#include <stdexcept>
#include <type_traits>

namespace mcmsim::test_support {

template <typename Result, typename Run>
Result in_child(Run run) {
    static_assert(std::is_trivially_copyable<Result>::value, "the result crosses a pipe as bytes");
    int fd[2];
    if (::pipe(fd) != 0) throw std::runtime_error("pipe failed");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fd[0]);
        const Result r = run();
        ::_exit(::write(fd[1], &r, sizeof r) == static_cast<ssize_t>(sizeof r) ? 0 : 1);
    }
    ::close(fd[1]);
    Result r{};
    const bool got = ::read(fd[0], &r, sizeof r) == static_cast<ssize_t>(sizeof r);
    ::close(fd[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) throw std::runtime_error("child simulation failed");
    return r;
}

}  // namespace mcmsim::test_support
