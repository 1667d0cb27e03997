# SPDX-License-Identifier: GPL-2.0-or-later
#
# memprof_reader -- reads memprof's JSON output (memprof.out.<pid>) into
# typed records: the one reader of the format, shared by memprof_annotate,
# the tests and the benchmark's scripts.  It checks the document and
# makes the records of memprof_records.py, which it exports too (import
# them from here).  docs/json-format.md is the reference.
#
# This file is part of memprof, a Valgrind tool that attributes memory
# accesses to data structures.  memprof/annotate/README.md lists the
# annotator's modules, bottom up.  The names private to the reader begin
# with an underscore.
"""Typed reader of memprof's JSON output, format version 1.

    f = read_file("memprof.out.1234")      # raises FormatError
    for v in f.variables:
        print(v.name, v.kind, v.reads + v.writes)

A key the file does not have is None (an empty list for the lists the
format writes as [] when empty): a metric that was not measured.  The
reader checks every key it knows has the right type and ignores keys it
does not know, as the format's stability rules ask.  It requires only
what memprof_annotate needs (the format version, totals, variables, and
the name, kind, reads and writes of every variable and the reads and
writes of every per_line row): it reads files written by hand or cut
down by tests too.  read_file(path, strict=True) also requires the other
keys that every version-1 file has, and MemprofFile.missing lists those
a file lacks.

The cache simulation's data (totals.cache, the variables' cache, served,
cycles, ..., the per_line rows' misses and cycles) is read only when the
totals show a simulation ("cache" or "cycles") and config.levels names
its levels: Config.levels and MemprofFile.level_names are then set, and
the per-level dictionaries are keyed by those names, in their order.  A
summary's misses (its "misses" object) become its cache, each level's
VarLevel with misses alone.
"""

import contextlib
import gc
import json

from memprof_records import (
    Advice, Alternative, Affinity, Bin, ByteRange, Cell, Config, ConflictSet,
    ConflictVariable, DetailConfig, Dominant, End, Field, FirstTouch,
    Formula, Interval, Level, LineReuse, LineRow, LineStride, LineThread,
    Loop, Matrix, Median, MemprofFile, Numa, Pair, Placements,
    PrefetchConfig, PrefetchCounts, Reuse, ReuseConfig, SamplingConfig,
    Sharing, StrideClasses, StrideConfig, Strides, Struct, TlbConfig,
    TlbCounts, Totals, TotalLevel, Variable, VarIntervals, VarLevel, VarTlb,
    WhatIf, WorstLine)

__all__ = [
    "FORMAT_VERSION", "FormatError", "read_file", "parse_document",
    "no_cycle_collection",
    "MemprofFile", "End", "Config", "Level", "PrefetchConfig",
    "ReuseConfig", "SamplingConfig", "DetailConfig", "StrideConfig", "TlbConfig", "Totals",
    "TotalLevel", "ConflictSet", "ConflictVariable", "TlbCounts",
    "PrefetchCounts", "Variable", "VarLevel", "VarTlb", "VarIntervals",
    "Interval", "LineRow",
    "Bin", "Median", "ByteRange", "Strides", "StrideClasses", "Dominant",
    "Reuse", "LineReuse", "LineStride", "Sharing", "WorstLine", "LineThread", "Numa",
    "FirstTouch", "WhatIf", "Struct", "Field", "Affinity", "Pair",
    "Matrix", "Cell", "Loop", "Formula", "Advice",
]

FORMAT_VERSION = 1          # the newest format version this reader knows


class FormatError(Exception):
    """The file is not memprof output, or not a version this reader knows:
    the message names the file and the key at fault."""


# ---------------------------------------------------------------------------
# Reading

def read_file(path, strict=False, program="reader"):
    """Reads and checks one file; returns a MemprofFile.  Raises
    FormatError, whose message begins with the path.  strict: also
    require every key a version-1 file has.  program: how the error for
    a newer format version names the reader."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise FormatError("%s: %s" % (path, e.strerror or e))
    if not raw.strip():
        raise FormatError("%s: empty file, not a memprof output file" % path)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError("%s: not a memprof output file (not UTF-8 text: "
                          "byte %d)" % (path, e.start))
    with no_cycle_collection():
        return parse_document(_decode(text, path), path, strict, program)


@contextlib.contextmanager
def no_cycle_collection():
    """Turns Python's cycle collector off while a file's objects are made:
    they hold no cycle, and the collector would scan the growing tree
    again and again (it took half of the time on files of 10 MB)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _decode(text, path):
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as e:
        # An error at the very end, or a string still open there, is a
        # file cut short (a partial copy, a full disk): say so.
        cut = (e.pos >= len(text.rstrip())
               or e.msg.startswith("Unterminated string"))
        msg = e.msg[:-3] if e.msg.endswith(" at") else e.msg
        raise FormatError("%s: invalid JSON%s: %s at line %d column %d"
                          % (path, " (the file ends early: truncated?)"
                             if cut else "", msg, e.lineno, e.colno))
    except (ValueError, RecursionError) as e:
        raise FormatError("%s: invalid JSON: %s" % (path, e))


def parse_document(doc, path="", strict=False, program="reader"):
    """The MemprofFile of an already parsed JSON document (see
    read_file); path names it in the messages."""
    if not isinstance(doc, dict):
        raise FormatError("%s: not a memprof output file (top level is not "
                          "an object)" % path)
    if "memprof" not in doc:
        raise FormatError("%s: not a memprof output file (missing required "
                          "key 'memprof')" % path)
    version = doc["memprof"]
    if not _is_int(version) or version < 1:
        raise FormatError("%s: bad format version %s"
                          % (path, _short(version)))
    if version > FORMAT_VERSION:
        raise FormatError("%s: format version %d is newer than this %s "
                          "understands (%d)"
                          % (path, version, program, FORMAT_VERSION))
    try:
        out = _file(doc, path, version)
    except FormatError as e:
        raise FormatError("%s: %s" % (path, e))
    if strict and out.missing:
        raise FormatError("%s: %s: missing required key '%s'"
                          % ((path,) + _split_path(out.missing[0])))
    return out


def _reject_constant(name):
    raise ValueError("invalid constant %s" % name)


def _split_path(p):
    where, _, key = p.rpartition(".")
    return (where or "(top level)", key)


# ---------------------------------------------------------------------------
# Checking a value's type: the messages name the key by its path in the
# document ("variables[3].per_line[0].reads").

def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _short(v):
    text = json.dumps(v, ensure_ascii=True)
    return text if len(text) <= 40 else text[:37] + "..."


def _sub(where, key):
    return key if not where else "%s.%s" % (where, key)


def _need(obj, key, where, kind):
    if key not in obj:
        if where:
            raise FormatError("%s: missing required key '%s'" % (where, key))
        raise FormatError("missing required key '%s'" % key)
    v = obj[key]
    if kind == "count" and type(v) is int and v >= 0:
        return v
    return _check(v, _sub(where, key), kind)


def _opt(obj, key, where, kind):
    """obj[key] checked, or None when absent or null."""
    v = obj.get(key)
    if v is None:
        return None
    # The common case first, without making the key's path: files hold
    # hundreds of thousands of counts.
    if kind == "count" and type(v) is int and v >= 0 \
            or kind == "str" and type(v) is str \
            or kind == "list" and type(v) is list \
            or kind == "object" and type(v) is dict \
            or kind == "number" and (type(v) is float or type(v) is int) \
            and v >= 0:
        return v
    return _check(v, _sub(where, key), kind)


def _check(v, where, kind):
    if kind == "count":
        if not _is_int(v) or v < 0:
            raise FormatError("%s: expected a non-negative integer, got %s"
                              % (where, _short(v)))
    elif kind == "int":
        if not _is_int(v):
            raise FormatError("%s: expected an integer, got %s"
                              % (where, _short(v)))
    elif kind == "number":
        if not _is_number(v) or v < 0:
            raise FormatError("%s: expected a non-negative number, got %s"
                              % (where, _short(v)))
    elif kind == "fraction":
        if not _is_number(v) or v < 0:
            raise FormatError("%s: expected a non-negative number, got %s"
                              % (where, _short(v)))
        if v > 1:
            raise FormatError("%s: expected a number from 0 to 1, got %s"
                              % (where, _short(v)))
    elif kind == "str":
        if not isinstance(v, str):
            raise FormatError("%s: expected a string, got %s"
                              % (where, _short(v)))
    elif kind == "bool":
        if not isinstance(v, bool):
            raise FormatError("%s: expected true or false, got %s"
                              % (where, _short(v)))
    elif kind == "list":
        if not isinstance(v, list):
            raise FormatError("%s: expected a list, got %s"
                              % (where, _short(v)))
    elif kind == "object":
        if not isinstance(v, dict):
            raise FormatError("%s: expected an object, got %s"
                              % (where, _short(v)))
    return v


def _opt_list(obj, key, where, item_kind):
    """obj[key], a list whose items are all of item_kind, or None."""
    items = _opt(obj, key, where, "list")
    if items is not None:
        for i, x in enumerate(items):
            _check(x, "%s[%d]" % (_sub(where, key), i), item_kind)
    return items


def _fields(obj, where, kinds):
    """Keyword arguments for the keys of kinds ({key: kind}), each
    checked as optional."""
    return dict((k, _opt(obj, k, where, kind)) for k, kind in kinds.items())


def _opt_object(obj, key, where, parse):
    """parse(obj[key], path) when obj has the object, else None."""
    v = _opt(obj, key, where, "object")
    return parse(v, _sub(where, key)) if v is not None else None


# ---------------------------------------------------------------------------
# The top level, config and totals

def _file(doc, path, version):
    command = _opt(doc, "command", "", "str")
    config_obj = _opt(doc, "config", "", "object") or {}
    if "line" in config_obj:
        _check(config_obj["line"], "config.line", "count")
    totals_obj = _need(doc, "totals", "", "object")
    # A cache simulation shows in the totals; config.levels alone (an
    # older file, or an empty list) is only a setting.
    levels = (_levels(config_obj)
              if "cache" in totals_obj or "cycles" in totals_obj else None)
    names = [lv.name for lv in levels] if levels else None
    totals = _totals(totals_obj, names)
    config = _config(config_obj, levels)
    variables = [_variable(v, "variables[%d]" % i, names)
                 for i, v in enumerate(_need(doc, "variables", "", "list"))]
    comm = _opt(doc, "communication", "", "list")
    comm = _communication(comm) if comm is not None else None
    matrix = _opt_object(doc, "communication_matrix", "", _matrix)
    advice = _opt(doc, "advice", "", "list")
    advice = _advice(advice) if advice is not None else None
    rejected = _opt(doc, "rejected", "", "list")
    rejected = (_advice(rejected, "rejected") if rejected is not None
                else None)
    loops = _opt(doc, "loops", "", "list")
    loops = _loops(loops) if loops is not None else None
    return MemprofFile(
        path=path, version=version, config=config, totals=totals,
        variables=variables, communication=comm,
        communication_matrix=matrix, advice=advice, rejected=rejected,
        loops=loops,
        tool_version=_opt(doc, "tool_version", "", "str"),
        command=command, pid=_opt(doc, "pid", "", "count"),
        end=_opt_object(doc, "end", "", _end),
        partial=_opt(doc, "partial", "", "bool"),
        missing=_missing_required(doc))


def _end(obj, where):
    return End(by=_opt(obj, "by", where, "str"),
               status=_opt(obj, "status", where, "int"))


def _levels(config):
    """The simulated cache levels of config.levels, or None when there
    are none (no levels, or an empty list)."""
    levels = _opt(config, "levels", "config", "list")
    if not levels:
        return None
    out, names = [], []
    for i, lv in enumerate(levels):
        lw = "config.levels[%d]" % i
        _check(lv, lw, "object")
        name = _need(lv, "name", lw, "str")
        if name in names or name == "mem":
            raise FormatError("%s.name: level %s given twice"
                              % (lw, _short(name)))
        names.append(name)
        out.append(Level(name=name, **_fields(lv, lw, {
            "size": "count", "assoc": "count", "line": "count",
            "shared_by": "count", "latency": "count",
            "cause_sample_rate": "fraction"})))
    _opt(config, "memory_latency", "config", "count")
    return out


def _config(c, levels):
    w = "config"
    prefetch = None
    if "prefetch" in c:
        _check(c["prefetch"], "config.prefetch", "object")
        prefetch = PrefetchConfig(**_fields(c["prefetch"], "config.prefetch",
            {"kind": "str", "streams": "count", "level": "str"}))
    return Config(
        levels=levels, prefetch=prefetch,
        toggle_collect=_opt_list(c, "toggle_collect", w, "str"),
        tlb=_opt_object(c, "tlb", w, lambda o, ow: TlbConfig(**_fields(o, ow,
            {"entries": "count", "assoc": "count", "page": "count"}))),
        reuse=_opt_object(c, "reuse", w, lambda o, ow: ReuseConfig(**_fields(o, ow,
            {"sample": "str", "rate": "fraction", "window": "count",
             "max_gap": "count", "weight": "number", "estimated": "bool"}))),
        strides=_opt_object(c, "strides", w, lambda o, ow: StrideConfig(
            **_fields(o, ow, {
                "history": "count", "mode": "str", "threshold": "count"}))),
        sampling=_opt_object(c, "sampling", w, lambda o, ow: SamplingConfig(
            **_fields(o, ow, {
                "mode": "str", "window": "count", "period": "count",
                "max_gap": "count", "windows": "count",
                "instructions": "count", "instructions_analysed": "count",
                "scale": "number", "rate": "fraction", "sets": "count",
                "l1_sets": "count", "min_lines": "count",
                "unattributed_accesses": "count"}))),
        detail=_opt_object(c, "detail", w, lambda o, ow: DetailConfig(
            analyses=_opt_list(o, "analyses", ow, "str"),
            **_fields(o, ow, {
                "sample": "str", "window": "count", "period": "count",
                "windows": "count", "instructions": "count",
                "instructions_analysed": "count", "scale": "number",
                "weight": "count", "accesses": "count"}))),
        settings=dict(c),
        **_fields(c, w, {
            "line": "count", "collect_atstart": "bool",
            "min_var_size": "count", "miss_causes": "str",
            "memory_latency": "count", "cores": "count",
            "cores_per_socket": "count", "sockets": "count",
            "levels_source": "str", "levels_fallback_reason": "str",
            "page_size": "count", "sharing": "bool"}))


_COUNTERS = ("reads", "writes", "read_bytes", "write_bytes")
_TOTAL_LEVEL_KEYS = ("accesses", "hits", "misses", "cold", "capacity",
                     "conflict", "coherence", "writebacks", "invalidations",
                     "prefetched")


def _counts(obj, keys, where):
    # _opt's checks inline: an MPI job's files hold millions of counts.
    out = {}
    for k in keys:
        v = obj.get(k)
        if v is not None and not (type(v) is int and v >= 0):
            _check(v, _sub(where, k), "count")
        out[k] = v
    return out


def _totals(t, names):
    w = "totals"
    out = _counts(t, _COUNTERS + ("accesses", "variables", "threads"), w)
    if names:
        out["cycles"] = _opt(t, "cycles", w, "count")
        cache = _opt(t, "cache", w, "object")
        if cache is not None:
            out["cache"] = dict(
                (name, _opt_object(cache, name, "totals.cache",
                                   _total_level))
                for name in names)
        out["prefetch"] = _opt_object(
            t, "prefetch", w, lambda o, ow: PrefetchCounts(**_counts(
                o, ("requests", "issued", "useful", "useless"), ow)))
        out["cpa"] = _opt(t, "cpa", w, "number")
        out["instructions"] = _opt(t, "instructions", w, "count")
        out["tlb"] = _opt_object(t, "tlb", w, lambda o, ow: TlbCounts(
            accesses=_opt(o, "accesses", ow, "count"),
            misses=_opt(o, "misses", ow, "count"),
            mpki=_opt(o, "mpki", ow, "number")))
    return Totals(**out)


def _total_level(lv, where):
    sets = _opt(lv, "conflict_sets", where, "list")
    return TotalLevel(
        mpki=_opt(lv, "mpki", where, "number"),
        conflict_sets=([_conflict_set(s, "%s.conflict_sets[%d]" % (where, i))
                        for i, s in enumerate(sets)]
                       if sets is not None else None),
        **_counts(lv, _TOTAL_LEVEL_KEYS, where))


def _conflict_set(s, where):
    _check(s, where, "object")
    variables = []
    for i, v in enumerate(_opt(s, "variables", where, "list") or []):
        vw = "%s.variables[%d]" % (where, i)
        _check(v, vw, "object")
        variables.append(ConflictVariable(
            name=_opt(v, "name", vw, "str"),
            **_counts(v, ("conflicts", "error"), vw)))
    return ConflictSet(variables=variables,
                       **_counts(s, ("set", "conflicts"), where))


# ---------------------------------------------------------------------------
# Variables and their per_line rows

_VAR_COUNTS = ("read_bytes", "write_bytes", "size", "threads", "lines",
               "blocks", "alloc_bytes")
_VAR_LEVEL_KEYS = ("hits", "misses", "cold", "capacity", "conflict",
                   "coherence", "writebacks", "fills", "reused_fills",
                   "prefetched", "covered", "fill_hits")
_LINE_SHARING_KEYS = ("transfers", "invalidations", "coherence_misses")


def _variable(v, where, names):
    _check(v, where, "object")
    var = {
        "name": _need(v, "name", where, "str"),
        "kind": _need(v, "kind", where, "str"),
        "where": _opt(v, "where", where, "str"),
        "reads": _need(v, "reads", where, "count"),
        "writes": _need(v, "writes", where, "count"),
    }
    var.update(_counts(v, _VAR_COUNTS, where))
    var["named_by"] = _opt(v, "named_by", where, "str")
    var["function"] = _opt(v, "function", where, "str")
    var["label"] = _opt(v, "label", where, "str")
    var["folded"] = bool(_opt(v, "folded", where, "bool"))
    var["class_"] = _opt(v, "class", where, "str")
    var["object"] = _opt(v, "object", where, "str")
    var["alloc_stack"] = _opt_list(v, "alloc_stack", where, "str")
    rows = _opt(v, "per_line", where, "list")
    if rows is not None:
        var["per_line"] = [_line_row(r, "%s.per_line[%d]" % (where, i), names)
                           for i, r in enumerate(rows)]
    if names:
        var.update(_var_cache(v, where, names))
    var["sampled_lines"] = _opt(v, "sampled_lines", where, "count")
    var["estimable"] = _opt(v, "estimable", where, "bool")
    var["ci"] = _opt_object(v, "ci", where,
                            lambda o, ow: _var_intervals(o, ow, names))
    var["strides"] = _opt_object(v, "strides", where, _strides)
    var["reuse"] = _opt_object(v, "reuse", where, _reuse)
    var["sharing"] = _opt_object(v, "sharing", where, _sharing)
    var["numa"] = _opt_object(v, "numa", where, _numa)
    var["struct"] = _opt_object(v, "struct", where, _struct)
    return Variable(**var)


_ROW_COUNTS = ("read_bytes", "write_bytes") + _LINE_SHARING_KEYS
# The keys of a row that _line_row_fast checks itself; a row with any
# other goes the general way.
_ROW_FAST_KEYS = frozenset(("where", "fn", "reads", "writes", "cycles",
                            "misses", "cpa", "reuse", "strides", "stride")
                           + _ROW_COUNTS)


def _line_row_fast(row, names):
    """The LineRow of a well-formed row of the common keys, or None when
    the row needs _line_row's checks (which name what is wrong): a file
    holds one row per variable and source line, hundreds of thousands."""
    if type(row) is not dict or not _ROW_FAST_KEYS.issuperset(row):
        return None
    r = {}
    for k in ("where", "fn"):
        v = row.get(k)
        if v is not None and type(v) is not str:
            return None
        r[k] = v
    for k in ("reads", "writes"):
        v = row.get(k)
        if type(v) is not int or v < 0:
            return None
        r[k] = v
    for k in _ROW_COUNTS:
        v = row.get(k)
        if v is not None and (type(v) is not int or v < 0):
            return None
        r[k] = v
    if names:
        v = row.get("cycles")
        if v is not None and (type(v) is not int or v < 0):
            return None
        r["cycles"] = v
        misses = row.get("misses")
        if misses is not None:
            if type(misses) is not dict:
                return None
            given, misses = misses, {}
            for name in names:
                v = given.get(name)
                if v is not None and (type(v) is not int or v < 0):
                    return None
                misses[name] = v
        r["misses"] = misses
        v = row.get("cpa")
        if v is not None and (type(v) not in (int, float) or v < 0):
            return None
        r["cpa"] = v
    ru = row.get("reuse")
    if ru is not None:
        ru = _line_reuse_fast(ru)
        if ru is None:
            return None
    r["reuse"] = ru
    for k, parse in (("strides", _stride_classes), ("stride", _line_stride)):
        v = row.get(k)
        if v is not None:
            if type(v) is not dict:
                return None
            try:
                v = parse(v, "")
            except FormatError:
                return None
        r[k] = v
    return LineRow(**r)


def _line_reuse_fast(ru):
    """_line_reuse of a well-formed row's reuse, without the paths of
    the messages; None when it needs _line_reuse's checks."""
    if type(ru) is not dict:
        return None
    cold = ru.get("cold")
    if cold is not None and (type(cold) is not int or cold < 0):
        return None
    out = {"cold": cold}
    try:
        for kind in ("private", "shared"):
            h = ru.get(kind)
            out[kind] = _hist(h, "") if h is not None else None
            mean = ru.get("mean_" + kind)
            if mean is not None and (type(mean) not in (int, float)
                                     or mean < 0):
                return None
            out["mean_" + kind] = mean
    except FormatError:
        return None
    return LineReuse(**out)


def _line_row(row, where, names):
    fast = _line_row_fast(row, names)
    if fast is not None:
        return fast
    _check(row, where, "object")
    r = {"where": _opt(row, "where", where, "str"),
         "fn": _opt(row, "fn", where, "str"),
         "reads": _need(row, "reads", where, "count"),
         "writes": _need(row, "writes", where, "count")}
    r.update(_counts(row, ("read_bytes", "write_bytes"), where))
    if names:
        r["cycles"] = _opt(row, "cycles", where, "count")
        r["misses"] = _opt_object(row, "misses", where,
                                  lambda o, ow: _counts(o, names, ow))
        r["cpa"] = _opt(row, "cpa", where, "number")
    r["reuse"] = _opt_object(row, "reuse", where, _line_reuse)
    r.update(_counts(row, _LINE_SHARING_KEYS, where))
    r["strides"] = _opt_object(row, "strides", where, _stride_classes)
    r["stride"] = _opt_object(row, "stride", where, _line_stride)
    return LineRow(**r)


def _line_stride(st, where):
    return LineStride(bytes=_need(st, "bytes", where, "int"),
                      share=_opt(st, "share", where, "number"),
                      strides=_opt(st, "strides", where, "count"),
                      loop=_opt(st, "loop", where, "count"),
                      loop_where=_opt(st, "loop_where", where, "str"))


def _var_cache(v, where, names):
    """The cache simulation's fields of a variable, as keyword arguments
    of Variable (all None when it has neither cache nor cycles)."""
    cache = _opt(v, "cache", where, "object")
    cycles = _opt(v, "cycles", where, "count")
    if cache is None:
        # A summary has its misses per level only.
        misses = _opt(v, "misses", where, "object")
        if misses is not None:
            cache = dict((name, {"misses": misses[name]})
                         for name in names if name in misses)
    if cache is None and cycles is None:
        return {}
    out = {"cycles": cycles,
           "stall_cycles": _opt(v, "stall_cycles", where, "count"),
           "invalidations": _opt(v, "invalidations", where, "count"),
           "cache": dict((name, _opt_object(cache or {}, name,
                                            _sub(where, "cache"), _var_level))
                         for name in names)}
    out["served"] = _opt_object(v, "served", where,
                                lambda o, ow: _counts(o, names + ["mem"], ow))
    out["cpa"] = _opt(v, "cpa", where, "number")
    out["tlb"] = _opt_object(v, "tlb", where, lambda o, ow: VarTlb(
        **_counts(o, ("hits", "misses"), ow)))
    return out


def _var_intervals(ci, where, names):
    """A variable's ci (--sample=lines): the interval of its accesses,
    and with a simulation those of its misses per level, cycles and
    stall cycles (read, as its cache, only then)."""
    out = {"accesses": _opt_interval(ci, "accesses", where)}
    if names:
        out["misses"] = _opt_object(ci, "misses", where, lambda o, ow: dict(
            (name, _opt_interval(o, name, ow)) for name in names))
        for k in ("cycles", "stall_cycles"):
            out[k] = _opt_interval(ci, k, where)
    return VarIntervals(**out)


def _opt_interval(obj, key, where):
    """obj[key], an interval [lo, hi] of counts, lo <= hi, or None."""
    x = obj.get(key)
    if x is None:
        return None
    iw = _sub(where, key)
    if not isinstance(x, list) or len(x) != 2:
        raise FormatError("%s: expected an interval [lo, hi], got %s"
                          % (iw, _short(x)))
    for i, b in enumerate(x):
        _check(b, "%s[%d]" % (iw, i), "count")
    if x[0] > x[1]:
        raise FormatError("%s: lo %d above hi %d" % (iw, x[0], x[1]))
    return Interval(*x)


def _var_level(lv, where):
    c = _counts(lv, _VAR_LEVEL_KEYS, where)
    c["hits_per_fill"] = _opt(lv, "hits_per_fill", where, "number")
    c["reused_share"] = _opt(lv, "reused_share", where, "fraction")
    return VarLevel(**c)


# ---------------------------------------------------------------------------
# Histograms, strides and reuse distances

def _hist(h, where):
    """A histogram: a list of [lo, hi, count] rows, hi null for
    infinity, each lo once."""
    _check(h, where, "list")
    bins, seen = [], set()
    for b, entry in enumerate(h):
        if type(entry) is list and len(entry) == 3:
            lo, hi, count = entry
            if type(lo) is int and lo >= 0 and type(count) is int \
                    and count >= 0 and lo not in seen \
                    and (hi is None or type(hi) is int and hi >= lo):
                seen.add(lo)
                bins.append(Bin(lo, hi, count))
                continue
        bw = "%s[%d]" % (where, b)
        if not isinstance(entry, list) or len(entry) != 3:
            raise FormatError("%s: expected [lo, hi, count], got %s"
                              % (bw, _short(entry)))
        lo, hi, count = entry
        _check(lo, bw + "[0]", "count")
        if hi is not None:
            _check(hi, bw + "[1]", "count")
            if hi < lo:
                raise FormatError("%s: hi %d below lo %d" % (bw, hi, lo))
        _check(count, bw + "[2]", "count")
        if lo in seen:
            raise FormatError("%s: bin %d given twice" % (bw, lo))
        seen.add(lo)
        bins.append(Bin(lo, hi, count))
    return bins


def _strides(st, where):
    hists = {}
    for kind in ("load", "store"):
        kw = _sub(where, kind)
        hists[kind] = [_hist(h, "%s[%d]" % (kw, k))
                       for k, h in enumerate(_need(st, kind, where, "list"))]
    negative = _opt(st, "negative", where, "object") or {}
    neg = dict((kind, _opt_list(negative, kind, _sub(where, "negative"),
                                "count") or [])
               for kind in ("load", "store"))
    classes = _opt_object(st, "classes", where, _stride_classes)
    return Strides(load=hists["load"], store=hists["store"],
                   negative=dict((k, list(n)) for k, n in neg.items()),
                   classes=classes or StrideClasses(),
                   dominant=_opt_object(st, "dominant", where, _dominant))


def _stride_classes(c, where):
    return StrideClasses(**_counts(
        c, ("zero", "unit", "within_line", "beyond_line"), where))


def _dominant(d, where):
    b = _need(d, "bytes", where, "")
    if not _is_int(b):
        raise FormatError("%s.bytes: expected an integer, got %s"
                          % (where, _short(b)))
    count = _need(d, "count", where, "count")
    lines = d.get("lines")
    if lines is not None and not _is_number(lines):
        raise FormatError("%s.lines: expected a number, got %s"
                          % (where, _short(lines)))
    return Dominant(bytes=b, count=count, lines=lines,
                    share=_opt(d, "share", where, "fraction"))


def _reuse(ru, where):
    out = {"cold": _opt(ru, "cold", where, "count")}
    for kind in ("private", "shared"):
        out[kind] = _hist(_need(ru, kind, where, "list"), _sub(where, kind))
        out["mean_" + kind] = _opt(ru, "mean_" + kind, where, "number")
        med = ru.get("median_" + kind)
        if med is not None:
            if not isinstance(med, list) or len(med) != 2 \
                    or not _is_int(med[0]) or med[0] < 0 \
                    or not (med[1] is None or _is_int(med[1])):
                raise FormatError("%s: expected [lo, hi], got %s"
                                  % (_sub(where, "median_" + kind),
                                     _short(med)))
            out["median_" + kind] = Median(*med)
    return Reuse(**out)


def _line_reuse(ru, where):
    out = {"cold": _opt(ru, "cold", where, "count")}
    for kind in ("private", "shared"):
        h = _opt(ru, kind, where, "list")
        out[kind] = _hist(h, _sub(where, kind)) if h is not None else None
        out["mean_" + kind] = _opt(ru, "mean_" + kind, where, "number")
    return LineReuse(**out)


# ---------------------------------------------------------------------------
# Sharing, NUMA, communication

_SHARING_KEYS = ("shared_lines", "true_lines", "false_lines",
                 "predicted_transfers", "predicted_true_transfers",
                 "predicted_false_transfers", "predicted_invalidations",
                 "transfers", "true_transfers", "false_transfers",
                 "invalidations", "invalidations_suffered",
                 "coherence_misses")


def _sharing(sh, where):
    out = _counts(sh, _SHARING_KEYS, where)
    worst = _opt(sh, "worst_lines", where, "list") or []
    out["worst_lines"] = [_worst_line(wl, "%s.worst_lines[%d]" % (where, i))
                          for i, wl in enumerate(worst)]
    out["what_if_pad"] = _opt_object(sh, "what_if_pad", where, _what_if)
    out["placements"] = _opt_object(sh, "placements", where, _placements)
    return Sharing(**out)


def _placements(pl, where):
    """The placements of the variable's blocks (absent before they were
    reported, and for variables no two threads touched)."""
    _check(pl, where, "object")
    false_at = _need(pl, "false_at", where, "list")
    for i, x in enumerate(false_at):
        _check(x, "%s.false_at[%d]" % (where, i), "count")
    return Placements(step=_need(pl, "step", where, "count"),
                      evaluated=_need(pl, "evaluated", where, "count"),
                      current=_need(pl, "current", where, "count"),
                      blocks=_opt(pl, "blocks", where, "count"),
                      false_at=list(false_at))


def _worst_line(wl, where):
    """One of a variable's worst shared lines.  The offset is signed: a
    block that starts inside the line puts the line's start before it."""
    _check(wl, where, "object")
    offset = wl.get("offset")
    if offset is not None and not _is_int(offset):
        raise FormatError("%s.offset: expected an integer, got %s"
                          % (where, _short(offset)))
    out = {"line": _need(wl, "line", where, "str"),
           "offset": offset,
           "kind": _need(wl, "kind", where, "str")}
    out.update(_counts(wl, ("transfers", "predicted_transfers"), where))
    threads = []
    for i, t in enumerate(_opt(wl, "threads", where, "list") or []):
        tw = "%s.threads[%d]" % (where, i)
        _check(t, tw, "object")
        threads.append(LineThread(
            thread=_need(t, "thread", tw, "count"),
            reads=_opt(t, "reads", tw, "count"),
            writes=_opt(t, "writes", tw, "count"),
            where=_wheres(t, tw),
            read_bytes=_ranges(t, "read_bytes", tw),
            write_bytes=_ranges(t, "write_bytes", tw)))
    out.update(_counts(wl, ("false_pairs", "true_pairs",
                            "predicted_false_transfers",
                            "predicted_invalidations"), where))
    return WorstLine(threads=threads, **out)


def _wheres(obj, where):
    """obj["where"], a list of "file:line" strings, null for a line
    without debug information ([] when absent)."""
    wheres = _opt(obj, "where", where, "list") or []
    for i, x in enumerate(wheres):
        if x is not None:
            _check(x, "%s.where[%d]" % (where, i), "str")
    return list(wheres)


def _ranges(obj, key, where):
    """obj[key], a list of inclusive byte ranges [lo, hi] ([] when
    absent)."""
    ranges = _opt(obj, key, where, "list") or []
    for i, r in enumerate(ranges):
        rw = "%s.%s[%d]" % (where, key, i)
        if not isinstance(r, list) or len(r) != 2 \
                or not all(_is_int(x) and x >= 0 for x in r) or r[1] < r[0]:
            raise FormatError("%s: expected a byte range [lo, hi], got %s"
                              % (rw, _short(r)))
    return [ByteRange(*r) for r in ranges]


def _what_if(wi, where):
    sides = {}
    for side in ("before", "after"):
        o = _opt(wi, side, where, "object")
        sides[side] = (dict((k, _check(x, "%s.%s.%s" % (where, side, k),
                                       "count")) for k, x in o.items())
                       if o is not None else None)
    return WhatIf(accesses=_opt(wi, "accesses", where, "count"),
                  complete=_opt(wi, "complete", where, "bool"), **sides)


def _numa(nu, where):
    out = _counts(nu, ("local", "remote", "pages", "remote_memory"), where)
    out["hit_ratio"] = _opt(nu, "hit_ratio", where, "fraction")
    out["first_touch"] = []
    for i, ft in enumerate(_opt(nu, "first_touch", where, "list") or []):
        fw = "%s.first_touch[%d]" % (where, i)
        _check(ft, fw, "object")
        out["first_touch"].append(FirstTouch(
            **dict((k, _need(ft, k, fw, "count"))
                   for k in ("thread", "socket", "pages"))))
    return Numa(**out)


def _communication(comm):
    out = []
    for i, c in enumerate(comm):
        cw = "communication[%d]" % i
        _check(c, cw, "object")
        names = dict((k, _opt(c, k, cw, "str"))
                     for k in ("from", "from_fn", "to", "to_fn", "variable"))
        names["from_"] = names.pop("from")
        out.append(Pair(count=_need(c, "count", cw, "count"),
                        true=_opt(c, "true", cw, "count"),
                        false=_opt(c, "false", cw, "count"), **names))
    return out


def _matrix(mx, where):
    threads = _need(mx, "threads", where, "list")
    for i, t in enumerate(threads):
        _check(t, "%s.threads[%d]" % (where, i), "count")
    cells, seen = [], set()
    for i, c in enumerate(_need(mx, "cells", where, "list")):
        cw = "%s.cells[%d]" % (where, i)
        _check(c, cw, "object")
        key = (_need(c, "from", cw, "count"), _need(c, "to", cw, "count"))
        if key in seen:
            raise FormatError("%s: cell %d -> %d given twice"
                              % ((cw,) + key))
        seen.add(key)
        cells.append(Cell(from_=key[0], to=key[1], **_counts(
            c, ("true_lines", "false_lines", "bytes"), cw)))
    return Matrix(threads=list(threads), cells=cells)


# ---------------------------------------------------------------------------
# Advice, loops, structures

def _alternative(x, where):
    _check(x, where, "object")
    return Alternative(fix=_need(x, "fix", where, "str"),
                       evidence=_opt(x, "evidence", where, "str"),
                       holds=_opt(x, "holds", where, "str"),
                       loop=_opt(x, "loop", where, "count"),
                       with_loop=_opt(x, "with_loop", where, "count"),
                       replay=_opt_object(x, "replay", where, _what_if))


def _advice(advice, key="advice"):
    out = []
    for i, a in enumerate(advice):
        aw = "%s[%d]" % (key, i)
        _check(a, aw, "object")
        item = {"kind": _need(a, "kind", aw, "str"),
                "text": _need(a, "text", aw, "str"),
                "where": _wheres(a, aw)}
        for k in ("variable", "evidence", "fix"):
            item[k] = _opt(a, k, aw, "str")
        item["loop"] = _opt(a, "loop", aw, "count")
        item["with_loop"] = _opt(a, "with_loop", aw, "count")
        fused = _opt(a, "fused_loops", aw, "list")
        if fused is not None:
            item["fused_loops"] = [_check(x, "%s.fused_loops[%d]" % (aw, k), "count")
                                   for k, x in enumerate(fused)]
        item["score"] = _opt(a, "score", aw, "number")
        item["reason"] = _opt(a, "reason", aw, "str")
        item["replay"] = _opt_object(a, "replay", aw, _what_if)
        item["replayed"] = _opt(a, "replayed", aw, "bool")
        item["holds"] = _opt(a, "holds", aw, "str")
        item["alternatives"] = [_alternative(x, "%s.alternatives[%d]" % (aw, k))
                                for k, x in enumerate(_opt(a, "alternatives", aw, "list")
                                                      or [])]
        out.append(Advice(**item))
    return out


def _loops(loops):
    out, ids = [], set()
    for i, l in enumerate(loops):
        lw = "loops[%d]" % i
        _check(l, lw, "object")
        item = {"id": _need(l, "id", lw, "count"),
                "function": _opt(l, "function", lw, "str"),
                "file": _opt(l, "file", lw, "str"),
                "first_line": _need(l, "first_line", lw, "count"),
                "last_line": _need(l, "last_line", lw, "count")}
        if item["id"] in ids:
            raise FormatError("%s.id: loop %d given twice"
                              % (lw, item["id"]))
        ids.add(item["id"])
        item.update(_counts(l, ("depth", "entries", "iterations",
                                "max_iterations", "accesses", "streams",
                                "parent"), lw))
        for k in ("mean_iterations", "mean_streams"):
            item[k] = _opt(l, k, lw, "number")
        item["flagged"] = _opt(l, "flagged", lw, "bool")
        item["class_"] = _opt(l, "class", lw, "str")
        item["object"] = _opt(l, "object", lw, "str")
        item["formulas"] = [
            _formula(f, "%s.formulas[%d]" % (lw, j))
            for j, f in enumerate(_opt(l, "formulas", lw, "list") or [])]
        out.append(Loop(**item))
    return out


def _formula(f, where):
    _check(f, where, "object")
    return Formula(fit=_opt(f, "fit", where, "fraction"),
                   where=_opt(f, "where", where, "str"),
                   variable=_opt(f, "variable", where, "str"),
                   formula=_need(f, "formula", where, "str"),
                   base=_opt(f, "base", where, "int"),
                   in_block=_opt(f, "in_block", where, "bool"),
                   accesses=_opt(f, "accesses", where, "count"))


def _struct(st, where):
    out = {"size": _need(st, "size", where, "count"),
           "overlapping": _opt(st, "overlapping", where, "bool"),
           "covered": _opt(st, "covered", where, "number"),
           "by_count": _opt(st, "by_count", where, "bool"),
           "split": _opt(st, "split", where, "str"),
           "fields": [], "affinity": [], "groups": []}
    for i, f in enumerate(_need(st, "fields", where, "list")):
        fw = "%s.fields[%d]" % (where, i)
        _check(f, fw, "object")
        loops = _opt_list(f, "loops", fw, "count") or []
        out["fields"].append(Field(
            offset=_need(f, "offset", fw, "count"),
            name=_opt(f, "name", fw, "str"),
            size=_opt(f, "size", fw, "count"),
            accesses=_opt(f, "accesses", fw, "count"),
            share=_opt(f, "share", fw, "number"),
            loops=list(loops)))
    n = len(out["fields"])
    for k, a in enumerate(_opt(st, "affinity", where, "list") or []):
        aw = "%s.affinity[%d]" % (where, k)
        if not isinstance(a, list) or len(a) != 3 \
                or not all(_is_int(x) for x in a[:2]) \
                or not 0 <= a[0] < a[1] < n or not _is_number(a[2]) \
                or a[2] < 0:
            raise FormatError("%s: expected [i, j, w], field indexes i < j "
                              "below %d and a weight w >= 0, got %s"
                              % (aw, n, _short(a)))
        out["affinity"].append(Affinity(*a))
    for k, g in enumerate(_opt(st, "groups", where, "list") or []):
        gw = "%s.groups[%d]" % (where, k)
        _check(g, gw, "list")
        for m, x in enumerate(g):
            _check(x, "%s[%d]" % (gw, m), "count")
        out["groups"].append(list(g))
    out["what_if"] = _opt_object(st, "what_if", where, _what_if)
    return Struct(**out)


# ---------------------------------------------------------------------------
# The keys every version-1 file has (the format's stability rules)

_REQUIRED = {
    "": ("memprof", "tool_version", "command", "pid", "config", "totals",
         "variables"),
    "config": ("line", "collect_atstart", "toggle_collect", "min_var_size"),
    "totals": ("reads", "writes", "read_bytes", "write_bytes", "accesses",
               "variables", "threads"),
    "variable": ("name", "kind", "where", "size", "reads", "writes",
                 "read_bytes", "write_bytes", "threads", "lines",
                 "per_line"),
    "row": ("where", "fn", "reads", "writes", "read_bytes", "write_bytes"),
}


_REQUIRED_SETS = dict((what, frozenset(keys))
                      for what, keys in _REQUIRED.items())


def _missing_required(doc):
    """The paths of the required keys doc lacks (its types are checked)."""
    def lacking(obj, where, what):
        keys = _REQUIRED[what]
        # Most objects have them all: no path is made for them.
        if isinstance(obj, dict) and _REQUIRED_SETS[what].issubset(obj):
            return []
        return [_sub(where, k) for k in keys if k not in obj]
    out = lacking(doc, "", "")
    for key in ("config", "totals"):
        if isinstance(doc.get(key), dict):
            out += lacking(doc[key], key, key)
    for i, v in enumerate(doc.get("variables") or []):
        vw = "variables[%d]" % i
        # a summary ("summary": true) has no per_line records
        out += [k for k in lacking(v, vw, "variable")
                if not (v.get("summary") is True and k == vw + ".per_line")]
        for j, r in enumerate(v.get("per_line") or []):
            out += lacking(r, "%s.per_line[%d]" % (vw, j), "row")
    return out
