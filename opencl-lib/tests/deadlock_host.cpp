// Never returns normally: the watchdog ends the process with exit code 4. With the argument
// `ndrange` the deadlocked kernel is a 3-work-item NDRange.
#include "hlsinstr_emu.h"

#include <cstdio>
#include <cstring>

int main(int argc, char** argv) {
    int out[3] = {0, 0, 0};
    if (argc > 1 && std::strcmp(argv[1], "ndrange") == 0)
        hlsinstr_emu::run("stuck_ndrange", {&out[0]}, hlsinstr_emu::NDRange(3));
    else
        hlsinstr_emu::run("stuck", {&out[0]});
    std::printf("ERROR: stuck returned\n");
    return 1;
}
