// Test-only declarations of the part of XRT's native C++ API (xrt::device, xrt::bo,
// xrt::kernel, xrt::run) that the generated host program uses, with the signatures of XRT's
// documentation (xilinx.github.io/XRT, "XRT Native APIs"). `g++ -fsyntax-only` against them
// checks the generated code's types and calls; nothing here links or runs. Not XRT.
#ifndef HLSINSTR_TEST_XRT_DEVICE_H
#define HLSINSTR_TEST_XRT_DEVICE_H
#include <string>

namespace xrt {
class uuid {};
class device {
  public:
    explicit device(unsigned int didx);
    uuid load_xclbin(const std::string& xclbin_fnm);
};
} // namespace xrt
#endif
