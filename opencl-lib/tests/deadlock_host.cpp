// Never returns normally: the watchdog ends the process with exit code 4.
#include "hlsinstr_emu.h"

#include <cstdio>

int main() {
    int out[2] = {0, 0};
    hlsinstr_emu::run("stuck", {&out[0]});
    std::printf("ERROR: stuck returned\n");
    return 1;
}
