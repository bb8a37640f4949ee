#pragma once
// A pooled TLM-2.0 memory manager: initiators take payloads with allocate() and the last
// release() hands them back to the pool, so an AT run allocates only while its number of
// transactions in flight grows. Payloads keep their data buffers between uses.
#include <tlm>

#include <memory>
#include <vector>

namespace mcmsim {

/// A payload that owns its data buffer (kept across uses).
class PooledPayload : public tlm::tlm_generic_payload {
public:
    explicit PooledPayload(tlm::tlm_mm_interface* mm) : tlm::tlm_generic_payload(mm) {}
    std::vector<unsigned char> buffer;
};

class PayloadPool : public tlm::tlm_mm_interface {
public:
    PayloadPool() = default;
    PayloadPool(const PayloadPool&) = delete;
    PayloadPool& operator=(const PayloadPool&) = delete;
    ~PayloadPool() override {
        for (auto& gp : all_) gp->reset();  // drops extensions marked auto
    }

    /// A payload with reference count 1 (acquired for the caller) and a data buffer of `len`.
    tlm::tlm_generic_payload* allocate(unsigned len) {
        PooledPayload* gp;
        if (free_.empty()) {
            all_.push_back(std::make_unique<PooledPayload>(this));
            gp = all_.back().get();
        } else {
            gp = free_.back();
            free_.pop_back();
        }
        if (gp->buffer.size() < len) gp->buffer.resize(len);
        gp->set_data_ptr(gp->buffer.data());
        gp->set_data_length(len);
        gp->set_streaming_width(len);
        gp->set_byte_enable_ptr(nullptr);
        gp->set_dmi_allowed(false);
        gp->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        gp->acquire();
        return gp;
    }

    void free(tlm::tlm_generic_payload* gp) override {
        gp->reset();
        free_.push_back(static_cast<PooledPayload*>(gp));
    }

    std::size_t allocated() const { return all_.size(); }
    std::size_t in_use() const { return all_.size() - free_.size(); }

private:
    std::vector<std::unique_ptr<PooledPayload>> all_;
    std::vector<PooledPayload*> free_;
};

}  // namespace mcmsim
