# SPDX-License-Identifier: GPL-2.0-or-later
#
# memprof_records -- the typed records of memprof's JSON output: one
# class per object of the format (docs/json-format.md), whose fields are
# its keys (`from` is `from_`, `class` is `class_`).  memprof_reader.py
# makes them from a file and exports them; import them from there.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.

import dataclasses
from typing import Any, NamedTuple


class Bin(NamedTuple):
    """A histogram row [lo, hi, count]; hi None for infinity."""
    lo: int
    hi: int | None
    count: int


class Median(NamedTuple):
    """The bin [lo, hi] of a reuse histogram that holds the median."""
    lo: int
    hi: int | None


class ByteRange(NamedTuple):
    """Bytes first to last of a line, both included."""
    first: int
    last: int


class Interval(NamedTuple):
    """The 95% interval [lo, hi] of an estimate (--sample=lines)."""
    lo: int
    hi: int


class Affinity(NamedTuple):
    """The affinity w of fields i < j of a struct."""
    i: int
    j: int
    w: float


def _model(cls):
    # Slots: a misspelt attribute is an error, and files of hundreds of
    # thousands of objects read faster than with frozen classes.
    return dataclasses.dataclass(slots=True)(cls)


@_model
class End:
    by: str | None = None           # "exit", "signal" or "exec"
    status: int | None = None       # with "exit"


@_model
class Level:
    name: str
    size: int | None = None
    assoc: int | None = None
    line: int | None = None
    shared_by: int | None = None
    latency: int | None = None
    cause_sample_rate: float | None = None


@_model
class PrefetchConfig:
    kind: str | None = None
    streams: int | None = None
    level: str | None = None


@_model
class ReuseConfig:
    sample: str | None = None
    rate: float | None = None
    window: int | None = None
    max_gap: int | None = None
    weight: float | None = None
    estimated: bool | None = None


@_model
class SamplingConfig:
    mode: str | None = None         # "periodic", "windows" or "lines"
    window: int | None = None
    period: int | None = None
    max_gap: int | None = None
    windows: int | None = None
    instructions: int | None = None
    instructions_analysed: int | None = None
    scale: float | None = None
    # mode "lines": the sampled fraction of the lines (sets of l1_sets
    # of the L1's sets), the fewest sampled lines a variable's cache
    # estimates need, and the accesses no variable's.
    rate: float | None = None
    sets: int | None = None
    l1_sets: int | None = None
    min_lines: int | None = None
    unattributed_accesses: int | None = None


@_model
class DetailConfig:
    analyses: list[str] | None = None
    sample: str | None = None
    window: int | None = None
    period: int | None = None
    windows: int | None = None
    instructions: int | None = None
    instructions_analysed: int | None = None
    scale: float | None = None
    weight: int | None = None
    accesses: int | None = None


@_model
class StrideConfig:
    history: int | None = None
    mode: str | None = None
    threshold: int | None = None


@_model
class TlbConfig:
    entries: int | None = None
    assoc: int | None = None
    page: int | None = None


@_model
class Config:
    line: int | None = None
    collect_atstart: bool | None = None
    toggle_collect: list[str] | None = None
    min_var_size: int | None = None
    # With the cache simulation only (see the module's comment).
    levels: list[Level] | None = None
    miss_causes: str | None = None
    prefetch: PrefetchConfig | None = None
    memory_latency: int | None = None
    cores: int | None = None
    cores_per_socket: int | None = None
    sockets: int | None = None
    tlb: TlbConfig | None = None
    levels_source: str | None = None
    levels_fallback_reason: str | None = None
    reuse: ReuseConfig | None = None
    page_size: int | None = None
    sharing: bool | None = None
    strides: StrideConfig | None = None
    sampling: SamplingConfig | None = None
    detail: DetailConfig | None = None
    # The object as written, every key in the file's order, those this
    # reader does not know too: for a program that prints the settings.
    settings: dict[str, Any] = dataclasses.field(default_factory=dict)


@_model
class ConflictVariable:
    name: str | None = None
    conflicts: int | None = None
    error: int | None = None


@_model
class ConflictSet:
    set: int | None = None
    conflicts: int | None = None
    variables: list[ConflictVariable] = dataclasses.field(
        default_factory=list)


@_model
class TotalLevel:
    accesses: int | None = None
    hits: int | None = None
    misses: int | None = None
    cold: int | None = None
    capacity: int | None = None
    conflict: int | None = None
    coherence: int | None = None
    writebacks: int | None = None
    invalidations: int | None = None
    prefetched: int | None = None
    mpki: float | None = None
    conflict_sets: list[ConflictSet] | None = None


@_model
class TlbCounts:
    accesses: int | None = None
    misses: int | None = None
    mpki: float | None = None


@_model
class PrefetchCounts:
    requests: int | None = None
    issued: int | None = None
    useful: int | None = None
    useless: int | None = None


@_model
class Totals:
    reads: int | None = None
    writes: int | None = None
    read_bytes: int | None = None
    write_bytes: int | None = None
    accesses: int | None = None
    variables: int | None = None
    threads: int | None = None
    # With the cache simulation: cache is keyed by level name, a level
    # the file lacks being None.
    cache: dict[str, TotalLevel | None] | None = None
    cycles: int | None = None
    cpa: float | None = None
    instructions: int | None = None
    tlb: TlbCounts | None = None
    prefetch: PrefetchCounts | None = None


@_model
class VarLevel:
    hits: int | None = None
    misses: int | None = None
    cold: int | None = None
    capacity: int | None = None
    conflict: int | None = None
    coherence: int | None = None
    writebacks: int | None = None
    fills: int | None = None
    reused_fills: int | None = None
    prefetched: int | None = None
    covered: int | None = None
    fill_hits: int | None = None
    hits_per_fill: float | None = None
    reused_share: float | None = None


@_model
class VarIntervals:
    """The 95% intervals of a variable's estimates (--sample=lines):
    misses keyed by level name, as the variable's cache."""
    accesses: Interval | None = None
    misses: dict[str, Interval | None] | None = None
    cycles: Interval | None = None
    stall_cycles: Interval | None = None


@_model
class VarTlb:
    hits: int | None = None
    misses: int | None = None


@_model
class StrideClasses:
    zero: int | None = None
    unit: int | None = None
    within_line: int | None = None
    beyond_line: int | None = None


@_model
class Dominant:
    bytes: int
    count: int
    lines: float | None = None
    share: float | None = None


@_model
class Strides:
    load: list[list[Bin]]               # histogram k is load[k - 1]
    store: list[list[Bin]]
    # {"load": [n per histogram], "store": [...]}, both always there.
    negative: dict[str, list[int]] = dataclasses.field(default_factory=dict)
    classes: StrideClasses = dataclasses.field(default_factory=StrideClasses)
    dominant: Dominant | None = None

    def hists(self, kind):
        """The histograms of "load" or "store"."""
        return self.load if kind == "load" else self.store


@_model
class Reuse:
    private: list[Bin]
    shared: list[Bin]
    cold: int | None = None
    mean_private: float | None = None
    mean_shared: float | None = None
    median_private: Median | None = None
    median_shared: Median | None = None


@_model
class LineReuse:
    private: list[Bin] | None = None
    shared: list[Bin] | None = None
    cold: int | None = None
    mean_private: float | None = None
    mean_shared: float | None = None


@_model
class LineStride:
    """The dominant stride of a location's own instructions."""
    bytes: int
    share: float | None = None
    strides: int | None = None
    loop: int | None = None
    loop_where: str | None = None


@_model
class LineRow:
    """A per_line row: the accesses of one source location."""
    where: str | None
    fn: str | None
    reads: int
    writes: int
    read_bytes: int | None = None
    write_bytes: int | None = None
    misses: dict[str, int | None] | None = None   # with the simulation
    cycles: int | None = None                     # with the simulation
    cpa: float | None = None
    reuse: LineReuse | None = None
    invalidations: int | None = None
    coherence_misses: int | None = None
    transfers: int | None = None
    strides: StrideClasses | None = None
    stride: LineStride | None = None


@_model
class LineThread:
    """A thread's accesses to a worst line."""
    thread: int
    reads: int | None = None
    writes: int | None = None
    read_bytes: list[ByteRange] = dataclasses.field(default_factory=list)
    write_bytes: list[ByteRange] = dataclasses.field(default_factory=list)
    where: list[str | None] = dataclasses.field(default_factory=list)


@_model
class WorstLine:
    line: str
    kind: str
    offset: int | None = None
    false_pairs: int | None = None
    true_pairs: int | None = None
    transfers: int | None = None
    predicted_transfers: int | None = None
    predicted_false_transfers: int | None = None
    predicted_invalidations: int | None = None
    threads: list[LineThread] = dataclasses.field(default_factory=list)


@_model
class WhatIf:
    """A what-if replay: before and after hold the misses of each level
    by name, "coherence" and "cycles"."""
    accesses: int | None = None
    complete: bool | None = None
    before: dict[str, int] | None = None
    after: dict[str, int] | None = None


@_model
class Placements:
    """At which offsets of a line the variable's heap blocks would
    falsely share: the evaluated placements are 0, step, 2 step, ...;
    current is the first block's start modulo the line."""
    step: int
    evaluated: int
    current: int
    blocks: int | None = None
    false_at: list[int] = dataclasses.field(default_factory=list)


@_model
class Sharing:
    shared_lines: int | None = None
    true_lines: int | None = None
    false_lines: int | None = None
    predicted_transfers: int | None = None
    predicted_true_transfers: int | None = None
    predicted_false_transfers: int | None = None
    predicted_invalidations: int | None = None
    transfers: int | None = None
    true_transfers: int | None = None
    false_transfers: int | None = None
    invalidations: int | None = None
    invalidations_suffered: int | None = None
    coherence_misses: int | None = None
    worst_lines: list[WorstLine] = dataclasses.field(default_factory=list)
    what_if_pad: WhatIf | None = None
    placements: Placements | None = None


@_model
class FirstTouch:
    thread: int
    socket: int
    pages: int


@_model
class Numa:
    local: int | None = None
    remote: int | None = None
    pages: int | None = None
    remote_memory: int | None = None
    hit_ratio: float | None = None
    first_touch: list[FirstTouch] = dataclasses.field(default_factory=list)


@_model
class Field:
    offset: int
    name: str | None = None
    size: int | None = None
    accesses: int | None = None
    share: float | None = None
    loops: list[int] = dataclasses.field(default_factory=list)


@_model
class Struct:
    size: int
    fields: list[Field]
    overlapping: bool | None = None
    covered: float | None = None
    by_count: bool | None = None
    split: str | None = None
    affinity: list[Affinity] = dataclasses.field(default_factory=list)
    groups: list[list[int]] = dataclasses.field(default_factory=list)
    what_if: WhatIf | None = None


@_model
class Variable:
    name: str
    kind: str
    reads: int
    writes: int
    where: str | None = None
    size: int | None = None
    read_bytes: int | None = None
    write_bytes: int | None = None
    threads: int | None = None
    lines: int | None = None
    per_line: list[LineRow] | None = None
    # Heap sites, named ranges, stack variables, the fold.
    blocks: int | None = None
    alloc_bytes: int | None = None
    alloc_stack: list[str] | None = None
    named_by: str | None = None
    function: str | None = None
    folded: bool = False
    # The name a table shows (a C++ frame without its parameter list).
    label: str | None = None
    # Whose code owns it (the key "class"; None in older files: the
    # program's) and that code's object.
    class_: str | None = None
    object: str | None = None
    # With the cache simulation (cache keyed by level name, served by
    # level name and "mem").
    cache: dict[str, VarLevel | None] | None = None
    served: dict[str, int | None] | None = None
    invalidations: int | None = None
    cycles: int | None = None
    stall_cycles: int | None = None
    cpa: float | None = None
    tlb: VarTlb | None = None
    # --sample=lines: its lines in the sample, whether they are enough
    # for its cache estimates (estimable False: its misses, cycles and
    # stall cycles mean nothing; its accesses are exact), the intervals.
    sampled_lines: int | None = None
    estimable: bool | None = None
    ci: VarIntervals | None = None
    # The analyses.
    strides: Strides | None = None
    reuse: Reuse | None = None
    sharing: Sharing | None = None
    numa: Numa | None = None
    struct: Struct | None = None


@_model
class Pair:
    """A communication pair."""
    count: int
    from_: str | None = None
    from_fn: str | None = None
    to: str | None = None
    to_fn: str | None = None
    variable: str | None = None
    true: int | None = None
    false: int | None = None


@_model
class Cell:
    """A cell of the communication matrix."""
    from_: int
    to: int
    true_lines: int | None = None
    false_lines: int | None = None
    bytes: int | None = None


@_model
class Matrix:
    threads: list[int]
    cells: list[Cell]


@_model
class Formula:
    formula: str
    where: str | None = None
    variable: str | None = None
    base: int | None = None
    in_block: bool | None = None
    fit: float | None = None
    accesses: int | None = None


@_model
class Loop:
    id: int
    first_line: int
    last_line: int
    function: str | None = None
    file: str | None = None
    depth: int | None = None
    parent: int | None = None
    entries: int | None = None
    iterations: int | None = None
    mean_iterations: float | None = None
    max_iterations: int | None = None
    accesses: int | None = None
    streams: int | None = None
    mean_streams: float | None = None
    flagged: bool | None = None
    formulas: list[Formula] = dataclasses.field(default_factory=list)
    # Whose code it is, as variables[].class (None in older files: the
    # program's), and that code's object.
    class_: str | None = None
    object: str | None = None


@_model
class Alternative:
    fix: str
    evidence: str | None = None
    holds: str | None = None
    loop: int | None = None
    with_loop: int | None = None
    replay: WhatIf | None = None


@_model
class Advice:
    kind: str
    text: str
    where: list[str | None] = dataclasses.field(default_factory=list)
    variable: str | None = None
    loop: int | None = None
    with_loop: int | None = None
    fused_loops: list[int] | None = None   # loop-fusion: the loops, in order
    evidence: str | None = None
    fix: str | None = None
    score: float | None = None
    reason: str | None = None          # items of "rejected" only
    replay: WhatIf | None = None       # loop-interchange: its nest replayed
    replayed: bool | None = None       # a what-if replay stands behind it
    holds: str | None = None           # how its fix holds as the problem grows
    alternatives: list[Alternative] = dataclasses.field(default_factory=list)


@_model
class MemprofFile:
    path: str
    version: int                    # the key "memprof"
    config: Config
    totals: Totals
    variables: list[Variable]
    tool_version: str | None = None
    command: str | None = None
    pid: int | None = None
    end: End | None = None
    partial: bool | None = None
    communication: list[Pair] | None = None
    communication_matrix: Matrix | None = None
    loops: list[Loop] | None = None
    advice: list[Advice] | None = None
    rejected: list[Advice] | None = None
    # The keys every version-1 file has that this one lacks, as paths
    # ("command", "variables[2].size"); [] for memprof's own output.
    missing: list[str] = dataclasses.field(default_factory=list)

    @property
    def level_names(self):
        """The names of the simulated levels, L1 first; None without a
        cache simulation."""
        if not self.config.levels:
            return None
        return [lv.name for lv in self.config.levels]
