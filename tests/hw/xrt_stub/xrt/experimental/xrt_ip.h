// Test-only declaration of XRT's xrt::ip (read_register, write_register), with the signatures of
// XRT's documentation (xilinx.github.io/XRT, "XRT Native APIs"), for the host snippet of
// `hlsinstr rtl-probe`. Not XRT: tests/rtl_probe.rs defines the two members over a register
// model fed by a simulation's readout, so the generated snippet runs here.
#ifndef HLSINSTR_TEST_XRT_IP_H
#define HLSINSTR_TEST_XRT_IP_H
#include <cstdint>

namespace xrt {
class ip {
  public:
    uint32_t read_register(uint32_t offset) const;
    void write_register(uint32_t offset, uint32_t data);
};
} // namespace xrt
#endif
