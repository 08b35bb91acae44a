"""The cases: per case, the design's module tree as a function of its trip parameters, the report
ranges (min / max parameters), the testbench's calls, and how each call's cycles follow."""

import os

from model import Loop, Module, initialiser_module, memcpy_module, pipeline_module

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def kernel_lines(case):
    with open(os.path.join(ROOT, case, "kernel.cpp")) as f:
        return f.read().split("\n")


def line_of(case, label):
    """The line of the `for` after `label:` (Vitis' loop location), or of a function's definition."""
    lines = kernel_lines(case)
    for i, t in enumerate(lines, 1):
        if t.strip() == f"{label}:":
            for j in range(i, len(lines)):
                if lines[j].strip().startswith("for"):
                    return j + 1
        if t.startswith(("void ", "int ", "static ")) and f" {label}(" in t:
            return i
    raise KeyError((case, label))


def mem(bits_addr, ports=1, bits=32):
    return {"addr_bits": bits_addr, "ports": ports, "bits": bits}


CASES = []


def case(fn):
    CASES.append(fn())
    return fn


# --------------------------------------------------------------------------------------------- 01
@case
def c01():
    d = "01_memcpy_local"
    t = "vscale"

    def model(p):
        c1 = memcpy_module(t, 1, 256)
        sc = pipeline_module(t, "scale", 256, 1, 4, line=line_of(d, "scale"), res={"DSP": 3, "FF": 112, "LUT": 188})
        c2 = memcpy_module(t, 2, 256)
        lat = c1.latency + sc.latency + c2.latency + 13
        return Module(t, lat, insts=[("grp_vscale_Pipeline_1_fu_128", c1), ("grp_vscale_Pipeline_scale_fu_136", sc),
                                     ("grp_vscale_Pipeline_2_fu_143", c2)],
                      res={"BRAM_18K": 1, "FF": 1284, "LUT": 1655}, line=line_of(d, t))

    calls = [{"gain": g} for g in (3, -7, 1)]
    why = ("vscale_Pipeline_1 (memcpy in, Loop 1: 256 trips, II 1, depth 3) = (256-1)*1+3-1 = 257, +2 = 259 "
           "(elements + 3); vscale_Pipeline_scale (256 trips, II 1, depth 4) = 255+3 = 258, +2 = 260; "
           "vscale_Pipeline_2 (memcpy out) = 259. Same bundle gmem, so the three run one after another: "
           "259 + 260 + 259 = 778, plus the s_axilite top's own 13 cycles (fact 11) = 791 = the report's "
           "latency. The trip counts never change, so every call is 791. A model that ignores the two "
           "compiler-generated memcpy modules gets 260 + 13 = 273.")
    return dict(dir=d, top=t, version="2022.2", flow="vitis", control="ap_ctrl_chain", clock="3.650",
                maxi=["gmem"], rpt=True,
                args=[("in", "in", "int*", "m_axi:gmem", {}), ("out", "out", "int*", "m_axi:gmem", {}),
                      ("gain", "in", "int", "s_axilite", {})],
                model=model, pmin={}, pmax={}, calls=calls,
                rule="fact 1: memcpy between an m_axi pointer and a local array is a <top>_Pipeline_<N> module "
                     "(Loop 1) of elements + 3 cycles; it must be counted",
                why=why)


# --------------------------------------------------------------------------------------------- 02
@case
def c02():
    d = "02_bundles_overlap"
    t = "vmix"

    def model(p):
        ca = memcpy_module(t, 1, 128)
        cw = memcpy_module(t, 2, 64)
        mx = pipeline_module(t, "mix", 128, 1, 4, line=line_of(d, "mix"), res={"DSP": 3, "FF": 98, "LUT": 171})
        cc = memcpy_module(t, 3, 128)
        lat = max(ca.latency, cw.latency) + mx.latency + cc.latency + 13
        return Module(t, lat, insts=[("grp_vmix_Pipeline_1_fu_150", ca), ("grp_vmix_Pipeline_2_fu_158", cw),
                                     ("grp_vmix_Pipeline_mix_fu_166", mx), ("grp_vmix_Pipeline_3_fu_176", cc)],
                      res={"BRAM_18K": 3, "FF": 1932, "LUT": 2460}, line=line_of(d, t))

    why = ("vmix_Pipeline_1 (a, 128 words on gmem0) = 128+3 = 131; vmix_Pipeline_2 (w, 64 words on gmem1) = "
           "64+3 = 67; they are on different bundles and independent, so they run at the same time: "
           "max(131, 67) = 131. Then vmix_Pipeline_mix (128 trips, II 1, depth 4) = 127+3 = 130, +2 = 132, "
           "then vmix_Pipeline_3 (c, 128 words) = 131. 131 + 132 + 131 = 394, + the top's own 13 = 407 = the "
           "report's latency; every call is 407. Summing all children instead gives 131+67+132+131+13 = 474 "
           "(the report's top latency is below the sum of its children, fact 2).")
    return dict(dir=d, top=t, version="2022.2", flow="vitis", control="ap_ctrl_chain", clock="3.650",
                maxi=["gmem0", "gmem1"], rpt=False,
                args=[("a", "in", "int*", "m_axi:gmem0", {}), ("w", "in", "int*", "m_axi:gmem1", {}),
                      ("c", "out", "int*", "m_axi:gmem0", {})],
                model=model, pmin={}, pmax={}, calls=[{}, {}],
                rule="fact 2: copies on different m_axi bundles overlap; the top's latency is below the sum "
                     "of its children: take the report's top latency, do not add the children",
                why=why)


# --------------------------------------------------------------------------------------------- 03
@case
def c03():
    d = "03_dyn_trip_pipeline"
    t = "prefix_sum"

    def model(p):
        sc = pipeline_module(t, "scan", p["n"], 1, 3, line=line_of(d, "scan"), res={"FF": 71, "LUT": 120})
        return Module(t, sc.latency + 2, insts=[("grp_prefix_sum_Pipeline_scan_fu_62", sc)],
                      res={"FF": 40, "LUT": 92}, line=line_of(d, t))

    calls = [{"n": 16}, {"n": 200}, {"n": 1024}]
    why = ("prefix_sum_Pipeline_scan: the scan loop runs n trips at II 1, depth 3: (n-1)*1 + 3 - 1 = n+1; "
           "the _Pipeline_ module adds 2: n+3. Its latency varies with the run (the report gives a range), so the RTL spends the module's 2 as the report does (docs/cycle-model.md, \"Pipeline modules in the RTL\": only a module the report gives one latency ends with its loop). The ap_ctrl_hs top adds its own 2 (the report: top "
           "6 ~ 1029 against module 5 ~ 1028): n+5. n = 16: 21; n = 200: 205; n = 1024: 1029 (= the "
           "report's worst case). Co-sim counts the same (fact 10): 21, 205, 1029.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.912",
                rpt=True, cosim=True,
                args=[("in", "in", "int const *", "ap_memory", mem(10)), ("out", "out", "int*", "ap_memory", mem(10)),
                      ("n", "in", "int", "ap_none", {}), ("return", "out", "int", "ap_return", {})],
                model=model, pmin={"n": 1}, pmax={"n": 1024}, calls=calls,
                rule="fact 3: a pipelined loop takes (TC-1)*II + depth - 1 cycles with the run's TC; its "
                     "_Pipeline_ module adds 2",
                why=why)


# --------------------------------------------------------------------------------------------- 04
@case
def c04():
    d = "04_outer_with_inner_module"
    t = "row_norm"
    inst = "grp_row_norm_Pipeline_sum_fu_84"

    def model(p):
        inner = pipeline_module(t, "sum", p["cols"], 1, 3, line=line_of(d, "sum"), res={"FF": 104, "LUT": 187})
        row = Loop("row", p["rows"], iter_lat=inner.latency + 3, insts=[inst], line=line_of(d, "row"))
        return Module(t, row.latency + 2, loops=[row], insts=[(inst, inner)], res={"FF": 88, "LUT": 213},
                      line=line_of(d, t))

    calls = [{"rows": 4, "cols": 16}, {"rows": 10, "cols": 64}, {"rows": 32, "cols": 1}, {"rows": 7, "cols": 40}]
    why = ("row_norm_Pipeline_sum (cols trips, II 1, depth 3) = (cols-1)+2 = cols+1, +2 = cols+3. Its latency varies with the run (the report gives a range), so the RTL spends the module's 2 as the report does (docs/cycle-model.md, \"Pipeline modules in the RTL\": only a module the report gives one latency ends with its loop). "
           "The row loop is not pipelined; its iteration latency in the report (7 ~ 70) already includes that "
           "instance: cols+3 for the instance + 3 of its own (loop test, the out[r] write) = cols+6. row = "
           "rows*(cols+6); the ap_ctrl_hs top adds 2. (4,16): 4*22+2 = 90; (10,64): 10*70+2 = 702; (32,1): "
           "32*7+2 = 226; (7,40): 7*46+2 = 324. Adding the inner module again per row counts it twice (e.g. "
           "(10,64): 10*(70+67)+2 = 1372). Co-sim (fact 10): 90, 702, 226, 324.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.876",
                rpt=True, cosim=True,
                args=[("m", "in", "const int (*)[64]", "ap_memory", mem(11)), ("out", "out", "int*", "ap_memory", mem(5)),
                      ("rows", "in", "int", "ap_none", {}), ("cols", "in", "int", "ap_none", {})],
                model=model, pmin={"rows": 1, "cols": 1}, pmax={"rows": 32, "cols": 64}, calls=calls,
                rule="fact 4: an outer loop whose inner pipeline is the module <func>_Pipeline_<inner>: its "
                     "iteration latency already includes the instance (own cost = iteration - module)",
                why=why)


# --------------------------------------------------------------------------------------------- 05
@case
def c05():
    d = "05_dataflow_streams"
    t = "stream_chain"

    def model(p):
        n = p["n"]
        entry = Module("entry_proc", 0, res={"FF": 3, "LUT": 29})
        rd_loop = Loop("read_loop", n, ii=1, depth=2, line=line_of(d, "read_loop"))
        rd = Module("Loop_read_loop_proc1", rd_loop.latency + 1, loops=[rd_loop], res={"FF": 45, "LUT": 83})
        sm_p = pipeline_module("smooth", "smooth_loop", n, 1, 5, line=line_of(d, "smooth_loop"),
                               res={"FF": 139, "LUT": 160}, waits=True)
        sm = Module("smooth", sm_p.latency + 1, insts=[("grp_smooth_Pipeline_smooth_loop_fu_44", sm_p)],
                    res={"FF": 38, "LUT": 61}, line=line_of(d, "smooth"))
        wr_loop = Loop("write_loop", n, ii=1, depth=2, line=line_of(d, "write_loop"))
        wr = Module("Loop_write_loop_proc2", wr_loop.latency + 1, loops=[wr_loop], res={"FF": 45, "LUT": 80})
        procs = [entry, rd, sm, wr]
        # FIFO channels: the processes overlap; the last token leaves after (n-1) cycles of streaming plus
        # every process's fill (its latency minus its (n-1) streaming cycles), plus 1 for the region.
        fills = sum(m.latency - (n - 1) for m in (rd, sm, wr))
        lat = (n - 1) + fills + 1
        return Module(t, lat, interval=max(m.latency for m in procs) + 1, ptype="dataflow", dataflow=True,
                      insts=[("entry_proc_U0", entry), ("Loop_read_loop_proc1_U0", rd), ("smooth_U0", sm),
                             ("Loop_write_loop_proc2_U0", wr)],
                      res={"FF": 12, "LUT": 118}, line=line_of(d, t))

    calls = [{"n": 64}, {"n": 300}, {"n": 1024}]
    why = ("Processes (report): entry_proc 0; Loop_read_loop_proc1 = read_loop (n trips, II 1, depth 2: n) + 1 "
           "= n+1; smooth = smooth_Pipeline_smooth_loop (n trips, II 1, depth 5: n+3, +2 = n+5) + 1 = n+6; "
           "Loop_write_loop_proc2 = n+1. They are joined by FIFOs (hls::stream) and run at the same time: a "
           "token goes through every process's fill (latency - (n-1): 2, 7, 2) and the n tokens follow one "
           "a cycle, so the region takes (n-1) + 2 + 7 + 2 + 1 = n+11 (report: 12 ~ 1035). n = 64: 75; "
           "n = 300: 311; n = 1024: 1035. Summing the processes (3n+8, +1) is wrong: 3*300+9 = 909 for n = 300. "
           "Co-sim (fact 10): 75, 311, 1035.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.431",
                rpt=True, cosim=True,
                args=[("in", "in", "int const *", "ap_memory", mem(10)), ("out", "out", "int*", "ap_memory", mem(10)),
                      ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 1}, pmax={"n": 1024}, calls=calls,
                rule="fact 5: dataflow loop processes are Loop_<label>_proc<N> modules; with stream (FIFO) "
                     "channels the processes overlap: the region is (n-1) + the sum of the processes' fills + 1",
                why=why)


# --------------------------------------------------------------------------------------------- 06
@case
def c06():
    d = "06_numbered_copies"
    t = "corr_pair"

    def model(p):
        n = p["n"]
        mac_line = line_of(d, "mac")
        l0 = Loop("mac", n, ii=1, depth=4, line=mac_line)
        dot = Module("dot", l0.latency + 1, loops=[l0], res={"DSP": 3, "FF": 121, "LUT": 96}, line=line_of(d, "dot"))
        l1 = Loop("mac", n, ii=2, depth=5, line=mac_line)
        dot1 = Module("dot_1", l1.latency + 1, loops=[l1], res={"DSP": 3, "FF": 133, "LUT": 118},
                      line=line_of(d, "dot"))
        return Module(t, dot.latency + dot1.latency + 2, insts=[("grp_dot_fu_76", dot), ("grp_dot_1_fu_85", dot1)],
                      res={"FF": 52, "LUT": 140}, line=line_of(d, t))

    calls = [{"n": 8}, {"n": 100}, {"n": 256}]
    why = ("The first call site dot(x, y, n) is module dot: mac loop II 1, depth 4: (n-1)+3 = n+2, +1 = n+3. "
           "The second, dot(y, y+1, n), is module dot_1: both operands come from y's single port, mac II 2, "
           "depth 5: 2(n-1)+4 = 2n+2, +1 = 2n+3. Both read y, so they run one after the other; the "
           "ap_ctrl_hs top adds 2: 3n+8 (report 11 ~ 776). n = 8: 32; n = 100: 308; n = 256: 776. Using "
           "dot's schedule for both calls gives 2(n+3)+2 (208 for n = 100). Co-sim (fact 10): 32, 308, 776.")
    return dict(dir=d, top=t, version="2023.2", flow="vivado", control="ap_ctrl_hs", clock="3.114",
                rpt=False, cosim=True,
                args=[("x", "in", "int const *", "ap_memory", mem(9)), ("y", "in", "int const *", "ap_memory", mem(9)),
                      ("n", "in", "int", "ap_none", {}), ("cross", "out", "int*", "ap_vld", {}),
                      ("lag1", "out", "int*", "ap_vld", {})],
                model=model, pmin={"n": 1}, pmax={"n": 256}, calls=calls,
                rule="fact 6: each call site of a function is its own copy (f, f_1, ...) with its own schedule; "
                     "a call takes its own copy's cycles",
                why=why)


# --------------------------------------------------------------------------------------------- 07
@case
def c07():
    d = "07_rom_table"
    t = "lut_apply"
    rom = ('<BindNode BINDTYPE="storage" BRAM="0" BUNDLEDNAME="" DISPNAME="bind_storage rom_1p" DSP="0" ID="" '
           'IMPL="auto" LATENCY="1" LOOP="" OPTYPE="rom_1p" PRAGMA="" RTLNAME="tab_U" '
           f'SOURCE="{d}/kernel.cpp:{line_of(d, "lut_apply") + 2}" URAM="0" VARIABLE="tab"/>')

    def model(p):
        ap = pipeline_module(t, "apply", p["n"], 1, 3, line=line_of(d, "apply"), res={"DSP": 1, "FF": 64, "LUT": 141})
        ap.binds = [rom]
        return Module(t, ap.latency + 2, insts=[("grp_lut_apply_Pipeline_apply_fu_58", ap)],
                      res={"FF": 38, "LUT": 77}, line=line_of(d, t))

    calls = [{"n": 32}, {"n": 512}, {"n": 100}]
    why = ("The tab_fill loop (64 trips in every C call, inside the inlined init_gamma) is not in the report: "
           "Vitis folded the table into the ROM tab_U, 0 cycles at run time. lut_apply_Pipeline_apply "
           "(n trips, II 1, depth 3) = (n-1)+2 = n+1, +2 = n+3. Its latency varies with the run (the report gives a range), so the RTL spends the module's 2 as the report does (docs/cycle-model.md, \"Pipeline modules in the RTL\": only a module the report gives one latency ends with its loop). The ap_ctrl_hs top adds 2: n+5 "
           "(report 6 ~ 517). n = 32: 37; n = 512: 517; n = 100: 105. Charging the fill loop (e.g. 64 trips "
           "at 1 cycle) adds 64+ per call. Co-sim (fact 10): 37, 517, 105.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="3.020",
                rpt=False, cosim=True,
                args=[("in", "in", "int const *", "ap_memory", mem(9)), ("out", "out", "int*", "ap_memory", mem(9)),
                      ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 1}, pmax={"n": 512}, calls=calls,
                rule="fact 7: a loop that fills a constant table becomes a ROM: absent from the report, 0 cycles",
                why=why)


# --------------------------------------------------------------------------------------------- 08
@case
def c08():
    d = "08_function_pipeline"
    t = "leading_run"

    def model(p):
        return Module(t, 3, interval=1, ptype="yes", res={"FF": 102, "LUT": 690}, line=line_of(d, t))

    calls = [{"scan_trips_in_csim": k} for k in (0, 5, 16, 11)]
    why = ("leading_run is pipelined as a function (II 1) and its scan loop (constant bound 16) is fully "
           "unrolled into it; the report has no loop, only the function: latency 3, interval 1. In C "
           "simulation the loop exits after 0, 5, 16 and 11 trips (break), but the hardware evaluates all 16 "
           "entries every call: each call is 3. A model that charges the C trips gets 0..16+ per call. "
           "Co-sim (ap_ctrl_hs, fact 10): 3 per call.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="3.338",
                rpt=False, cosim=True,
                args=[("v", "in", "int const *", "ap_none_array", {"elements": 16}), ("limit", "in", "int", "ap_none", {}),
                      ("return", "out", "int", "ap_return", {})],
                model=model, pmin={}, pmax={}, calls=calls,
                rule="fact 8: a pipelined function with fully unrolled loops takes its report latency whatever "
                     "the loops' C trip counts",
                why=why)


# --------------------------------------------------------------------------------------------- 10
@case
def c10():
    d = "10_dyn_triple_loop"
    t = "path2"

    def model(p):
        n = p["n"]
        step = Loop("step", n, iter_lat=2, line=line_of(d, "step"))
        col = Loop("col", n, iter_lat=step.latency + 3, loops=[step], line=line_of(d, "col"))
        row = Loop("row", n, iter_lat=col.latency + 1, loops=[col], line=line_of(d, "row"))
        return Module(t, row.latency + 1, loops=[row], res={"DSP": 3, "FF": 150, "LUT": 262}, line=line_of(d, t))

    calls = [{"n": 3}, {"n": 7}, {"n": 12}, {"n": 5}]
    why = ("All three loops run n trips and none is pipelined. step: iteration 2 (two reads in one cycle from "
           "the dual-port adj, one multiply-add): 2n. col: iteration 2n + 3 (acc reset, loop test, the out "
           "write): n(2n+3). row: iteration n(2n+3) + 1: n(n(2n+3)+1). The ap_ctrl_hs top adds 1: "
           "T(n) = n(n(2n+3)+1) + 1; the report can only say 1 ~ 3901 (n = 0..12). T(3) = 3*28+1 = 85; "
           "T(7) = 7*120+1 = 841; T(12) = 12*325+1 = 3901; T(5) = 5*66+1 = 331. Co-sim = T(n) (fact 10: the top's own cycle is in "
           "the report's latency, co-sim counts ap_start..ap_done): 85, 841, 3901, 331.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="3.254",
                rpt=True, cosim=True, cosim_files=True,
                args=[("adj", "in", "const int (*)[12]", "ap_memory", mem(8, ports=2)),
                      ("out", "out", "int (*)[12]", "ap_memory", mem(8)), ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 0}, pmax={"n": 12}, calls=calls,
                rule="fact 10: a data-dependent loop nest: the report gives only a range; the per-call latency "
                     "is the nest evaluated with the run's trip counts (co-sim counts the same on ap_ctrl_hs)",
                why=why)


# --------------------------------------------------------------------------------------------- 17
@case
def c17():
    d = "17_guarded_nest"
    t = "row_sums"

    def model(p):
        n = p["n"]
        cols = Loop("cols", n, iter_lat=2, line=line_of(d, "cols"))
        rows = Loop("rows", n, iter_lat=cols.latency + 2, loops=[cols], line=line_of(d, "rows"))
        # `run` 0: the refused-size path, which skips the loops (the report's best case).
        lat = rows.latency + 1 if p["run"] else 1
        return Module(t, lat, loops=[rows], res={"FF": 88, "LUT": 141}, line=line_of(d, t))

    calls = [{"n": 4, "run": 1}, {"n": 9, "run": 1}, {"n": 16, "run": 1}]
    why = ("cols: n trips of 2 (the read, the add): 2n. rows: n trips of 2n + 2 (acc reset, the out write): "
           "n(2n+2). The top adds 1 on the path that runs the loops: T(n) = n(2n+2) + 1, 41 ~ 545 for "
           "n = 4..16; a refused size skips the loops, 1 cycle, so the report says 1 ~ 545 while rows says "
           "40 ~ 544. T(4) = 41, T(9) = 181, T(16) = 545. Adding what the run changed in the loops to the "
           "best case (1) gives 1, 141, 505: the best case is a path that skips them, so the module's own "
           "cycles come from the worst case (545 - 544 = 1). Co-sim (fact 10): 41, 181, 545.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="3.102",
                rpt=False, cosim=True,
                args=[("m", "in", "const int (*)[16]", "ap_memory", mem(8)),
                      ("out", "out", "int*", "ap_memory", mem(4)), ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 4, "run": 0}, pmax={"n": 16, "run": 1}, calls=calls,
                rule="fact 10: a guard whose other branch skips the loops makes the report's best case "
                     "shorter than the loops'; the module's own cycles come from its worst case",
                why=why)


# --------------------------------------------------------------------------------------------- 11
@case
def c11():
    d = "11_flattened_nest"
    t = "blend"

    def model(p):
        rc = pipeline_module(t, "Row_Col", 32 * p["rows"], 1, 5, line=line_of(d, "Row"),
                             res={"DSP": 6, "FF": 214, "LUT": 305})
        return Module(t, rc.latency + 2, insts=[("grp_blend_Pipeline_Row_Col_fu_70", rc)],
                      res={"FF": 41, "LUT": 96}, line=line_of(d, t))

    calls = [{"rows": 1}, {"rows": 7}, {"rows": 16}]
    why = ("Row (rows trips) and Col (32 trips, pipelined) are a perfect nest: Vitis flattens them into one "
           "loop Row_Col of rows*32 trips (II 1, depth 5) in blend_Pipeline_Row_Col; there is no Row or Col "
           "loop in the report. Row_Col = (32 rows - 1) + 4 = 32 rows + 3, module +2. Its latency varies with the run (the report gives a range), so the RTL spends the module's 2 as the report does (docs/cycle-model.md, \"Pipeline modules in the RTL\": only a module the report gives one latency ends with its loop). ap_ctrl_hs top "
           "+2: 32 rows + 7 (report 39 ~ 519). rows = 1: 39; 7: 231; 16: 519. Not flattening (rows * "
           "(32+3+2) ...) or matching Row and Col separately gives more (7 rows: 7*37+2 = 261). Co-sim "
           "(fact 10): 39, 231, 519.")
    return dict(dir=d, top=t, version="2023.2", flow="vivado", control="ap_ctrl_hs", clock="3.102",
                rpt=False, cosim=True,
                args=[("a", "in", "const int (*)[32]", "ap_memory", mem(9)), ("b", "in", "const int (*)[32]", "ap_memory", mem(9)),
                      ("out", "out", "int (*)[32]", "ap_memory", mem(9)), ("rows", "in", "int", "ap_none", {}),
                      ("alpha", "in", "int", "ap_none", {})],
                model=model, pmin={"rows": 1}, pmax={"rows": 16}, calls=calls,
                rule="fact 3 (flattened nest): the perfect nest Row/Col is one pipelined loop Row_Col with "
                     "TC = rows*32; apply the loop formula to that TC",
                why=why)


# --------------------------------------------------------------------------------------------- 12
@case
def c12():
    d = "12_dataflow_pingpong"
    t = "frame_rev"

    def model(p):
        n = p["n"]
        entry = Module("entry_proc", 0, res={"FF": 3, "LUT": 29})
        ld = Loop("ld", n, ii=1, depth=2, line=line_of(d, "ld"))
        load = Module("load", ld.latency + 1, loops=[ld], res={"FF": 42, "LUT": 77}, line=line_of(d, "load"))
        rv = Loop("rv", n, ii=1, depth=3, line=line_of(d, "rv"))
        rev = Module("reverse_scale", rv.latency + 1, loops=[rv], res={"FF": 61, "LUT": 115},
                     line=line_of(d, "reverse_scale"))
        st = Loop("st", n, ii=1, depth=2, line=line_of(d, "st"))
        store = Module("store", st.latency + 1, loops=[st], res={"FF": 42, "LUT": 74}, line=line_of(d, "store"))
        procs = [entry, load, rev, store]
        # PIPO channels: a process starts when the one before it is done (this invocation).
        lat = sum(m.latency for m in procs) + 1
        return Module(t, lat, interval=max(m.latency for m in procs) + 1, ptype="dataflow", dataflow=True,
                      insts=[("entry_proc_U0", entry), ("load_U0", load), ("reverse_scale_U0", rev),
                             ("store_U0", store)],
                      res={"BRAM_18K": 4, "FF": 20, "LUT": 160}, line=line_of(d, t))

    calls = [{"n": 16}, {"n": 128}, {"n": 50}]
    why = ("Processes: entry_proc 0; load = ld (n trips, II 1, depth 2: n) + 1 = n+1; reverse_scale = rv "
           "(II 1, depth 3: n+1) + 1 = n+2; store = n+1. The channels are ping-pong arrays (reverse_scale "
           "reads backwards): each process starts only when the previous one is done, so one invocation is "
           "the chain 0 + (n+1) + (n+2) + (n+1) + 1 = 3n+5 (report 8 ~ 389; interval n+3 = the slowest "
           "process + 1, which only matters for back-to-back invocations). n = 16: 53; n = 128: 389; "
           "n = 50: 155. Treating the channels as FIFOs (overlap, as in case 05) gives about n+7 instead. "
           "Co-sim (fact 10): 53, 389, 155.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.512",
                rpt=False, cosim=True,
                args=[("in", "in", "int const *", "ap_memory", mem(7)), ("out", "out", "int*", "ap_memory", mem(7)),
                      ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 1}, pmax={"n": 128}, calls=calls,
                rule="fact 5 (PIPO channels): ping-pong arrays chain the processes per invocation; a call "
                     "takes the sum of the processes (+1), not the overlapped FIFO figure",
                why=why)


# --------------------------------------------------------------------------------------------- 13
@case
def c13():
    d = "13_initialiser"
    t = "hist_bias"

    def model(p):
        init = initialiser_module(t, 1, 16)
        cnt = pipeline_module(t, "count", p["n"], 2, 4, line=line_of(d, "count"), res={"FF": 77, "LUT": 131})
        out = pipeline_module(t, "copy_out", 16, 1, 2, line=line_of(d, "copy_out"), res={"FF": 18, "LUT": 64})
        return Module(t, init.latency + cnt.latency + out.latency + 2,
                      insts=[("grp_hist_bias_Pipeline_1_fu_52", init), ("grp_hist_bias_Pipeline_count_fu_60", cnt),
                             ("grp_hist_bias_Pipeline_copy_out_fu_68", out)],
                      res={"BRAM_18K": 1, "FF": 36, "LUT": 102}, line=line_of(d, t))

    calls = [{"n": 10}, {"n": 500}, {"n": 1024}]
    why = ("hist_bias_Pipeline_1 is the aggregate initialiser of hist (16 words; hist is written later, so "
           "not a ROM): Loop 1, II 1, depth 2: 16, module 18 (elements + 2, fact 1; a generated module "
           "keeps its 2 in the estimate). hist_bias_Pipeline_count: n trips at II 2 (read-modify-write of "
           "hist), depth 4: 2(n-1)+3 = 2n+1, module 2n+3; its latency varies with the run (the report gives "
           "a range), so the RTL spends its 2 too. hist_bias_Pipeline_copy_out: 16 trips, II 1, depth 2: 16, "
           "module 18 in the report, 16 in the RTL: a module the report gives one latency raises ap_done "
           "with its loop's last state, 2 under the report's module (docs/cycle-model.md, \"Pipeline modules "
           "in the RTL\"). In sequence, +2 for the ap_ctrl_hs top: 18 + (2n+3) + 16 + 2 = 2n+39 (report "
           "43 ~ 2089, 2n+41). n = 10: 59; n = 500: 1039; n = 1024: 2087. Forgetting the initialiser gives "
           "18 less; charging II 1 for count gives n-1 less. Co-sim (fact 10): 59, 1039, 2087.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.980",
                rpt=False, cosim=True,
                args=[("samples", "in", "const unsigned char *", "ap_memory", mem(10, bits=8)),
                      ("hist_out", "out", "int*", "ap_memory", mem(4)), ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 1}, pmax={"n": 1024}, calls=calls,
                rule="fact 1 (initialiser; with fact 3 at II 2): an aggregate initialiser of a written array is a "
                     "<top>_Pipeline_<N> module of elements + 2 cycles; a loop at II 2 takes 2(TC-1) + depth - 1",
                why=why)


# --------------------------------------------------------------------------------------------- 14
@case
def c14():
    d = "14_dataflow_rows"
    t = "rows2"

    def model(p):
        n = p["n"]
        entry = Module("entry_proc", 0, res={"FF": 3, "LUT": 29})
        la = Loop("la", n, ii=1, depth=2, line=line_of(d, "la"))
        load_a = Module("load_a", la.latency + 1, loops=[la], res={"FF": 42, "LUT": 77}, line=line_of(d, "load_a"))
        lb = Loop("lb", 64, ii=1, depth=2, line=line_of(d, "lb"))
        load_b = Module("load_b", lb.latency + 1, loops=[lb], res={"FF": 40, "LUT": 70}, line=line_of(d, "load_b"))
        sa = Loop("sa", n, ii=1, depth=3, line=line_of(d, "sa"))
        store_a = Module("store_a", sa.latency + 1, loops=[sa], res={"FF": 45, "LUT": 80}, line=line_of(d, "store_a"))
        sb = Loop("sb", 64, ii=1, depth=3, line=line_of(d, "sb"))
        store_b = Module("store_b", sb.latency + 1, loops=[sb], res={"FF": 44, "LUT": 76}, line=line_of(d, "store_b"))
        # Two PIPO chains through two memories (the rows of mid): the longer sets the region.
        chain_a = load_a.latency + store_a.latency
        chain_b = load_b.latency + store_b.latency
        procs = [entry, load_a, load_b, store_a, store_b]
        lat = entry.latency + max(chain_a, chain_b) + 1
        return Module(t, lat, interval=max(m.latency for m in procs) + 1, ptype="dataflow", dataflow=True,
                      insts=[("entry_proc_U0", entry), ("load_a_U0", load_a), ("load_b_U0", load_b),
                             ("store_a_U0", store_a), ("store_b_U0", store_b)],
                      res={"BRAM_18K": 4, "FF": 30, "LUT": 210}, line=line_of(d, t))

    calls = [{"n": 16}, {"n": 100}, {"n": 256}, {"n": 64}]
    why = ("Processes: entry_proc 0; load_a = la (n trips, II 1, depth 2: n) + 1 = n+1; load_b = lb (64 trips, "
           "depth 2: 64) + 1 = 65; store_a = sa (n trips, depth 3: n+1) + 1 = n+2; store_b = sb (64, depth 3: 65) "
           "+ 1 = 66. ARRAY_PARTITION complete dim=1 makes mid[0] and mid[1] two memories, so there are two "
           "ping-pong chains side by side: load_a -> store_a = 2n+3 and load_b -> store_b = 131. The region "
           "takes the longer chain + 1 = max(2n+3, 131) + 1 (report 132 ~ 516). n = 16: chain b sets it, 132; "
           "n = 100: chain a, 204; n = 256: 516; n = 64: both 131, 132. One merged channel (mid as one "
           "buffer, as without the pragma) would chain all four: (n+1) + 65 + (n+2) + 66 + 1 = 2n+135 "
           "(167 for n = 16); the slowest process alone would give n+3 (19). Co-sim (fact 10): 132, 204, 516, 132.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.512",
                rpt=False, cosim=True,
                args=[("a", "in", "int const *", "ap_memory", mem(8)), ("b", "in", "int const *", "ap_memory", mem(8)),
                      ("oa", "out", "int*", "ap_memory", mem(8)), ("ob", "out", "int*", "ap_memory", mem(8)),
                      ("n", "in", "int", "ap_none", {})],
                model=model, pmin={"n": 1}, pmax={"n": 256}, calls=calls,
                rule="fact 5 (rows of a partitioned array): each row of an ARRAY_PARTITION complete dim=1 array is "
                     "a channel of its own; the region takes its longest chain of processes, not one merged chain",
                why=why)


# --------------------------------------------------------------------------------------------- 22
@case
def c22():
    d = "22_header_helpers"
    t = "sum_sq"

    def model(p):
        # The loop and its function are in the project header inc/acc.h: no kernel.cpp line.
        lp = Loop("acc", p["n"], ii=1, depth=3)
        ss = Module("sum_squares", lp.latency + 1, loops=[lp], res={"DSP": 3, "FF": 96, "LUT": 84})
        return Module(t, ss.latency + 2, insts=[("grp_sum_squares_fu_50", ss)], res={"FF": 36, "LUT": 70},
                      line=line_of(d, t))

    calls = [{"n": 16}, {"n": 300}, {"n": 1024}]
    why = ("sum_squares (defined in the project header inc/acc.h, INLINE off, so a module of its own): the acc "
           "loop runs n trips at II 1, depth 3: (n-1)*1 + 3 - 1 = n+1; the function module adds 1 (rule 5): "
           "n+2; the ap_ctrl_hs top adds 2: n+4 (report 5 ~ 1028). square() (inc/square.h, no loop) is inlined "
           "into the loop. n = 16: 20; n = 300: 304; n = 1024: 1028. The testbench calls sum_squares itself "
           "for the expected sums: those calls are outside the top and not the design's. A model that does not "
           "probe the header's function sees no loop in the top and no trip count. Co-sim (fact 10): 20, 304, 1028.")
    return dict(dir=d, top=t, version="2022.2", flow="vivado", control="ap_ctrl_hs", clock="2.812",
                rpt=False, cosim=True,
                args=[("in", "in", "int const *", "ap_memory", mem(10)), ("n", "in", "int", "ap_none", {}),
                      ("return", "out", "int", "ap_return", {})],
                model=model, pmin={"n": 1}, pmax={"n": 1024}, calls=calls,
                rule="functions defined in a project header the kernel includes are the design's: the loop of a "
                     "header's function counts with the run's trip counts, the testbench's own calls of it do not",
                why=why)
