#pragma once
// The one error type for bad user input (configs, workloads, plans, CLI values).
// The CLI turns it into exit code 2 and a single line:
//   <file>: <where>: expected <what was expected>, found <what was found>
// `where` is a JSON pointer ("/network/link/bandwidth_gbps") or "line N".
#include <stdexcept>
#include <string>

namespace mcmsim {

class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string where, std::string expected, std::string found)
        : std::runtime_error(format(file, where, expected, found)), file_(std::move(file)), where_(std::move(where)),
          expected_(std::move(expected)), found_(std::move(found)) {}

    const std::string& file() const { return file_; }
    const std::string& where() const { return where_; }
    const std::string& expected() const { return expected_; }
    const std::string& found() const { return found_; }

private:
    static std::string format(const std::string& file, const std::string& where, const std::string& expected,
                              const std::string& found) {
        // A command-line value has no file: the option (`where`) leads the line.
        std::string line = file;
        if (!where.empty()) line += (line.empty() ? "" : ": ") + where;
        line += ": expected " + expected + ", found " + found;
        // Keep it one line whatever the caller passed.
        for (char& c : line)
            if (c == '\n' || c == '\r') c = ' ';
        return line;
    }
    std::string file_, where_, expected_, found_;
};

/// A bad value in a typed request to the library (a field of MapRequest, a workload name):
/// `where` is the request's field name ("segments", "micro_batch"), and the caller reports
/// it as the input that field came from (the CLI: the option of the same name).
class RequestError : public InputError {
public:
    RequestError(std::string field, std::string expected, std::string found)
        : InputError("", field, std::move(expected), std::move(found)) {}
    const std::string& field() const { return where(); }
};

}  // namespace mcmsim
