"""Writes a ranged module tree (model.merge) as a Vitis HLS csynth.xml (2022.2 / 2023.2 single-file
layout, as in ../../../../shared/fixtures/vitis-solution/2022.2-systolic-mm and
vitis-reports/2023.2-systolic) and as a csynth.rpt (the 2022.2 text layout)."""

import re
from xml.sax.saxutils import escape

from model import Ranged

AVAIL = {"BRAM_18K": 288, "DSP": 1248, "FF": 234240, "LUT": 117120, "URAM": 64}


def fmt_time(ns):
    if ns == 0:
        return "0 ns"
    if ns < 1000:
        return f"{ns:.3f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.3f} us"
    return f"{ns / 1e6:.3f} ms"


def rpt_ns(ns):
    return f"{ns:.3e}" if ns >= 1000 else f"{ns:.3f}"


def util(v, avail):
    if v == 0:
        return "0"
    pct = 100.0 * v / avail
    return "~0" if pct < 1 else str(int(pct))


class Design:
    """Everything about one case's report besides the module tree."""

    def __init__(self, case, top, version, flow, control, clock_est, args, maxi=(), axilite_regs=(),
                 source_dir=None, kernel_lines=None, header=""):
        self.case = case
        self.top = top
        self.version = version  # "2022.2" or "2023.2"
        self.flow = flow  # "vitis" | "vivado"
        self.control = control  # "ap_ctrl_hs" | "ap_ctrl_chain" (s_axilite)
        self.clock_est = clock_est
        self.args = args  # [(name, direction, ctype, kind, extra)] kind: m_axi:<bundle> | ap_memory | ap_none | ap_vld | ap_return | s_axilite
        self.maxi = list(maxi)  # bundle names
        self.source_dir = source_dir or case
        self.kernel_lines = kernel_lines or []
        self.header = header


# ----------------------------------------------------------------------------------------- XML


class X:
    def __init__(self):
        self.lines = []
        self.depth = 0

    def open(self, tag, attrs=""):
        self.lines.append("    " * self.depth + f"<{tag}{attrs}>")
        self.depth += 1

    def close(self, tag):
        self.depth -= 1
        self.lines.append("    " * self.depth + f"</{tag}>")

    def leaf(self, tag, text=None, attrs=""):
        if text is None:
            self.lines.append("    " * self.depth + f"<{tag}{attrs}/>")
        else:
            self.lines.append("    " * self.depth + f"<{tag}{attrs}>{escape(str(text))}</{tag}>")

    def raw(self, line):
        self.lines.append("    " * self.depth + line)


def tag_of(name):
    return re.sub(r"[^A-Za-z0-9_.]", "", name)


def text_range(r):
    return str(r.lo) if r.exact else f"{r.lo} ~ {r.hi}"


def elem_range(x, tag, r):
    if r.exact:
        x.leaf(tag, r.lo)
    else:
        x.open(tag)
        x.open("range")
        x.leaf("min", r.lo)
        x.leaf("max", r.hi)
        x.close("range")
        x.close(tag)


def time_range(r, clk):
    if r.exact:
        return fmt_time(r.lo * clk)
    return f"{fmt_time(r.lo * clk)} ~ {fmt_time(r.hi * clk)}"


def src_loc(d, line):
    return f"{d.source_dir}/kernel.cpp:{line}"


def loop_xml(x, d, lp, clk, module_form=True):
    """A loop in <SummaryOfLoopLatency>: module form (2022+ ModuleInformation) or the top-level
    form of the profile's own <PerformanceEstimates> (no Name, ranges as <range>)."""
    x.open(tag_of(lp.name))
    if module_form:
        x.leaf("Name", lp.name)
    x.leaf("Slack", "7.30")
    elem_range(x, "TripCount", lp.tc)
    if module_form:
        x.leaf("Latency", text_range(lp.latency))
        x.leaf("AbsoluteTimeLatency", time_range(lp.latency, clk))
    else:
        elem_range(x, "Latency", lp.latency)
        if lp.latency.exact:
            x.leaf("AbsoluteTimeLatency", int(lp.latency.lo * clk))
        else:
            elem_range(x, "AbsoluteTimeLatency", Ranged(int(lp.latency.lo * clk), int(lp.latency.hi * clk)))
    if lp.pipelined:
        if module_form:
            x.leaf("PipelineII", lp.ii)
            x.leaf("PipelineDepth", lp.depth)
            x.leaf("PipelineType", "yes")
        else:
            x.leaf("IterationLatency", lp.depth)
    else:
        elem_range(x, "IterationLatency", lp.iter_lat)
        if module_form:
            x.leaf("PipelineDepth", text_range(lp.iter_lat))
            x.leaf("PipelineType", "no")
    if lp.insts:
        x.open("InstanceList")
        for i in lp.insts:
            x.leaf("Instance", i)
        x.close("InstanceList")
    else:
        x.leaf("InstanceList")
    for c in lp.loops:
        loop_xml(x, d, c, clk, module_form)
    x.close(tag_of(lp.name))


def loop_names(x, lp):
    if lp.loops:
        x.open(tag_of(lp.name))
        for c in lp.loops:
            loop_names(x, c)
        x.close(tag_of(lp.name))
    else:
        x.leaf(tag_of(lp.name))


def violations_xml(x, d, m):
    x.open("SummaryOfViolations")
    x.leaf("IssueType", "-")
    x.leaf("ViolationType", "-")
    if m.line:
        x.leaf("SourceLocation", src_loc(d, m.line))
    if m.loops:
        x.open("SummaryOfLoopViolations")

        def one(lp):
            x.open(tag_of(lp.name))
            x.leaf("Name", lp.name)
            x.leaf("IssueType", "-")
            x.leaf("ViolationType", "-")
            if lp.line:
                x.leaf("SourceLocation", src_loc(d, lp.line))
            for c in lp.loops:
                one(c)
            x.close(tag_of(lp.name))

        for lp in m.loops:
            one(lp)
        x.close("SummaryOfLoopViolations")
    x.close("SummaryOfViolations")


def overall_xml(x, m, clk, top):
    lat = m.latency
    interval = Ranged(lat.lo + 1, lat.hi + 1) if top and not m.dataflow and m.ptype != "yes" else m.interval
    x.leaf("Best-caseLatency", lat.lo)
    x.leaf("Average-caseLatency", lat.lo if lat.exact else "undef")
    x.leaf("Worst-caseLatency", lat.hi)
    x.leaf("Best-caseRealTimeLatency", fmt_time(lat.lo * clk))
    x.leaf("Average-caseRealTimeLatency", fmt_time(lat.lo * clk) if lat.exact else "undef")
    x.leaf("Worst-caseRealTimeLatency", fmt_time(lat.hi * clk))
    return interval


def module_xml(x, d, m, clk, top=False):
    x.open("Module")
    x.leaf("Name", m.name)
    if m.loops:
        x.open("Loops")
        for lp in m.loops:
            loop_names(x, lp)
        x.close("Loops")
    x.open("PerformanceEstimates")
    x.open("SummaryOfTimingAnalysis")
    x.leaf("TargetClockPeriod", "10.00")
    x.leaf("ClockUncertainty", "2.70")
    x.leaf("EstimatedClockPeriod", m.clock or d.clock_est)
    x.close("SummaryOfTimingAnalysis")
    x.open("SummaryOfOverallLatency")
    interval = overall_xml(x, m, clk, top)
    x.leaf("PipelineInitiationInterval", text_range(interval))
    x.leaf("PipelineType", m.ptype)
    x.close("SummaryOfOverallLatency")
    if m.loops:
        x.open("SummaryOfLoopLatency")
        for lp in m.loops:
            loop_xml(x, d, lp, clk, True)
        x.close("SummaryOfLoopLatency")
    if d.version >= "2023":
        violations_xml(x, d, m)
    x.close("PerformanceEstimates")
    x.open("AreaEstimates")
    x.open("Resources")
    for k in ("BRAM_18K", "DSP", "FF", "LUT", "URAM"):
        v = m.res.get(k, 0)
        x.leaf(k, v)
        x.leaf(f"AVAIL_{k.split('_')[0]}", AVAIL[k])
        x.leaf(f"UTIL_{k.split('_')[0]}", util(v, AVAIL[k]))
    x.close("Resources")
    x.close("AreaEstimates")
    if m.binds:
        x.open("BindNodes")
        for b in m.binds:
            x.raw(b)
        x.close("BindNodes")
    x.close("Module")


def all_modules(m, seen=None):
    """Children before parents, each module once (the order Vitis writes ModuleInformation in)."""
    seen = set() if seen is None else seen
    out = []
    for _, c in m.insts:
        out += all_modules(c, seen)
    if m.name not in seen:
        seen.add(m.name)
        out.append(m)
    return out


def max_depth(m):
    return 1 + max((max_depth(c) for _, c in m.insts), default=0)


def hierarchy_xml(x, m, ids):
    if not m.insts:
        return
    x.open("InstancesList")
    for inst, c in m.insts:
        x.open("Instance")
        x.leaf("InstName", inst)
        x.leaf("ModuleName", c.name)
        x.leaf("IsCompInst", "true")
        x.leaf("ID", ids[inst])
        hierarchy_xml(x, c, ids)
        x.close("Instance")
    x.close("InstancesList")


def port(x, name, obj, typ, proto, direction, bits, attr, ctype=None, hasctrl=False):
    x.open("RtlPorts")
    x.leaf("name", name)
    x.leaf("Object", obj)
    x.leaf("Type", typ)
    x.leaf("Scope")
    x.leaf("IOProtocol", proto)
    x.leaf("IOConfig")
    x.leaf("Dir", direction)
    x.leaf("Bits", bits)
    x.leaf("Attribute", attr)
    if ctype:
        x.leaf("CType", ctype)
    if hasctrl:
        x.leaf("HasCtrl", 1)
    x.close("RtlPorts")


def ports_xml(x, d):
    x.open("InterfaceSummary")
    if d.control == "ap_ctrl_chain":
        for sig, direction, bits in (("AWVALID", "in", 1), ("AWREADY", "out", 1), ("AWADDR", "in", 6),
                                     ("WVALID", "in", 1), ("WREADY", "out", 1), ("WDATA", "in", 32),
                                     ("WSTRB", "in", 4), ("ARVALID", "in", 1), ("ARREADY", "out", 1),
                                     ("ARADDR", "in", 6), ("RVALID", "out", 1), ("RREADY", "in", 1),
                                     ("RDATA", "out", 32), ("RRESP", "out", 2), ("BVALID", "out", 1),
                                     ("BREADY", "in", 1), ("BRESP", "out", 2)):
            port(x, f"s_axi_control_{sig}", "control", "scalar", "s_axi", direction, bits, "unknown", "int", True)
        for sig, direction in (("ap_clk", "in"), ("ap_rst_n", "in"), ("interrupt", "out")):
            port(x, sig, d.top, "return value", "ap_ctrl_chain", direction, 1, "control")
    else:
        for sig, direction in (("ap_clk", "in"), ("ap_rst", "in"), ("ap_start", "in"), ("ap_done", "out"),
                               ("ap_idle", "out"), ("ap_ready", "out")):
            port(x, sig, d.top, "return value", "ap_ctrl_hs", direction, 1, "control")
    for b in d.maxi:
        for sig, direction, bits in (("AWVALID", "out", 1), ("AWREADY", "in", 1), ("AWADDR", "out", 64),
                                     ("AWLEN", "out", 8), ("WVALID", "out", 1), ("WREADY", "in", 1),
                                     ("WDATA", "out", 32), ("WLAST", "out", 1), ("ARVALID", "out", 1),
                                     ("ARREADY", "in", 1), ("ARADDR", "out", 64), ("ARLEN", "out", 8),
                                     ("RVALID", "in", 1), ("RREADY", "out", 1), ("RDATA", "in", 32),
                                     ("RLAST", "in", 1), ("BVALID", "in", 1), ("BREADY", "out", 1)):
            port(x, f"m_axi_{b}_{sig}", b, "pointer", "m_axi", direction, bits, "signal", "int")
    for name, direction, ctype, kind, extra in d.args:
        if kind == "ap_memory":
            addr_bits = extra["addr_bits"]
            nports = extra.get("ports", 1)
            for p in range(nports):
                port(x, f"{name}_address{p}", name, "array", "ap_memory", "out", addr_bits, "signal", "int")
                port(x, f"{name}_ce{p}", name, "array", "ap_memory", "out", 1, "signal", "int")
                if direction in ("in", "inout"):
                    port(x, f"{name}_q{p}", name, "array", "ap_memory", "in", extra.get("bits", 32), "signal", "int")
                if direction in ("out", "inout"):
                    port(x, f"{name}_we{p}", name, "array", "ap_memory", "out", 1, "signal", "int")
                    port(x, f"{name}_d{p}", name, "array", "ap_memory", "out", extra.get("bits", 32), "signal", "int")
        elif kind == "ap_none":
            port(x, name, name, "scalar", "ap_none", "in", extra.get("bits", 32), "signal", "int")
        elif kind == "ap_none_array":
            for k in range(extra["elements"]):
                port(x, f"{name}_{k}", name, "array", "ap_none", "in", 32, "signal", "int")
        elif kind == "ap_vld":
            port(x, name, name, "pointer", "ap_vld", "out", 32, "signal", "int")
            port(x, f"{name}_ap_vld", name, "pointer", "ap_vld", "out", 1, "control", "int")
        elif kind == "ap_return":
            port(x, "ap_return", d.top, "return value", "ap_ctrl_hs", "out", 32, "unknown", "int")
    x.close("InterfaceSummary")


def hw_interface_xml(x, d):
    x.open("ReportHWInterface")
    x.open("section", ' name="HW Interfaces" level="0"')
    if d.maxi:
        x.open("item", ' name="M_AXI"')
        x.open("table", ' isCollapsed="0"')
        x.leaf("keys", "Interface, Data Width (SW->HW), Address Width, Latency, Offset, Register, Max Widen "
               "Bitwidth, Max Read Burst Length, Max Write Burst Length, Num Read Outstanding, Num Write "
               "Outstanding", ' size="11"')
        for b in d.maxi:
            x.leaf("column", "32 -> 512, 64, 64, slave, 0, 512, 16, 16, 16, 16, , , , ", f' name="m_axi_{b}"')
        x.close("table")
        x.close("item")
        x.open("item", ' name="S_AXILITE Interfaces"')
        x.open("table", ' isCollapsed="0"')
        x.leaf("keys", "Interface, Data Width, Address Width, Offset, Register", ' size="5"')
        x.leaf("column", "32, 6, 16, 0, , , , , ", ' name="s_axi_control"')
        x.close("table")
        x.close("item")
    x.open("item", ' name="TOP LEVEL CONTROL"')
    x.open("table", ' isCollapsed="0"')
    x.leaf("keys", "Interface, Type, Ports", ' size="3"')
    if d.control == "ap_ctrl_chain":
        x.leaf("column", "clock, ap_clk, ", ' name="ap_clk"')
        x.leaf("column", "reset, ap_rst_n, ", ' name="ap_rst_n"')
        x.leaf("column", "interrupt, interrupt, ", ' name="interrupt"')
        x.leaf("column", "ap_ctrl_chain, , ", ' name="ap_ctrl"')
    else:
        x.leaf("column", "clock, ap_clk, ", ' name="ap_clk"')
        x.leaf("column", "reset, ap_rst, ", ' name="ap_rst"')
        x.leaf("column", "ap_ctrl_hs, ap_done ap_idle ap_ready ap_start, ", ' name="ap_ctrl"')
    x.close("table")
    x.close("item")
    x.close("section")
    x.close("ReportHWInterface")
    x.open("ReportSWInterface")
    x.open("section", ' name="SW I/O Information" level="0"')
    x.open("item", ' name="Top Function Arguments"')
    x.open("table", ' isCollapsed="1"')
    x.leaf("keys", "Argument, Direction, Datatype", ' size="3"')
    for name, direction, ctype, kind, extra in d.args:
        x.leaf("column", f"{direction}, {ctype}", f' name="{name}"')
    x.close("table")
    x.close("item")
    x.close("section")
    x.close("ReportSWInterface")


def pragmas(d):
    """(type, options, line, function) of every #pragma HLS in kernel.cpp."""
    out = []
    func = ""
    for i, text in enumerate(d.kernel_lines, 1):
        m = re.match(r"^(?:static\s+)?[A-Za-z_][\w:<>\s\*&]*?\b(\w+)\s*\(", text)
        if m and not text.startswith(" ") and text.rstrip().endswith("{"):
            func = m.group(1)
        p = re.match(r"\s*#pragma\s+HLS\s+(\w+)\s*(.*)", text, re.I)
        if p:
            out.append((p.group(1).lower(), p.group(2).strip(), i, func))
    return out


def write_xml(d, top, clk=10.0):
    x = X()
    x.raw(f"<!-- {d.header} -->")
    x.open("profile")
    x.open("ReportVersion")
    x.leaf("Version", d.version)
    x.close("ReportVersion")
    x.open("UserAssignments")
    x.leaf("unit", "ns")
    x.leaf("ProductFamily", "zynquplus")
    x.leaf("Part", "xck26-sfvc784-2LV-c")
    x.leaf("TopModelName", d.top)
    x.leaf("TargetClockPeriod", "10.00")
    x.leaf("ClockUncertainty", "2.70")
    x.leaf("FlowTarget", d.flow)
    x.close("UserAssignments")
    x.open("PerformanceEstimates")
    x.leaf("PipelineType", top.ptype)
    x.open("SummaryOfTimingAnalysis")
    x.leaf("unit", "ns")
    x.leaf("EstimatedClockPeriod", d.clock_est)
    x.close("SummaryOfTimingAnalysis")
    x.open("SummaryOfOverallLatency")
    x.leaf("unit", "clock cycles")
    interval = overall_xml(x, top, clk, True)
    x.leaf("Interval-min", interval.lo)
    x.leaf("Interval-max", interval.hi)
    x.close("SummaryOfOverallLatency")
    if top.loops:
        x.open("SummaryOfLoopLatency")
        for lp in top.loops:
            loop_xml(x, d, lp, clk, False)
        x.close("SummaryOfLoopLatency")
    if d.version >= "2023":
        violations_xml(x, d, top)
    x.close("PerformanceEstimates")
    mods = all_modules(top)
    total = {k: sum(m.res.get(k, 0) for m in mods) for k in AVAIL}
    x.open("AreaEstimates")
    x.open("Resources")
    for k in ("BRAM_18K", "DSP", "FF", "LUT", "URAM"):
        x.leaf(k, total[k])
    x.close("Resources")
    x.open("AvailableResources")
    for k in ("BRAM_18K", "DSP", "FF", "LUT", "URAM"):
        x.leaf(k, AVAIL[k])
    x.close("AvailableResources")
    x.close("AreaEstimates")
    ports_xml(x, d)
    # Instance ids: a counter in call order, as the fu_<N> / _U0 suffixes Vitis gives.
    ids = {}
    nid = [1]

    def number(m):
        for inst, c in m.insts:
            ids[inst] = int(re.search(r"(\d+)$", inst).group(1)) if re.search(r"_fu_\d+$", inst) else nid[0]
            nid[0] += 1
            number(c)

    number(top)
    x.open("RTLDesignHierarchy")
    x.open("TopModule", f' MAX_DEPTH="{max_depth(top)}"')
    x.leaf("ModuleName", top.name)
    hierarchy_xml(x, top, ids)
    x.close("TopModule")
    x.close("RTLDesignHierarchy")
    x.open("ModuleInformation")
    for m in mods:
        module_xml(x, d, m, clk, top=(m is top))
    x.close("ModuleInformation")
    x.leaf("FIFOInformation")
    x.leaf("UserConfigCommands")
    x.open("Args")
    for idx, (name, direction, ctype, kind, extra) in enumerate(d.args):
        if kind == "ap_return":
            continue
        x.open("Arg", f' ArgName="{name}" index="{idx}" direction="{direction}" srcType="{escape(ctype)}" srcSize="32"')
        x.open("hwRefs")
        if kind.startswith("m_axi:"):
            b = kind.split(":")[1]
            x.leaf("hwRef", None, f' type="interface" interface="m_axi_{b}" name="" usage="data" direction="{direction}"')
            x.leaf("hwRef", None, f' type="register" interface="s_axi_control" name="{name}_1" usage="address" direction="in"')
            x.leaf("hwRef", None, f' type="register" interface="s_axi_control" name="{name}_2" usage="address" direction="in"')
        elif kind == "s_axilite":
            x.leaf("hwRef", None, f' type="register" interface="s_axi_control" name="{name}" usage="data" direction="in"')
        elif kind == "ap_memory":
            ports = extra.get("ports", 1)
            for p in range(ports):
                x.leaf("hwRef", None, f' type="port" interface="{name}_address{p}" name="{name}_address{p}" usage="address" direction="out"')
        else:
            x.leaf("hwRef", None, f' type="port" interface="{name}" name="{name}" usage="data" direction="{direction}"')
        x.close("hwRefs")
        x.close("Arg")
    x.close("Args")
    hw_interface_xml(x, d)
    x.open("ReportBurst")
    x.leaf("section", None, ' name="M_AXI Burst Information" level="0" HEADER_NOTE="Note: All burst requests might be '
           'further partitioned into multiple requests during RTL generation based on max_read_burst_length or '
           'max_write_burst_length settings."')
    x.close("ReportBurst")
    x.open("PragmaReport")
    for typ, opts, line, func in pragmas(d):
        x.leaf("Pragma", None, f' type="{typ}" location="{src_loc(d, line)}" status="valid" parentFunction="{func}" '
               f'variable="" isDirective="0" options="{escape(opts)}"')
    x.close("PragmaReport")
    x.close("profile")
    return "\n".join(x.lines) + "\n"


# ----------------------------------------------------------------------------------------- RPT


def rpt_rows(d, top, clk):
    rows = []

    def res_cells(m):
        cells = []
        for k in ("BRAM_18K", "DSP", "FF", "LUT"):
            v = m.res.get(k, 0)
            cells.append("-" if v == 0 else f"{v} ({util(v, AVAIL[k])}%)")
        cells.append("-")
        return cells

    def mod(m, level, is_top):
        lat = m.latency
        interval = Ranged(lat.lo + 1, lat.hi + 1) if is_top and not m.dataflow and m.ptype != "yes" else m.interval
        name = "|" + " " * level + "+ " + m.name + ("*" if m.dataflow else "")
        pipelined = "dataflow" if m.dataflow else ("yes" if m.ptype == "yes" else "no")
        rows.append([name, "-", "0.00" if is_top else "2.73", str(lat.hi), rpt_ns(lat.hi * clk), "-",
                     str(interval.hi), "-", pipelined] + res_cells(m))
        inloop = {i for lp in m.loops for i in loop_insts(lp)}
        insts = dict(m.insts)
        for inst, c in m.insts:
            if inst not in inloop:
                mod(c, level + 1, False)
        for lp in m.loops:
            loop(lp, level + 1, insts)

    def loop_insts(lp):
        out = list(lp.insts)
        for c in lp.loops:
            out += loop_insts(c)
        return out

    def loop(lp, level, insts):
        name = "|" + " " * level + "o " + lp.name
        it = str(lp.depth) if lp.pipelined else str(lp.iter_lat.hi)
        ii = str(lp.ii) if lp.pipelined else "-"
        rows.append([name, "-", "7.30", str(lp.latency.hi), rpt_ns(lp.latency.hi * clk), it, ii, str(lp.tc.hi),
                     "yes" if lp.pipelined else "no", "-", "-", "-", "-", "-"])
        for i in lp.insts:
            mod(insts[i], level + 1, False)
        for c in lp.loops:
            loop(c, level + 1, insts)

    mod(top, 0, True)
    return rows


def table(header1, header2, rows, first_left=True):
    n = len(header1)
    widths = [max(len(header1[i]), len(header2[i]), *(len(r[i]) for r in rows)) + (1 if i else 0) for i in range(n)]
    # The first column is written "|+ name" (the bar is part of the text); pad to width.
    widths[0] = max(widths[0], max(len(r[0]) for r in rows) + 1)
    sep = "    +" + "+".join("-" * w for w in widths) + "+"

    def center(t, w):
        pad = w - len(t)
        return " " * (pad - pad // 2) + t + " " * (pad // 2)

    def hdr(h):
        return "    |" + "|".join(center(t, widths[i]) for i, t in enumerate(h)) + "|"

    out = [sep, hdr(header1), hdr(header2), sep]
    for r in rows:
        cells = [r[0][1:].ljust(widths[0])] + [r[i].rjust(widths[i]) for i in range(1, n)]
        out.append("    |" + "|".join(cells) + "|")
    out.append(sep)
    return out


def simple_table(header1, header2, rows):
    """The plain tables below the performance one: "| cell |", left-aligned, header on one or two lines."""
    rows = [[r[0][1:]] + r[1:] for r in rows]
    n = len(header1)
    widths = [max(len(header1[i]), len(header2[i]), *(len(r[i]) for r in rows)) for i in range(n)]
    sep = "+" + "+".join("-" * (w + 2) for w in widths) + "+"
    out = [sep, "| " + " | ".join(header1[i].ljust(widths[i]) for i in range(n)) + " |"]
    if any(header2):
        out.append("| " + " | ".join(header2[i].ljust(widths[i]) for i in range(n)) + " |")
    out.append(sep)
    for r in rows:
        out.append("| " + " | ".join(r[i].ljust(widths[i]) for i in range(n)) + " |")
    out.append(sep)
    return out


def write_rpt(d, top, clk=10.0):
    rows = rpt_rows(d, top, clk)
    h1 = ["Modules", "Issue", "", "Latency", "Latency", "Iteration", "", "Trip", "", "", "", "", "", ""]
    h2 = ["& Loops", "Type", "Slack", "(cycles)", "(ns)", "Latency", "Interval", "Count", "Pipelined", "BRAM",
          "DSP", "FF", "LUT", "URAM"]
    lines = ["", "", "=" * 64, f"== Synthesis Summary Report of '{d.top}'", "=" * 64, "+ General Information: ",
             "    * Date:           (hand-written for hlsinstr tests/cycle; not produced by Vitis)",
             f"    * Version:        {d.version} (Build 3670227 on Oct 13 2022)" if d.version == "2022.2"
             else f"    * Version:        {d.version} (Build 4023990 on Oct 11 2023)",
             f"    * Project:        {d.source_dir}",
             "    * Solution:       solution1 (" + ("Vitis Kernel Flow Target" if d.flow == "vitis"
                                                   else "Vivado IP Flow Target") + ")",
             "    * Product family: zynquplus", "    * Target device:  xck26-sfvc784-2LV-c", "    ", "",
             "+ Performance & Resource Estimates: ", "    ", "    PS: '+' for module; 'o' for loop; '*' for dataflow"]
    lines += table(h1, h2, rows)
    lines += ["", "", "=" * 64, "== HW Interfaces", "=" * 64]
    if d.maxi:
        lines += ["* M_AXI"]
        mh = ["Interface", "Data Width", "Address Width", "Latency", "Offset", "Register", "Max Widen",
              "Max Read", "Max Write", "Num Read", "Num Write"]
        mh2 = ["", "(SW->HW)", "", "", "", "", "Bitwidth", "Burst Length", "Burst Length", "Outstanding",
               "Outstanding"]
        mrows = [[f"|m_axi_{b}", "32 -> 512", "64", "64", "slave", "0", "512", "16", "16", "16", "16"]
                 for b in d.maxi]
        lines += simple_table(mh, mh2, mrows)
        lines += ["", "* S_AXILITE Interfaces"]
        lines += simple_table(["Interface", "Data Width", "Address Width", "Offset", "Register"],
                                       ["", "", "", "", ""], [["|s_axi_control", "32", "6", "16", "0"]])
        lines += [""]
    lines += ["* TOP LEVEL CONTROL"]
    if d.control == "ap_ctrl_chain":
        crow = [["|ap_clk", "clock", "ap_clk"], ["|ap_rst_n", "reset", "ap_rst_n"],
                ["|interrupt", "interrupt", "interrupt"], ["|ap_ctrl", "ap_ctrl_chain", ""]]
    else:
        crow = [["|ap_clk", "clock", "ap_clk"], ["|ap_rst", "reset", "ap_rst"],
                ["|ap_ctrl", "ap_ctrl_hs", ""]]
    lines += simple_table(["Interface", "Type", "Ports"], ["", "", ""], crow)
    lines += ["", "", "=" * 64, "== SW I/O Information", "=" * 64, "* Top Function Arguments"]
    arows = [[f"|{n}", direction, ctype] for n, direction, ctype, kind, extra in d.args]
    lines += simple_table(["Argument", "Direction", "Datatype"], ["", "", ""], arows)
    lines += ["", "", "=" * 64, "== Pragma Report", "=" * 64, "* Valid Pragma Syntax"]
    prows = [[f"|{t}", o, f"{src_loc(d, ln)} in {fn}"] for t, o, ln, fn in pragmas(d)]
    if prows:
        lines += simple_table(["Type", "Options", "Location"], ["", "", ""], prows)
    lines += ["", ""]
    return "\n".join(lines) + "\n"
