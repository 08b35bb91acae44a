# hlsinstr: generated file (hlsinstr rewrite --target vitis). The in-FPGA build of f:
#   vitis_hls -f run_hls.tcl        (the same project as hls_config.cfg)
# Delete the steps you do not want at the end of this file.
open_project -reset hlsinstr_prj
set_top f_instr
add_files input.cpp -cflags "-Ihlsinstr-lib/include -I. -DHLSINSTR_TRACE_ID_BITS=4 -DHLSINSTR_TRACE_VALUE_BITS=32"
add_files hlsinstr_top.cpp -cflags "-Ihlsinstr-lib/include -I. -DHLSINSTR_TRACE_ID_BITS=4 -DHLSINSTR_TRACE_VALUE_BITS=32"
add_files -blackbox hlsinstr_counter.json
open_solution -reset solution1 -flow_target vitis
set_part xcu250-figd2104-2L-e
create_clock -period 4ns
csim_design
csynth_design
cosim_design
export_design -format xo
exit
