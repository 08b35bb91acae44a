// Test-only declarations (see xrt_device.h): xrt::kernel and xrt::run.
#ifndef HLSINSTR_TEST_XRT_KERNEL_H
#define HLSINSTR_TEST_XRT_KERNEL_H
#include "xrt/xrt_bo.h"
#include <string>

namespace xrt {
class run {
  public:
    int wait();
};
class kernel {
  public:
    kernel(const xrt::device& device, const xrt::uuid& xclbin_id, const std::string& name);
    int group_id(int argno) const;
    template <typename... Args>
    run operator()(Args&&... args);
};
} // namespace xrt
#endif
