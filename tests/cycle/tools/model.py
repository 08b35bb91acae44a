"""The timing model the cases' reports are written from (one place, so the numbers agree).

A case describes its design as a tree of modules and loops *as a function of its size parameters*
(trip counts). Evaluating the tree at the smallest and the largest parameters gives the report's
ranges; evaluating it at each testbench call's parameters gives the expected per-call cycles.

The rules (see ../README.md and /work/shared/facts/vitis-timing.md):
  pipelined loop      L = (TC - 1) * II + depth - 1          (0 when TC = 0)       fact 3
  non-pipelined loop  L = TC * iteration latency                                    fact 4
  _Pipeline_ module   L = loop latency + 2                                          facts 1, 3
  memcpy module       L = elements + 3  (Loop 1, II 1, depth 3)                     fact 1
  initialiser module  L = elements + 2  (Loop 1, II 1, depth 2)                     fact 1
  function module     L = its body + its own states (given per case)
"""


def pipelined_latency(tc, ii, depth):
    return 0 if tc == 0 else (tc - 1) * ii + depth - 1


class Loop:
    """A loop of a module. Pipelined when `ii` is given (then `depth`), else `iter_lat` is its
    iteration latency (which, for an outer loop, already includes the instances it calls)."""

    def __init__(self, name, tc, ii=None, depth=None, iter_lat=None, insts=(), loops=(), line=None):
        self.name = name
        self.tc = tc
        self.ii = ii
        self.depth = depth
        self.iter_lat = iter_lat
        self.insts = list(insts)  # instance names called in the loop body
        self.loops = list(loops)
        self.line = line
        if ii is not None:
            self.latency = pipelined_latency(tc, ii, depth)
        else:
            self.latency = tc * iter_lat

    @property
    def pipelined(self):
        return self.ii is not None


class Module:
    def __init__(self, name, latency, interval=None, ptype="no", loops=(), insts=(), clock=None,
                 res=None, binds=(), line=None, dataflow=False):
        self.name = name
        self.latency = latency
        # Vitis: a sequential module's interval is its latency (+1 for the top, set by the writer).
        self.interval = latency if interval is None else interval
        self.ptype = ptype
        self.loops = list(loops)
        self.insts = list(insts)  # (instance name, Module), in call order
        self.clock = clock
        self.res = res or {}
        self.binds = list(binds)
        self.line = line
        self.dataflow = dataflow


def pipeline_module(owner, label, tc, ii, depth, line=None, clock=None, res=None, waits=False):
    """`<owner>_Pipeline_<label>`: one pipelined loop, module latency = loop latency + 2 (in the
    report; see `rtl_saving`). `waits`: it runs in a dataflow region (a process of FIFOs)."""
    name = f"{owner}_Pipeline_{label}"
    lp = Loop("Loop 1" if label.isdigit() else label, tc, ii=ii, depth=depth, line=line)
    m = Module(name, lp.latency + 2, loops=[lp], clock=clock, res=res, line=line)
    m.waits = waits
    return m


RTL_WRAPPER_SAVING = 2


def rtl_saving(m, keep=False, varying=frozenset()):
    """Cycles one run of `m` takes less in the RTL than its report latency: a `<f>_Pipeline_<loop>`
    module the report gives one latency raises ap_done with its loop's last state, 2 before its
    report latency, on every run (docs/cycle-model.md, "Pipeline modules in the RTL"). Not one
    whose latency the report gives as a range (`varying`: its trips vary), not the generated
    `_Pipeline_<N>` modules, nor one in a dataflow region (`waits`), nor any in an m_axi function
    (`keep`)."""
    by_name = dict(m.insts)

    def inst(sub):
        label = sub.name.split("_Pipeline_", 1)[1] if "_Pipeline_" in sub.name else None
        own = (label is not None and not label.isdigit() and not keep and not getattr(sub, "waits", False)
               and sub.name not in varying)
        return (RTL_WRAPPER_SAVING if own else 0) + rtl_saving(sub, keep, varying)

    in_loops = set()

    def loop(lp):
        in_loops.update(lp.insts)
        return lp.tc * (sum(inst(by_name[n]) for n in lp.insts) + sum(loop(x) for x in lp.loops))

    total = sum(loop(lp) for lp in m.loops)
    return total + sum(inst(sub) for n, sub in m.insts if n not in in_loops)


def memcpy_module(owner, number, elements, clock=None):
    """A memcpy of `elements` words: `<owner>_Pipeline_<number>`, Loop 1, II 1, depth 3, L = elements + 3."""
    m = pipeline_module(owner, str(number), elements, 1, 3, clock=clock, res={"FF": 43, "LUT": 96})
    assert m.latency == elements + 3
    return m


def initialiser_module(owner, number, elements, clock=None):
    """An aggregate initialiser of `elements` words: `<owner>_Pipeline_<number>`, Loop 1, II 1, depth 2,
    L = elements + 2."""
    m = pipeline_module(owner, str(number), elements, 1, 2, clock=clock, res={"FF": 12, "LUT": 58})
    assert m.latency == elements + 2
    return m


class Ranged:
    """A value of the report: lo == hi when it is exact."""

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi

    @property
    def exact(self):
        return self.lo == self.hi


def varying_modules(a, b):
    """The names of the modules whose latency differs between the same tree evaluated at the
    smallest (a) and largest (b) parameters: the report gives them a range."""
    out = set()
    if a.latency != b.latency:
        out.add(a.name)
    for (_, ma), (_, mb) in zip(a.insts, b.insts):
        out |= varying_modules(ma, mb)
    return out


def merge(a, b):
    """The same tree evaluated at the smallest (a) and largest (b) parameters -> ranged tree."""
    if isinstance(a, Module):
        assert a.name == b.name, (a.name, b.name)
        m = Module(a.name, Ranged(a.latency, b.latency), Ranged(a.interval, b.interval), a.ptype,
                   [merge(x, y) for x, y in zip(a.loops, b.loops)],
                   [(ia, merge(ma, mb)) for (ia, ma), (_, mb) in zip(a.insts, b.insts)],
                   a.clock, a.res, a.binds, a.line, a.dataflow)
        return m
    if isinstance(a, Loop):
        assert a.name == b.name
        lp = Loop.__new__(Loop)
        lp.name, lp.ii, lp.depth, lp.insts, lp.line = a.name, a.ii, a.depth, a.insts, a.line
        lp.tc = Ranged(a.tc, b.tc)
        lp.latency = Ranged(a.latency, b.latency)
        lp.iter_lat = None if a.iter_lat is None else Ranged(a.iter_lat, b.iter_lat)
        lp.loops = [merge(x, y) for x, y in zip(a.loops, b.loops)]
        return lp
    raise TypeError(a)
