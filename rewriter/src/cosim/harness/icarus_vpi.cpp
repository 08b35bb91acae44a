// hlsinstr cosim: Icarus Verilog back end, a VPI module. The generated testbench calls
// $hlsinstr_init once, then per cycle $hlsinstr_step (clock low, settled; returns 1 when the run
// is over) and, after the rising edge, $hlsinstr_apply. Ports are found by name under
// `hlsinstr_tb`, so this module is the same for every design. Plusargs: +plan=FILE +results=FILE.
#include <chrono>
#include <vpi_user.h>
#include "hlsinstr_harness.h"

namespace {
hlsinstr::Harness* h = nullptr;
std::vector<vpiHandle> handles;
std::string results;
std::chrono::steady_clock::time_point t0;

std::string plusarg(const char* key) {
    s_vpi_vlog_info info;
    if (!vpi_get_vlog_info(&info)) return "";
    std::string k = std::string("+") + key + "=";
    for (int i = 0; i < info.argc; i++)
        if (info.argv[i] && std::string(info.argv[i]).rfind(k, 0) == 0) return info.argv[i] + k.size();
    return "";
}

PLI_INT32 init_tf(PLI_BYTE8*) {
    std::string plan = plusarg("plan");
    results = plusarg("results");
    if (plan.empty() || results.empty()) hlsinstr::fail("vvp needs +plan=FILE and +results=FILE");
    h = new hlsinstr::Harness(plan);
    vpiHandle tb = vpi_handle_by_name((PLI_BYTE8*)"hlsinstr_tb", nullptr);
    if (!tb) hlsinstr::fail("no module hlsinstr_tb");
    // Every `p_<port>` net and reg of the testbench is a port of the design.
    for (int type : {vpiReg, vpiNet}) {
        vpiHandle it = vpi_iterate(type, tb);
        while (vpiHandle x = it ? vpi_scan(it) : nullptr) {
            std::string name = vpi_get_str(vpiName, x);
            if (name.rfind("p_", 0) != 0) continue;  // the testbench's own variables
            h->pins.add(name.substr(2), type == vpiReg, (unsigned)vpi_get(vpiSize, x));
            handles.push_back(x);
        }
    }
    h->setup();
    t0 = std::chrono::steady_clock::now();
    return 0;
}

void put_all() {
    for (size_t i = 0; i < handles.size(); i++) {
        hlsinstr::Sig& s = h->pins.s[i];
        if (!s.input || s.name == h->clock_name()) continue;
        s_vpi_vecval v[32];
        for (unsigned k = 0; k < s.words(); k++) v[k].aval = s.w[k], v[k].bval = 0;
        s_vpi_value val;
        val.format = vpiVectorVal;
        val.value.vector = v;
        vpi_put_value(handles[i], &val, nullptr, vpiNoDelay);
    }
}

PLI_INT32 step_tf(PLI_BYTE8*) {
    for (size_t i = 0; i < handles.size(); i++) {
        hlsinstr::Sig& s = h->pins.s[i];
        if (s.input) continue;
        s_vpi_value val;
        val.format = vpiVectorVal;
        vpi_get_value(handles[i], &val);
        for (unsigned k = 0; k < s.words(); k++) s.w[k] = val.value.vector[k].aval & ~val.value.vector[k].bval;
        s.mask();
    }
    bool more = h->step();
    if (!more) {
        double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        h->write_results(results);
        std::printf("simulated %llu cycles in %.6f s\n", (unsigned long long)h->now, secs);
        std::fflush(stdout);
    }
    s_vpi_value rv;
    rv.format = vpiIntVal;
    rv.value.integer = more ? 0 : 1;
    vpi_put_value(vpi_handle(vpiSysTfCall, nullptr), &rv, nullptr, vpiNoDelay);
    return 0;
}

PLI_INT32 apply_tf(PLI_BYTE8*) {
    put_all();
    return 0;
}

PLI_INT32 int_size(PLI_BYTE8*) { return 32; }

void register_all() {
    s_vpi_systf_data d = {};
    d.type = vpiSysTask;
    d.tfname = (PLI_BYTE8*)"$hlsinstr_init";
    d.calltf = [](PLI_BYTE8* u) { init_tf(u); put_all(); return PLI_INT32(0); };
    vpi_register_systf(&d);
    d.tfname = (PLI_BYTE8*)"$hlsinstr_apply";
    d.calltf = apply_tf;
    vpi_register_systf(&d);
    d.type = vpiSysFunc;
    d.sysfunctype = vpiIntFunc;
    d.tfname = (PLI_BYTE8*)"$hlsinstr_step";
    d.calltf = step_tf;
    d.sizetf = int_size;
    vpi_register_systf(&d);
}
}  // namespace

extern "C" {
void (*vlog_startup_routines[])() = {register_all, nullptr};
}
