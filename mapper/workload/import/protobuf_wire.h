#pragma once
// A minimal protobuf wire-format reader over a byte range (no generated code, no copies):
// enough to walk the few ONNX messages the importer needs. Length-delimited fields come back
// as views into the buffer, so skipping a tensor's raw_data costs nothing.
// Malformed or truncated input throws InputError naming the file and "byte N".
#include "hw/common/input_error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mcmsim::pb {

enum Wire : int { kVarint = 0, kFixed64 = 1, kBytes = 2, kFixed32 = 5 };

struct Field {
    std::uint32_t number = 0;
    int wire = 0;
    std::uint64_t value = 0;             ///< varint and fixed values
    const std::uint8_t* data = nullptr;  ///< kBytes: the payload
    std::size_t size = 0;                ///< kBytes: payload length
    std::size_t offset = 0;              ///< file offset of the payload (for messages)

    std::string str() const { return std::string(reinterpret_cast<const char*>(data), size); }
};

class Reader {
public:
    /// `base` is the file offset of `begin`; `what` names the message for error messages.
    Reader(const std::uint8_t* begin, std::size_t size, std::size_t base, const std::string& file, std::string what)
        : p_(begin), end_(begin + size), begin_(begin), base_(base), file_(file), what_(std::move(what)) {}
    Reader(const Field& f, const std::string& file, std::string what) : Reader(f.data, f.size, f.offset, file, std::move(what)) {}

    /// The next field, or false at the end of the message.
    bool next(Field& f) {
        if (p_ == end_) return false;
        const std::size_t at = offset();
        const std::uint64_t tag = varint();
        f.number = static_cast<std::uint32_t>(tag >> 3);
        f.wire = static_cast<int>(tag & 7);
        if (f.number == 0 || tag >> 32) fail(at, "a protobuf field tag", "field number " + std::to_string(tag >> 3));
        switch (f.wire) {
            case kVarint:
                f.value = varint();
                break;
            case kFixed64:
                f.value = fixed(8);
                break;
            case kFixed32:
                f.value = fixed(4);
                break;
            case kBytes: {
                const std::uint64_t len = varint();
                if (len > static_cast<std::uint64_t>(end_ - p_))
                    fail(offset(), std::to_string(len) + " more bytes (field " + std::to_string(f.number) + ")",
                         "only " + std::to_string(end_ - p_) + " (the file is truncated or not ONNX)");
                f.data = p_;
                f.size = static_cast<std::size_t>(len);
                f.offset = offset();
                p_ += len;
                break;
            }
            default:
                fail(at, "a protobuf wire type (0, 1, 2 or 5)", "wire type " + std::to_string(f.wire));
        }
        return true;
    }

    /// Repeated int64 fields come packed (one kBytes field) or one varint each.
    void append_int64s(const Field& f, std::vector<std::int64_t>& out) {
        if (f.wire == kVarint) {
            out.push_back(static_cast<std::int64_t>(f.value));
            return;
        }
        expect(f, kBytes);
        Reader packed(f, file_, what_);
        while (packed.p_ != packed.end_) out.push_back(static_cast<std::int64_t>(packed.varint()));
    }

    /// A known field with the wrong wire type: this is not the message we expected.
    void expect(const Field& f, int wire) const {
        if (f.wire != wire)
            fail(offset(), what_ + " field " + std::to_string(f.number) + " with wire type " + std::to_string(wire),
                 "wire type " + std::to_string(f.wire) + " (not an ONNX file?)");
    }

    [[noreturn]] void fail(std::size_t at, const std::string& expected, const std::string& found) const {
        throw InputError(file_, "byte " + std::to_string(at), expected + " in ONNX " + what_, found);
    }

private:
    std::size_t offset() const { return base_ + static_cast<std::size_t>(p_ - begin_); }

    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (p_ == end_) fail(offset(), "the rest of a varint", "the end of the data (truncated)");
            const std::uint8_t b = *p_++;
            v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        fail(offset(), "a varint of at most 10 bytes", "a longer one");
    }

    std::uint64_t fixed(int bytes) {
        if (end_ - p_ < bytes) fail(offset(), std::to_string(bytes) + " bytes", "the end of the data (truncated)");
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v |= static_cast<std::uint64_t>(p_[i]) << (8 * i);
        p_ += bytes;
        return v;
    }

    const std::uint8_t* p_;
    const std::uint8_t* end_;
    const std::uint8_t* begin_;
    std::size_t base_;
    const std::string& file_;
    std::string what_;
};

}  // namespace mcmsim::pb
