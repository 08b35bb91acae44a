# hlsinstr: generated file (hlsinstr rewrite --target vitis). The in-FPGA build of top:
#   vitis_hls -f run_hls.tcl        (the same project as hls_config.cfg)
# Delete the steps you do not want at the end of this file.
open_project -reset hlsinstr_prj
set_top top_instr
add_files input.cpp -cflags "-Ihlsinstr-lib/include -I. -DHLSINSTR_TRACE_ID_BITS=5 -DHLSINSTR_TRACE_VALUE_BITS=32 -DHLSINSTR_WATCH_VALUE_ID=16 -DHLSINSTR_WATCH_A=2 -DHLSINSTR_WATCH_B=8 -DHLSINSTR_WATCH_N=16 -DHLSINSTR_WATCH_HITS=1 -DHLSINSTR_WATCH_VMIN=0LL"
add_files hlsinstr_top.cpp -cflags "-Ihlsinstr-lib/include -I. -DHLSINSTR_TRACE_ID_BITS=5 -DHLSINSTR_TRACE_VALUE_BITS=32 -DHLSINSTR_WATCH_VALUE_ID=16 -DHLSINSTR_WATCH_A=2 -DHLSINSTR_WATCH_B=8 -DHLSINSTR_WATCH_N=16 -DHLSINSTR_WATCH_HITS=1 -DHLSINSTR_WATCH_VMIN=0LL"
add_files -blackbox hlsinstr_counter.json
open_solution -reset solution1 -flow_target vitis
set_part xcu250-figd2104-2L-e
create_clock -period 4ns
csim_design
csynth_design
cosim_design
export_design -format xo
exit
