// Test-only declarations (see xrt_device.h): xrt::bo.
#ifndef HLSINSTR_TEST_XRT_BO_H
#define HLSINSTR_TEST_XRT_BO_H
#include "xrt/xrt_device.h"
#include <cstddef>

enum xclBOSyncDirection { XCL_BO_SYNC_BO_TO_DEVICE = 0, XCL_BO_SYNC_BO_FROM_DEVICE };

namespace xrt {
using memory_group = unsigned int;
class bo {
  public:
    bo(const xrt::device& device, size_t sz, memory_group grp);
    void sync(xclBOSyncDirection dir);
    void* map();
    template <typename MapType>
    MapType map() { return reinterpret_cast<MapType>(map()); }
};
} // namespace xrt
#endif
