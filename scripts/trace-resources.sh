#!/usr/bin/env bash
# What the in-FPGA control-flow trace costs, estimated: yosys's Xilinx synthesis of the RTL
# equivalents (hand-written, verilog/estimate/) of the record path (hlsinstr_trace_sites.v: N
# record sites posting their ids, and trip counters for loop exits, into the trace FIFO) and of
# the trace buffer with its flush logic (hlsinstr_trace_buffer.v). Vitis's own figures for
# hls-lib's trace.h need Vitis, which is not here; docs/branches.md quotes this output.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
family="${FAMILY:-xcup}"
command -v yosys >/dev/null || { echo "missing yosys: install it (apt-get install yosys) and run again" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
synth() { # file top "chparam args" -> "LUT FF CARRY BRAM"
  yosys -q -p "read_verilog $root/verilog/estimate/$1; chparam $3 $2; synth_xilinx -top $2 -family $family -noiopad -noclkbuf; tee -q -o $tmp/stat.txt stat" >"$tmp/log.txt" 2>&1 \
    || { cat "$tmp/log.txt" >&2; exit 1; }
  awk '$1 ~ /^(LUT[1-6]|INV)$/ { lut += $2 } $1 ~ /^FD[RSCP]E$/ { ff += $2 } $1 ~ /^CARRY[48]$/ { c += $2 }
       $1 ~ /^RAMB36/ { b += $2 } $1 ~ /^RAMB18/ { b += $2 / 2 } END { printf "%d %d %d %g\n", lut, ff, c, b }' "$tmp/stat.txt"
}
echo "trace record path and trace buffer (yosys $(yosys -V | awk '{print $2}'), synth_xilinx -family $family, out of context)"
printf "%-44s %6s %6s %6s %6s\n" "configuration" LUT FF CARRY BRAM36
for n in 1 8 32 64; do
  bits=1; while [ $((1 << bits)) -le "$n" ]; do bits=$((bits + 1)); done
  read -r l f c b < <(synth hlsinstr_trace_sites.v hlsinstr_trace_sites "-set SITES $n -set LOOPS 0 -set ID_BITS $bits")
  printf "%-44s %6d %6d %6d %6s\n" "record sites: $n (id $bits bits)" "$l" "$f" "$c" "$b"
  eval "site_lut_$n=$l; site_ff_$n=$f"
done
read -r l f c b < <(synth hlsinstr_trace_sites.v hlsinstr_trace_sites "-set SITES 8 -set LOOPS 8 -set ID_BITS 4")
printf "%-44s %6d %6d %6d %6s\n" "record sites: 8, all loop exits (trip counters)" "$l" "$f" "$c" "$b"
awk -v l1="$site_lut_1" -v l64="$site_lut_64" -v f1="$site_ff_1" -v f64="$site_ff_64" -v ll="$l" -v fl="$f" -v l8="$site_lut_8" -v f8="$site_ff_8" 'BEGIN {
  printf "per record site (1 -> 64 sites): %.1f LUT, %.1f FF; per loop-exit site in addition: %.1f LUT, %.1f FF\n",
    (l64 - l1) / 63, (f64 - f1) / 63, (ll - l8) / 8, (fl - f8) / 8 }'
for cfg in "512 40 0 65536 1" "512 40 24 65536 1" "512 40 24 65536 0" "512 12 0 65536 1" "16 40 0 4096 1"; do
  read -r depth rec delta region wrap <<<"$cfg"
  read -r l f c b < <(synth hlsinstr_trace_buffer.v hlsinstr_trace_buffer "-set DEPTH $depth -set REC_BITS $rec -set DELTA_BITS $delta -set REGION $region -set WRAP $wrap")
  printf "%-44s %6d %6d %6d %6s\n" "trace buffer: $depth x $((rec + delta)) bits, $([ "$wrap" = 1 ] && echo wrap || echo linear)" "$l" "$f" "$c" "$b"
done
# Watch sites in the in-FPGA build (hlsinstr_watch_sites.v: value sites, the costlier kind, each
# with its offset adder, bound and range comparators, kept element and value comparator).
for n in 1 8; do
  bits=1; while [ $((1 << bits)) -le $((n + 1)) ]; do bits=$((bits + 1)); done
  read -r l f c b < <(synth hlsinstr_watch_sites.v hlsinstr_watch_sites "-set SITES $n -set ID_BITS $bits")
  printf "%-44s %6d %6d %6d %6s\n" "watch sites: $n (value sites, 32-bit index)" "$l" "$f" "$c" "$b"
  eval "watch_lut_$n=$l; watch_ff_$n=$f"
done
awk -v l1="$watch_lut_1" -v l8="$watch_lut_8" -v f1="$watch_ff_1" -v f8="$watch_ff_8" 'BEGIN {
  printf "per watch site (1 -> 8 sites): %.1f LUT, %.1f FF\n", (l8 - l1) / 7, (f8 - f1) / 7 }'
