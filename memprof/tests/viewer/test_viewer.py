#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Test of memprof_view.html in a real headless browser.

Starts chromedriver (Debian: packages chromium and chromium-driver) and
drives headless Chromium through the W3C WebDriver HTTP protocol with
urllib only (no selenium): opens file://.../memprof_view.html, gives the
file input a profile (Element Send Keys on <input type=file>), waits for
the page, and checks what it shows, clicks column headers and rows as a
user would, loads hostile and broken files, and takes screenshots.

Prints one line per check ("PASS: ..." / "FAIL: ...") and a last line
"N passed, N failed"; exits 1 when a check failed, 77 (skip) when
chromium or chromedriver is missing.

    test_viewer.py [--dir=BUILD_DIR] [--viewer=memprof_view.html]
                   [--chromium=PATH] [--chromedriver=PATH]

The screenshots (viewer-*.png) and chromedriver.log go into BUILD_DIR
(build-viewer in the current directory by default).
"""
import argparse
import base64
import json
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
# The fixtures are read by memprof_reader, in memprof/annotate/.
sys.dont_write_bytecode = True
sys.path.append(os.path.join(HERE, "..", "..", "annotate"))
from memprof_reader import read_file  # noqa: E402
VIEWER = os.path.normpath(os.path.join(HERE, "..", "..", "viewer", "memprof_view.html"))
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"   # W3C web element key
WAIT = 15.0                                       # seconds, for any condition


class WebDriverError(Exception):
    def __init__(self, error, message):
        super().__init__("%s: %s" % (error, message))
        self.error = error


class Browser:
    """A WebDriver session: the few W3C commands the checks need."""

    def __init__(self, port, chromium, profile_dir):
        self.base = "http://127.0.0.1:%d" % port
        args = ["--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--no-first-run",
                "--no-default-browser-check", "--disable-extensions",
                "--hide-scrollbars", "--force-device-scale-factor=1",
                "--window-size=1400,1600", "--user-data-dir=" + profile_dir]
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            # An alert stays open, so that the checks can see it.
            "unhandledPromptBehavior": "ignore",
            "goog:chromeOptions": {"binary": chromium, "args": args}}}}
        value = self.request("POST", "/session", caps)
        self.sid = value["sessionId"]

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                answer = json.load(r)
        except urllib.error.HTTPError as e:
            try:
                answer = json.load(e)
            except ValueError:
                raise WebDriverError("http %d" % e.code, e.reason)
        value = answer.get("value")
        if isinstance(value, dict) and "error" in value:
            raise WebDriverError(value["error"], value.get("message", "")[:300])
        return value

    def cmd(self, method, path, body=None):
        return self.request(method, "/session/%s%s" % (self.sid, path), body)

    def quit(self):
        try:
            self.request("DELETE", "/session/" + self.sid)
        except (OSError, WebDriverError):
            pass

    def go(self, url):
        self.cmd("POST", "/url", {"url": url})

    def js(self, script, *args):
        return self.cmd("POST", "/execute/sync", {"script": script, "args": list(args)})

    def find(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def find_all(self, css):
        return [e[ELEMENT] for e in
                self.cmd("POST", "/elements", {"using": "css selector", "value": css})]

    def click(self, css):
        """Clicks the element as a user would.  It is first scrolled to the
        middle of the view: chromedriver's own scrolling can leave a sticky
        table header of a scrolled box "not interactable"."""
        e = self.find(css)
        self.js("arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
                {ELEMENT: e})
        self.cmd("POST", "/element/%s/click" % e, {})

    def send_file(self, css, path):
        self.cmd("POST", "/element/%s/value" % self.find(css), {"text": path})

    def alert_text(self):
        """The text of an open alert, or None."""
        try:
            return self.cmd("GET", "/alert/text")
        except WebDriverError as e:
            if e.error == "no such alert":
                return None
            raise

    def dismiss_alerts(self):
        """Closes every open alert; returns their texts."""
        texts = []
        while len(texts) < 50:
            text = self.alert_text()
            if text is None:
                break
            texts.append(text)
            self.cmd("POST", "/alert/dismiss", {})
        return texts

    def screenshot(self):
        return base64.b64decode(self.cmd("GET", "/screenshot"))

    def wait(self, script, what, timeout=WAIT):
        """Polls script until it returns a true value; returns that value."""
        end = time.time() + timeout
        while True:
            value = self.js(script)
            if value:
                return value
            if time.time() > end:
                raise TimeoutError("timed out waiting for " + what)
            time.sleep(0.05)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def png_info(data):
    """(width, height, distinct byte values of the pixel data) of a PNG, or
    raises ValueError."""
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("no PNG signature")
    pos, idat, width, height = 8, b"", 0, 0
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height = struct.unpack(">II", chunk[:8])
        elif kind == b"IDAT":
            idat += chunk
        elif kind == b"IEND":
            break
        pos += 12 + length
    pixels = zlib.decompress(idat)
    return width, height, len(set(pixels))


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, ok, what, detail=""):
        if ok:
            self.passed += 1
            print("PASS: " + what)
        else:
            self.failed += 1
            print("FAIL: " + what + (" (" + detail + ")" if detail else ""))
        sys.stdout.flush()
        return ok

    def equal(self, got, expected, what):
        return self.check(got == expected, what,
                          "got %r, expected %r" % (got, expected))


# JavaScript helpers run in the page.
JS_STATE = "return document.body.getAttribute('data-state');"
JS_COLUMN = """
const key = arguments[0], table = arguments[1] || '#vartable';
const ths = [...document.querySelectorAll(table + ' thead th')];
const k = ths.findIndex((th) => th.getAttribute('data-key') === key);
if (k < 0) return null;
return [...document.querySelectorAll(table + ' tbody tr')]
  .map((tr) => tr.children[k].textContent);
"""
JS_KEYS = """
return [...document.querySelectorAll((arguments[0] || '#vartable') + ' thead th')]
  .map((th) => th.getAttribute('data-key'));
"""
JS_COUNT = "return document.querySelectorAll(arguments[0]).length;"
JS_TEXT = """
const e = document.querySelector(arguments[0]);
return e ? e.textContent : null;
"""
JS_SORTED = """
const th = document.querySelector((arguments[1] || '#vartable') + ' th[data-key=' +
                                  arguments[0] + ']');
return th ? th.getAttribute('aria-sort') : null;
"""
# The value of a key/value table's row in an element: its second cell.
JS_KV = """
for (const tr of document.querySelectorAll(arguments[0] + ' table.kv tr')) {
  if (tr.children[0].textContent === arguments[1]) return tr.children[1].textContent;
}
return null;
"""
# Whether the first element comes before the second in the page.
JS_BEFORE = """
const a = document.querySelector(arguments[0]), b = document.querySelector(arguments[1]);
if (!a || !b) return null;
return !!(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);
"""


class ViewerTest:
    def __init__(self, browser, checks, viewer, fixtures, outdir):
        self.b, self.c = browser, checks
        self.url = "file://" + viewer
        self.fixtures, self.outdir = fixtures, outdir

    def fixture(self, name):
        return os.path.join(self.fixtures, name)

    def open(self):
        self.b.go(self.url)
        self.b.wait("return document.readyState === 'complete';", "the page")

    def load(self, name):
        """Gives the file input a fixture; returns the page's state after."""
        self.b.js("document.body.setAttribute('data-state', 'test-wait');")
        self.b.send_file("#file", self.fixture(name))
        return self.b.wait("const s = document.body.getAttribute('data-state');"
                           "return s === 'loaded' || s === 'error' ? s : null;",
                           "the viewer to load " + name)

    def column(self, key, table="#vartable"):
        return self.b.js(JS_COLUMN, key, table)

    def count(self, css):
        return self.b.js(JS_COUNT, css)

    def text(self, css):
        return self.b.js(JS_TEXT, css)

    def sorted_by(self, key, table="#vartable"):
        """The aria-sort of a column's header: 'descending', 'ascending' or
        None."""
        return self.b.js(JS_SORTED, key, table)

    def shot(self, name):
        data = self.b.screenshot()
        path = os.path.join(self.outdir, name)
        with open(path, "wb") as f:
            f.write(data)
        try:
            w, h, distinct = png_info(data)
            ok = w >= 800 and h >= 600 and distinct >= 16 and len(data) > 20000
            detail = "%dx%d, %d bytes, %d distinct byte values" % (w, h, len(data), distinct)
        except (ValueError, zlib.error) as e:
            ok, detail = False, str(e)
        self.c.check(ok, "screenshot %s is a non-trivial PNG (%s)" % (path, detail), detail)

    # ------------------------------------------------------------------
    def static_checks(self, viewer):
        src = open(viewer, encoding="utf-8").read()
        bad = re.findall(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|"
                         r"\beval\(|new Function", src)
        self.c.check(not bad, "the viewer uses no markup-parsing DOM API", ", ".join(bad))
        urls = [u for u in re.findall(r"https?://[^\s\"'<>)]+", src)
                if u != "http://www.w3.org/2000/svg"]
        ext = re.findall(r"<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=", src)
        self.c.check(not urls and not ext, "the viewer is self-contained (no URL, no external "
                     "script or style)", ", ".join(urls + ext))

    def empty_page(self):
        self.open()
        self.c.equal(self.b.js("return document.title;"), "memprof viewer", "page title")
        self.c.equal(self.b.js(JS_STATE), "empty", "fresh page waits for a file")
        self.c.equal(self.count("input[type=file]#file"), 1, "the page has a file input")

    def basic(self):
        """reuse.json of the annotator's tests (cache, reuse, strides) with
        stall cycles, and a C++ frame, stack:kernel(Domain&, int, int),
        whose accesses all hit L1: the most cycles, no stall."""
        self.open()
        self.c.equal(self.load("basic.json"), "loaded", "basic.json loads")
        self.c.equal(self.column("name"), ["data", "coef", "stack:consume", "stack:producer",
                                           "stack:kernel"],
                     "variable rows in file order (by stall cycles), the frame's label shown")
        self.c.equal((self.sorted_by("stall"), self.sorted_by("cycles")), ("descending", None),
                     "the table starts sorted by stall cycles, most first, not by cycles")
        self.c.equal(self.column("stall"), ["29,696", "392", "196", "196", "0"],
                     "the stall column gives each variable's stall cycles")
        keys = self.b.js(JS_KEYS)
        self.c.equal(keys[keys.index("cycles") - 1] if "cycles" in keys else None, "stall",
                     "the stall column is just before the cycles column")
        self.c.equal(self.b.js("const th = document.querySelector('#vartable th[data-key=stall]');"
                               "return th ? th.title : null;"),
                     "memory stall cycles: the cycles beyond an L1 hit, what a change of layout "
                     "can save", "the stall column's tooltip")
        self.c.equal(self.b.js("return document.querySelector('#vartable th[data-key=rank]')"
                               ".title;"),
                     "position in the file (by stall cycles, then cycles, then accesses)",
                     "the rank column's tooltip")
        self.c.check(all(k in keys for k in ("name", "kind", "where", "size", "accesses",
                                             "reads", "writes", "miss-L1", "miss-L2",
                                             "miss-L3", "cpa", "cycles", "stride", "reuse")),
                     "columns of a cache/stride/reuse profile", repr(keys))
        self.c.check(not any(k in keys for k in ("false", "true", "numa")),
                     "no sharing or NUMA column without those data", repr(keys))
        run = self.text("#run")
        self.c.check("./share 2" in run and "28064" in run and "exact" in run,
                     "the run section shows command, pid and reuse mode", run[:200])
        self.c.equal(self.count("#levels tbody tr"), 3, "configuration lists 3 cache levels")
        self.c.equal(self.column("accesses")[0], "3,072", "accesses with thousands separators")

        # Sorting by clicking the headers.
        # The page opens on what to act on: the run's configuration is
        # below the table, folded.
        self.c.equal(self.b.js(JS_BEFORE, "#variables", "#run"), True,
                     "the variables table comes before the Run section")
        self.c.equal(self.b.js(JS_BEFORE, "#run", "#totals"), True,
                     "the Run section comes before the totals")
        self.c.equal(self.b.js("const d = document.querySelector('#run details');"
                               "return d ? d.open : null;"), False,
                     "the Run section is folded at load")
        self.c.equal(self.text("#run details > summary"), "Run: command, cache geometry, options",
                     "the folded Run section says what it holds")

        self.b.click("#vartable th[data-key=name]")
        self.c.equal(self.column("name"), ["coef", "data", "stack:consume", "stack:kernel",
                                           "stack:producer"],
                     "click on 'name' sorts A to Z (by the name shown)")
        self.c.equal(self.b.js("return document.querySelector('#vartable th[data-key=name]')"
                               ".getAttribute('aria-sort');"), "ascending",
                     "the sorted header is marked ascending")
        self.b.click("#vartable th[data-key=name]")
        self.c.equal(self.column("name"), ["stack:producer", "stack:kernel", "stack:consume",
                                           "data", "coef"],
                     "second click on 'name' sorts Z to A")
        self.b.click("#vartable th[data-key=reuse]")
        self.c.equal(self.column("name"), ["data", "coef", "stack:kernel", "stack:consume",
                                           "stack:producer"],
                     "click on 'mean reuse' sorts most first, absent values last")
        self.b.click("#vartable th[data-key=reuse]")
        self.c.equal(self.column("name"), ["stack:kernel", "coef", "data", "stack:consume",
                                           "stack:producer"],
                     "second click on 'mean reuse' sorts least first, absent values still last")

        # A row's detail.
        self.b.click("#vartable tbody tr[data-index='0']")
        self.c.equal(self.b.js("return document.getElementById('detail').classList"
                               ".contains('hidden');"), False, "a click on a row opens the detail")
        self.c.equal(self.text("#detail .detail-name"), "data", "the detail is the clicked variable's")
        # k=1: loads 8 B and 4096-8191 B, stores 8 B; k=1..5 as heat maps.
        self.c.check(self.count("#stride-plots svg.stride-plot") == 1 and
                     self.count("#stride-plots svg.stride-plot rect.bar") == 3 and
                     self.count("#stride-plots svg.stride-heat") == 2,
                     "the detail has a stride plot (SVG bars) and stride heat maps")
        self.c.equal(self.count("#detail svg.reuse-plot"), 1, "the detail has a reuse-distance plot")
        # private and shared [128,255] side by side, private [0,0] and
        # [1,1], cold: a bar per non-empty bin.
        self.c.equal(self.count("#detail svg.reuse-plot rect.bar"), 5,
                     "reuse plot: private/shared bars per non-empty bin plus cold")
        self.c.equal(self.count("#detail-cache-bars svg"), 3, "one hits/misses bar per cache level")
        self.c.equal(self.column("where", "#perline"), ["share.c:24", "share.c:14"],
                     "the per-line table lists the variable's source lines")
        self.c.equal(self.count("#vartable tr.selected"), 1, "the selected row is highlighted")
        self.b.click("#vartable th[data-key=cycles]")
        self.c.equal(self.column("name"), ["stack:kernel", "data", "coef", "stack:consume",
                                           "stack:producer"],
                     "click on 'cycles' sorts most first, ties in file order: the frame whose "
                     "accesses all hit L1 first")

        # A label: the table shows it, the detail the whole name.
        self.b.click("#vartable tbody tr[data-index='4']")
        self.c.equal(self.text("#vartable tbody tr[data-index='4'] td.name"), "stack:kernel",
                     "a C++ frame shows as its label in the table")
        self.c.equal(self.text("#detail .detail-name"), "stack:kernel(Domain&, int, int)",
                     "the detail gives the frame's whole name")
        self.c.equal(self.b.js(JS_KV, "#detail", "Memory stall cycles"), "0",
                     "the detail gives the stall cycles")
        self.b.click("#vartable th[data-key=stall]")
        self.c.equal(self.column("name"), ["data", "coef", "stack:consume", "stack:producer",
                                           "stack:kernel"],
                     "click on 'stall' sorts by stall cycles again, most first")

        # The filter box.
        self.b.cmd("POST", "/element/%s/value" % self.b.find("#filter"), {"text": "stack"})
        self.c.equal(sorted(self.column("name")), ["stack:consume", "stack:kernel",
                                                   "stack:producer"],
                     "the filter box keeps matching rows")
        self.b.js("const f = document.getElementById('filter'); f.value = '';"
                  "f.dispatchEvent(new Event('input'));")
        self.b.cmd("POST", "/element/%s/value" % self.b.find("#filter"),
                   {"text": "stack:kernel(domain&"})
        self.c.equal(self.column("name"), ["stack:kernel"],
                     "the filter matches the whole name of a labelled variable, not only "
                     "the label shown")

    def nocache(self):
        """A --cache-sim=no profile with strides only."""
        self.open()
        self.c.equal(self.load("nocache.json"), "loaded", "nocache.json loads")
        keys = self.b.js(JS_KEYS)
        self.c.check("miss-L1" not in keys and "cpa" not in keys and "cycles" not in keys
                     and "stride" in keys, "no cache columns without a cache simulation",
                     repr(keys))
        self.c.equal(self.b.js("return document.querySelector('#vartable th[data-key=accesses]')"
                               ".getAttribute('aria-sort');"), "descending",
                     "without cycles the table is sorted by accesses")
        self.c.equal(self.column("name")[0], "grid", "most accessed variable first")
        self.b.click("#vartable tbody tr[data-index='0']")
        self.c.check(self.count("#stride-plots svg.stride-plot") >= 1 and
                     self.count("#detail svg.reuse-plot") == 0,
                     "detail: stride plots, no reuse plot when reuse is absent")

    def rich(self):
        """Sharing, NUMA, communication, matrix, advice, loops."""
        self.open()
        self.c.equal(self.load("rich.json"), "loaded", "rich.json loads")
        self.c.equal((self.sorted_by("cycles"), "stall" in self.b.js(JS_KEYS)),
                     ("descending", False),
                     "a file without stall cycles (an older memprof's) is sorted by cycles, "
                     "with no stall column")
        self.c.equal((self.b.js(JS_BEFORE, "#advice", "#variables"),
                      self.b.js(JS_BEFORE, "#variables", "#run"),
                      self.b.js(JS_BEFORE, "#advice", "#run")), (True, True, True),
                     "the page opens on the advice, then the variables; the Run section after")
        self.c.equal(self.b.js("const d = document.querySelector('#run details');"
                               "return d ? d.open : null;"), False,
                     "the Run details are closed at load")
        self.c.check("Prefetcherstream, 16 streams per core, into L2" in self.text("#run"),
                     "the configuration names the prefetcher", self.text("#run"))
        keys = self.b.js(JS_KEYS)
        self.c.check(all(k in keys for k in ("false", "true", "numa")),
                     "false/true sharing and NUMA columns are shown", repr(keys))
        names = self.column("name")
        k = names.index("counters")
        self.c.equal((self.column("false")[k], self.column("true")[k], self.column("numa")[k]),
                     ("1", "0", "50.0%"), "counters: 1 false line, 0 true, NUMA hit 50.0%")
        self.c.equal(self.count("#advice li.advice-item"), 3, "advice list has 3 items")
        self.c.check("false-sharing" in self.text("#advice li.advice-item .badge"),
                     "advice kind shown", self.text("#advice"))
        self.c.equal(self.column("count", "#comm-pairs"), ["30,000", "1,984", "512"],
                     "communication pairs, most first")
        self.c.equal(self.count("#matrix-table tbody tr"), 5, "thread x thread matrix: 5 rows")
        self.c.equal(self.count("#matrix-table tbody td"), 25, "thread x thread matrix: 25 cells")
        self.c.equal(self.b.js("return document.querySelector('#matrix-table tbody tr:nth-child(1)"
                               " td:nth-child(4)').textContent;"), "512",
                     "matrix cell 1 -> 3 shows 512 lines")
        self.b.js("const s = document.getElementById('matrix-metric'); s.value = 'bytes';"
                  "s.dispatchEvent(new Event('change'));")
        self.c.equal(self.b.js("return document.querySelector('#matrix-table tbody tr:nth-child(1)"
                               " td:nth-child(4)').textContent;"), "32,768",
                     "matrix metric 'bytes': cell 1 -> 3 shows 32,768")
        self.c.equal(self.column("streams", "#loops-table"), ["2", "18"],
                     "loops table in file order when no loop has accesses")
        self.b.click("#loops-table th[data-key=streams]")
        self.c.equal(self.column("streams", "#loops-table"), ["18", "2"],
                     "click on 'streams' sorts the loops, most first")
        # The advice's variable link opens its detail.
        self.b.click("#advice li.advice-item .link")
        self.c.equal(self.text("#detail .detail-name"), "counters",
                     "the advice's variable link opens that variable")
        self.c.equal(self.count("#detail-sharing svg.bytemap"), 1,
                     "sharing: a byte map of the worst line")
        self.c.equal(self.count("#detail-sharing svg.bytemap rect"), 4 * 64,
                     "byte map: 64 bytes for each of 4 threads")
        self.c.check("false sharing" in self.text("#detail-sharing"), "sharing kind shown")
        self.c.check("3 of 4 (+16, +32, +48), none at its own (+0)"
                     in self.text("#detail-sharing"),
                     "sharing: the placements that would share falsely")
        self.c.check("50.0%" in self.text("#detail-numa") and "thread" in self.text("#detail-numa"),
                     "the NUMA block shows the hit ratio and the first touches")
        self.c.check("transfers" in self.b.js(JS_KEYS, "#perline"),
                     "per-line table has the sharing columns")
        self.shot("viewer-detail.png")
        self.b.js("window.scrollTo(0, 0);")
        self.shot("viewer-top.png")

    def structs(self):
        self.open()
        self.c.equal(self.load("struct.json"), "loaded", "struct.json loads")
        self.c.equal(self.count("#structs svg.affinity"), 1, "an affinity graph is drawn")
        self.c.equal(self.count("#structs svg.affinity circle.node"), 9, "one node per field")
        self.c.equal(self.count("#structs svg.affinity line.edge"), 12,
                     "one edge per valid affinity (invalid ones ignored)")
        self.c.equal(self.count("#structs .group"), 3, "the 3 suggested groups are listed")
        labels = self.b.js("return [...document.querySelectorAll('#structs svg.affinity > text')]"
                           ".map((t) => t.firstChild.textContent);")
        self.c.check("+52" in labels and "mass" in labels, "unnamed field shown by offset",
                     repr(labels))
        self.b.js("document.getElementById('structs').scrollIntoView();")
        self.shot("viewer-struct.png")
        self.b.click("#vartable tbody tr[data-index='0']")
        self.c.equal(self.count("#detail svg.affinity"), 1, "the variable's detail has the graph too")

    def detail(self):
        """detail.json: loops.json with the config.detail of a default
        run (strides and loops analysed in windows): the configuration
        says so, and so does the loops section; loops.json, of an exact
        run, has no such note."""
        self.open()
        self.c.equal(self.load("loops.json"), "loaded", "loops.json loads")
        self.c.check("Sampled:" not in self.text("#loops"),
                     "no sampling note without config.detail", self.text("#loops")[:200])
        self.c.equal(self.load("detail.json"), "loaded", "detail.json loads")
        run = self.text("#run")
        self.c.check("Strides and loops" in run
                     and "sampled: 12 windows of 100,000 instructions, every 1,000,000: "
                         "25% of the run" in run,
                     "the configuration gives the detail windows", run)
        self.c.check("analyses" not in run, "config.detail is not shown as raw JSON", run)
        self.c.check("Sampled: the loops were analysed in windows of the run (12 windows"
                     in self.text("#loops"), "the loops section says they were sampled",
                     self.text("#loops")[:300])

    def loops(self):
        """loops.json: real output (particles.c of the annotator's tests,
        trimmed): loops with formulas, a structure with named fields, and
        too-many-streams advice (variable null, loop id)."""
        self.open()
        self.c.equal(self.load("loops.json"), "loaded", "loops.json loads")
        data = read_file(self.fixture("loops.json"))
        self.c.equal(self.count("#loops-table tbody tr"), len(data.loops),
                     "one row per loop")
        self.c.equal(self.b.js("return document.querySelector('#loops-table th[data-key=accesses]')"
                               ".getAttribute('aria-sort');"), "descending",
                     "the loops table starts sorted by accesses, most first")
        self.c.equal(self.column("place", "#loops-table")[:3],
                     ["particles.c:38-42", "particles.c:31-32", "particles.c:34-35"],
                     "loops by accesses, as file:first-last")
        self.c.equal(self.column("streams", "#loops-table")[:3], ["18 ⚑", "2", "4"],
                     "the flagged loop's streams are marked")
        self.c.equal(self.count("#loops-table tr.flagged"), 1, "one flagged loop row")
        self.c.equal(self.column("mean_iterations", "#loops-table")[0], "2,048",
                     "mean iterations per entry")
        formulas = self.b.js("return [...document.querySelectorAll('#loops-table tbody tr')]"
                             ".map((tr) => [...tr.querySelectorAll('.formula')]"
                             ".map((f) => f.textContent));")
        self.c.equal(len(formulas[0]), 10, "the flagged loop lists its 10 formulas")
        self.c.equal(formulas[0][0], "particles.c:39 grid 8*i1 (base -8)",
                     "a formula: where, variable, terms, base")
        self.c.equal(formulas[2], ["particles.c:35 parts 32*i1 (base -16, 2 instructions)",
                                   "particles.c:35 parts 32*i1 (base -8, 2 instructions)"],
                     "instructions with the same formula on the same line are one line")
        self.b.click("#loops-table th[data-key=streams]")
        self.c.equal(self.column("streams", "#loops-table")[:2], ["18 ⚑", "5"],
                     "click on 'streams' sorts by streams")
        # The too-many-streams advice: no variable, a link to its loop.
        items = self.b.js("return [...document.querySelectorAll('#advice li.advice-item')]"
                          ".map((li) => [li.querySelector('.badge').textContent,"
                          " li.querySelectorAll('.link').length,"
                          " (li.querySelector('.loop-link') || {}).textContent || null]);")
        self.c.check(["too-many-streams", 1, "loop at particles.c:38-42 (main)"] in items,
                     "too-many-streams advice names its loop (a link), no variable", repr(items))
        self.b.click("#advice .loop-link")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#loops-table tr.selected')]"
                               ".map((tr) => tr.getAttribute('data-index'));"),
                     [str(data.advice[1].loop)], "the loop link selects the loop's row")
        # The structure of parts: real field names, affinity triples, groups.
        self.c.equal(self.count("#structs svg.affinity"), 1, "one structure graph")
        self.c.equal(self.count("#structs svg.affinity circle.node"), 4, "one node per field")
        self.c.equal(self.count("#structs svg.affinity line.edge"), 2,
                     "an edge per non-zero affinity (x-y, vx-vy)")
        edges = self.b.js("return [...document.querySelectorAll('#structs svg.affinity line.edge')]"
                          ".map((e) => e.textContent);")
        self.c.equal(edges, ["x – y: affinity 1", "vx – vy: affinity 1"],
                     "edges between the named fields")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#structs circle.node')]"
                               ".map((c) => c.getAttribute('fill'));")[:4],
                     ["#5b8fd0", "#5b8fd0", "#e0a040", "#e0a040"],
                     "nodes coloured by group (groups of offsets)")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#structs .group')]"
                               ".map((g) => g.textContent);"),
                     ["group 1: x, y", "group 2: vx, vy"], "the groups by field name")
        self.c.equal(self.text("#structs .struct-split"), "Suggested split: { x, y } / { vx, vy }",
                     "the suggested split")
        self.c.check("100.0% of the variable's cycles" in self.text("#structs .struct-head"),
                     "the structure's size and coverage", self.text("#structs .struct-head"))
        self.c.equal(self.column("loops", "#structs .struct-fields"),
                     ["particles.c:31-32", "particles.c:31-32", "particles.c:34-35",
                      "particles.c:34-35"], "each field's loops by their lines")
        self.c.equal(self.column("size", "#structs .struct-fields"), ["8"] * 4, "field sizes")
        self.b.js("document.getElementById('loops').scrollIntoView();")
        self.shot("viewer-loops.png")
        self.b.js("document.getElementById('structs').scrollIntoView();")
        self.shot("viewer-struct-real.png")

    def real_threads(self):
        """real_threads.json: real output of falseshare_stats.c (8 threads
        updating their own element of a packed array of structures, 2 per
        line; trimmed to 7 variables): the stride and reuse plots, the
        thread matrix and the affinity graph, as drawn elements."""
        self.open()
        self.c.equal(self.load("real_threads.json"), "loaded", "real_threads.json loads")
        data = read_file(self.fixture("real_threads.json"))
        names = [v.name for v in data.variables]
        k = names.index("counters")
        var = data.variables[k]
        # The thread matrix: one cell per thread pair, the transfers coloured.
        m = data.communication_matrix
        n = len(m.threads)
        self.c.equal(self.count("#matrix svg.matrix-plot rect.mcell"), n * n,
                     "matrix plot: a cell per pair of the %d threads" % n)
        self.c.equal(self.count("#matrix svg.matrix-plot rect.mcell.filled"), len(m.cells),
                     "matrix plot: a filled cell per thread pair with transfers")
        self.c.equal(self.count("#matrix svg.matrix-plot rect.sum-bar"), 2 * n,
                     "matrix plot: sent and received bars per thread")
        labels = self.b.js("return [...document.querySelectorAll('#matrix svg.matrix-plot text')]"
                           ".map((t) => t.textContent);")
        self.c.check("writer thread (from)" in labels and "receiving thread (to)" in labels,
                     "matrix plot: both axes are labelled", repr(labels[:6]))
        fills = self.b.js("return [...document.querySelectorAll('#matrix rect.mcell.filled')]"
                          ".map((r) => r.getAttribute('fill'));")
        self.c.check(len(set(fills)) >= 2, "matrix plot: cells of different counts differ in "
                     "colour", repr(fills[:5]))
        self.b.js("document.getElementById('matrix').scrollIntoView();")
        self.shot("viewer-real-matrix.png")
        # The affinity graph of counters: hits-misses and bytes-last.
        self.c.equal(self.count("#structs svg.affinity circle.node"), 4,
                     "affinity graph: one node per field of counters")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#structs svg.affinity "
                               "line.edge')].map((e) => e.textContent);"),
                     ["hits – misses: affinity 1.000", "bytes – last: affinity 1"],
                     "affinity graph: edges between the fields used in the same loop")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#structs circle.node')]"
                               ".map((c) => c.getAttribute('fill'));"),
                     ["#5b8fd0", "#5b8fd0", "#e0a040", "#e0a040"],
                     "affinity graph: nodes coloured by the two groups")
        self.c.equal(self.count("#structs svg.affinity-matrix rect.acell"), 4 * 3,
                     "affinity matrix: a cell per ordered pair of fields")
        self.c.equal(self.text("#structs .struct-split"),
                     "Suggested split: " + var.struct.split, "the suggested split")
        self.b.js("document.getElementById('structs').scrollIntoView();")
        self.shot("viewer-real-affinity.png")
        # counters' detail: strides and reuse, private against shared.
        self.b.click("#vartable tbody tr[data-index='%d']" % k)
        self.c.equal(self.text("#detail .detail-name"), "counters", "counters' detail opens")
        bars = self.b.js("return [...document.querySelectorAll('#stride-plots svg.stride-plot "
                         "rect.bar')].map((r) => +r.getAttribute('height'));")
        self.c.check(len(bars) >= 3 and all(h > 0 for h in bars),
                     "stride plot: a visible bar per non-empty bucket", repr(bars))
        texts = self.b.js("return [...document.querySelectorAll('#stride-plots svg.stride-plot "
                          "text')].map((t) => t.textContent);")
        self.c.check("|stride| (bytes), k=1" in texts and "strides (log)" in texts and
                     "line 64 B" in texts, "stride plot: axes labelled, line size marked",
                     repr(texts))
        self.c.equal(self.count("#stride-plots svg.stride-heat"), 2,
                     "stride heat maps: loads and stores")
        self.c.equal(self.count("#stride-plots svg.stride-heat rect.cell"), 2 * 5 * 17,
                     "stride heat maps: 5 histograms of 17 buckets each")
        self.c.check("8 B stores" in (self.text("#stride-plots .top-strides") or ""),
                     "the most frequent exact strides are listed",
                     self.text("#stride-plots .top-strides"))
        priv = self.b.js("return [...document.querySelectorAll('#detail svg.reuse-plot rect.bar')]"
                         ".map((r) => r.getAttribute('fill'));")
        rv = var.reuse
        self.c.equal((priv.count("#5b8fd0"), priv.count("#e0a040"), priv.count("#a0a0a0")),
                     (len(rv.private), len(rv.shared), 1),
                     "reuse plot: a private bar, a shared bar per bin, and cold")
        texts = self.b.js("return [...document.querySelectorAll('#detail svg.reuse-plot text')]"
                          ".map((t) => t.textContent);")
        self.c.check("reuse distance (cache lines)" in texts and "reuses (log)" in texts and
                     "L1 512 lines" in texts, "reuse plot: axes labelled, L1 capacity marked",
                     repr(texts))
        self.c.check("of shared" in (self.text("#detail-reuse .reuse-beyond") or ""),
                     "the shares of reuses beyond each level's capacity",
                     self.text("#detail-reuse .reuse-beyond"))
        self.b.js("document.getElementById('stride-plots').scrollIntoView();")
        self.shot("viewer-real-strides.png")

    def real_colwalk(self):
        """real_colwalk.json: real output of colwalk.c (two 512 x 512
        doubles walked by column: 4 KiB strides that alias in L2's sets;
        trimmed to 6 variables): the conflict strip and heat map."""
        self.open()
        self.c.equal(self.load("real_colwalk.json"), "loaded", "real_colwalk.json loads")
        data = read_file(self.fixture("real_colwalk.json"))
        cache = data.totals.cache
        levels = [n for n in ("L1", "L2", "L3") if cache[n].conflict_sets]
        self.c.equal(self.count("#conflicts .conflict-level"), len(levels),
                     "a conflict box per level with conflict sets")
        nsets = sum(len(cache[n].conflict_sets) for n in levels)
        self.c.equal(self.count("#conflicts svg.set-strip rect.set-bar"), nsets,
                     "set strips: a bar per hot set")
        l2 = cache["L2"].conflict_sets
        heads = self.b.js("return [...document.querySelectorAll('#conflicts table.conflict-heat')]"
                          "[1].querySelectorAll('thead th').length;")
        self.c.equal(heads, 1 + len(l2), "L2 heat map: a column per hot set")
        rows = self.b.js("return [...[...document.querySelectorAll('#conflicts "
                         "table.conflict-heat')][1].querySelectorAll('tbody tr')]"
                         ".map((tr) => [...tr.children].map((c) => c.textContent));")
        self.c.equal([r[0] for r in rows], ["all variables", "b", "a"],
                     "L2 heat map: the set totals, then the colliding variables")
        self.c.equal(rows[0][1:], ["{:,}".format(c.conflicts) for c in l2],
                     "L2 heat map: each set's conflict misses")
        coloured = self.b.js("return [...document.querySelectorAll('#conflicts td.heat-cell')]"
                             ".filter((td) => td.style.background).length;")
        self.c.check(coloured >= nsets, "heat map cells are coloured", str(coloured))
        self.c.check("2047" in self.text("#conflicts"), "L2 strip spans its 2,048 sets")
        self.b.js("document.getElementById('conflicts').scrollIntoView();")
        self.shot("viewer-real-conflicts.png")

    def real_alternatives(self):
        """real_alternatives.json: real output of advice_alternatives.c
        (trimmed to its 4 variables): two items with an alternative fix,
        each with its replay and how it holds as the problem grows."""
        self.open()
        self.c.equal(self.load("real_alternatives.json"), "loaded",
                     "real_alternatives.json loads")
        data = read_file(self.fixture("real_alternatives.json"))
        with_alt = [a for a in data.advice if a.alternatives]
        self.c.equal(self.count("#advice .advice-alt"), len(with_alt),
                     "an alternative block per alternative fix")
        text = self.text("#advice")
        for a in with_alt:
            self.c.check(a.alternatives[0].fix in text and a.alternatives[0].holds in text,
                         "the alternative's fix and what it holds are shown", text)
            self.c.check(("Holds " + a.holds) in text, "the item's own holds is shown", text)

    def real_lines(self):
        """real_lines.json: real output of --sample=lines (triad.c, three
        arrays of 8 MiB; the annotator's lines.json): every count a
        whole-run estimate with its 95% interval, the variables with too
        few lines in the sample (estimable false) without cache counts."""
        self.open()
        self.c.equal(self.load("real_lines.json"), "loaded", "real_lines.json loads")
        data = read_file(self.fixture("real_lines.json"))
        sampling = ("1 in 32 of the cache lines (2 of the L1's 64 sets), followed from start "
                    "to exit; counts are whole-run estimates with their 95% intervals")
        self.c.equal(self.b.js(JS_KV, "#run", "Sampled lines"), sampling,
                     "the run's description gives the sampling mode")
        self.c.check("mode: lines" not in self.text("#run"),
                     "config.sampling is not shown as raw keys", self.text("#run"))
        self.c.check(sampling in (self.text("#sampling-note") or ""),
                     "a note over the table says what the counts are",
                     self.text("#sampling-note") or "")
        keys = self.b.js(JS_KEYS)
        self.c.equal(keys[keys.index("stall") + 1] if "stall" in keys else None, "stall-ci",
                     "the interval column is right of the stall column")
        # The program's variables: the estimable ones by stall cycles,
        # then the others in the file's order.
        mine = [v for v in data.variables if v.class_ == "program"]
        sure = [v for v in mine if v.estimable]
        sure.sort(key=lambda v: -v.stall_cycles)
        rest = [v for v in mine if not v.estimable]
        self.c.equal(self.column("name"), [v.name for v in sure + rest],
                     "variables with too few lines in the sample come after the others")

        def plus_minus(v):
            lo, hi = v.ci.stall_cycles
            d = max(v.stall_cycles - lo, hi - v.stall_cycles)
            return "\u00b1%.1f%%" % (100.0 * d / v.stall_cycles)
        self.c.equal(self.column("stall-ci"), [plus_minus(v) for v in sure] + ["-"] * len(rest),
                     "the stall's interval in percent of it (\u00b13.0% for b), \"-\" for "
                     "the others")
        for key in ("stall", "cycles", "cpa", "miss-L1", "miss-L3"):
            self.c.equal(self.column(key)[len(sure):], ["-"] * len(rest),
                         "no %s for the variables with too few lines in the sample" % key)
        self.c.equal(self.column("accesses")[len(sure):],
                     ["{:,}".format(v.reads + v.writes) for v in rest],
                     "their accesses, exact, are shown")
        self.c.equal(self.b.js("const c = document.querySelector('#vartable td span.too-few');"
                               "return c ? c.title : null;"),
                     "too few lines in the sample", "a \"-\" says why in its tooltip")

        # The details of an estimable variable and of one that is not.
        b = sure[0]
        self.b.click("#vartable tbody tr[data-index='%d']" % data.variables.index(b))
        self.c.equal(self.b.js(JS_KV, "#detail", "Memory stall cycles"),
                     "{:,} (95% interval {:,} \u2013 {:,}, {})".format(
                         b.stall_cycles, b.ci.stall_cycles.lo, b.ci.stall_cycles.hi,
                         plus_minus(b)),
                     "an estimable variable's stall cycles with their interval")
        self.c.check("95% intervals of the misses: L1 {:,} \u2013 {:,}".format(
                         *b.ci.misses["L1"]) in (self.text("#detail .miss-intervals") or ""),
                     "and its misses' intervals", self.text("#detail .miss-intervals") or "")
        mapped = data.variables.index(next(v for v in rest if v.name == "triad:mapped"))
        self.b.click("#vartable tbody tr[data-index='%d']" % mapped)
        self.c.equal(self.b.js(JS_KV, "#detail", "Lines in the sample"),
                     "1: too few lines in the sample for its misses, cycles and stall (2 needed); "
                     "its accesses are exact", "a variable with too few lines says so")
        self.c.equal([self.b.js(JS_KV, "#detail", k) for k in
                      ("Memory stall cycles", "Est. memory cycles", "Cycles per access")],
                     ["-", "-", "-"], "and gives none of its cache estimates")
        self.c.equal((self.count("#detail-cache-bars"), self.count("#detail .too-few-note")),
                     (0, 1), "no cache bars, a note instead")
        keys = self.b.js(JS_KEYS, "#perline")
        self.c.check(keys and not any(k.startswith("miss-") or k in ("cycles", "cpa")
                                      for k in keys),
                     "its per-line table has no misses nor cycles", repr(keys))
        self.b.js("document.getElementById('variables').scrollIntoView();")
        self.shot("viewer-lines.png")

        # The runtime's variables: an interval wider than the estimate.
        self.b.click("#show-runtime")
        names = self.column("name")
        cache = next(v for v in data.variables if v.name == "ld.so.cache:mapped")
        self.c.equal(self.column("stall-ci")[names.index(cache.name)], "\u00b1>100%",
                     "an interval wider than the estimate is \u00b1>100%")
        # Another file: no sampling, no interval column.
        self.c.equal(self.load("basic.json"), "loaded", "basic.json loads after it")
        self.c.check("stall-ci" not in self.b.js(JS_KEYS) and not self.count("#sampling-note"),
                     "a file of another mode has no interval column nor note")

    def overlap(self):
        """struct_overlap.json: real output, a structure whose fields
        overlap (the dynamic linker's _rtld_local), fields without names,
        loops missing from the list."""
        self.open()
        self.c.equal(self.load("struct_overlap.json"), "loaded", "struct_overlap.json loads")
        self.c.check("overlap" in (self.text("#structs .struct-overlap") or ""),
                     "a note says that the fields overlap")
        self.c.equal(self.count("#structs .struct-split"), 0, "no split for overlapping fields")
        self.c.equal(self.count("#structs svg.affinity circle.node"), 18, "18 unnamed fields")
        self.c.equal(self.count("#structs svg.affinity circle.node[fill='#ccc']"), 18,
                     "overlapping fields are not coloured by group")
        loops = self.column("loops", "#structs .struct-fields")
        self.c.check(loops[0].startswith("dl-lookup.c:374-502, ") and "not listed" in loops[0],
                     "loops missing from the list are counted", repr(loops[0]))
        self.c.equal(self.column("name", "#structs .struct-fields")[:2], ["+0", "+4"],
                     "an unnamed field shows as +offset")

    def hostile(self):
        """Strings of the file that are markup must stay text.  An alert
        blocks the page, so they are dismissed and counted as they come."""
        self.open()
        alerts = []
        try:
            state = self.load("hostile.json")
        except WebDriverError:
            state = None
        alerts += self.b.dismiss_alerts()
        if state is None:
            state = self.b.js(JS_STATE)
        self.c.equal(state, "loaded", "hostile.json loads")
        data = read_file(self.fixture("hostile.json"))
        # Open every variable's detail, so that all its strings are shown.
        for i in range(len(data.variables)):
            try:
                self.b.click("#vartable tbody tr[data-index='%d']" % i)
            except WebDriverError:
                pass
            alerts += self.b.dismiss_alerts()
        self.c.equal(alerts, [], "no alert opened")
        self.c.equal(self.column("name"), [v.name for v in data.variables],
                     "names with markup, quotes, backslashes, non-ASCII shown literally")
        self.c.equal(self.column("where")[0], data.variables[0].where,
                     "a hostile 'where' is shown literally")
        self.c.check(data.command in self.text("#run"), "the command is shown literally")
        self.c.check(data.advice[0].text in self.text("#advice"),
                     "advice text with markup is shown literally")
        self.c.check(data.variables[-1].per_line[0].fn in self.text("#perline"),
                     "a hostile function name in the detail is shown literally")
        self.c.check(data.loops[0].formulas[0].formula in self.text("#loops-table"),
                     "a hostile formula in the loops table is shown literally")
        self.c.check(data.variables[1].struct.split in self.text("#structs"),
                     "a hostile structure split is shown literally")
        self.c.check("loop at share.c:68-71 (sweep)" in self.text("#advice"),
                     "advice on a loop names it")
        for e in self.b.find_all("#main [onmouseover], #main [onerror], #main [onload]"):
            self.c.check(False, "no element has an event handler attribute")
        self.b.js("for (const e of document.querySelectorAll('#loops-table td, #structs text'))"
                  "  e.dispatchEvent(new MouseEvent('mouseover', {bubbles: true}));")
        alerts += self.b.dismiss_alerts()
        self.c.equal(alerts, [], "still no alert after hovering the loops and structures")
        self.c.equal(self.b.js("return typeof window.__pwned;"), "undefined",
                     "no injected script or handler ran")
        self.c.equal(self.b.js("return document.scripts.length;"), 1,
                     "no script element was added")
        self.c.equal(self.count("#main img, #main iframe, #main marquee, #main a, #main b, "
                                "#main i, #main u, #main svg svg"), 0,
                     "no element was created from a string of the file")

    def classes(self):
        """classes.json: variables and loops of every class (runtime,
        loader, preload, other, a variable without "class"): the program's
        ranked, the others folded by object, as memprof_annotate does,
        until "show the runtime's data" is ticked.  The C library's data
        have more stall cycles than the loader's, the loader's more cycles
        (L1 hits); config.program says which objects are the program's."""
        self.open()
        self.c.equal(self.load("classes.json"), "loaded", "classes.json loads")
        self.c.equal(self.column("name"), ["grid", "buf", "stack:main"],
                     "the variables table ranks the program's variables only (and one "
                     "without class)")
        self.c.check("class" not in self.b.js(JS_KEYS), "no class column while folded",
                     repr(self.b.js(JS_KEYS)))
        self.c.check("3 of the program's variables (6 others" in self.text("#var-count"),
                     "the count says how many variables are folded", self.text("#var-count"))
        self.c.equal(self.column("object", "#folds-table"),
                     ["libc.so.6", "ld-linux-x86-64.so.2", "unattributed",
                      "vgpreload_memprof-amd64-linux.so"],
                     "one row per object, most stall cycles first, not most cycles "
                     "(class other: unattributed)")
        self.c.equal(self.column("class", "#folds-table"),
                     ["runtime", "loader", "other", "preload"], "each object's class")
        self.c.equal(self.column("accesses", "#folds-table"), ["550", "3,100", "10", "5"],
                     "each object's accesses, summed over its variables")
        self.c.equal(self.column("stall", "#folds-table"), ["10,780", "9,212", "392", "196"],
                     "each object's stall cycles, summed over its variables")
        self.c.equal(self.column("cycles", "#folds-table"), ["12,980", "21,612", "432", "216"],
                     "each object's cycles, summed over its variables")
        self.c.equal(self.column("variables", "#folds-table"), ["2", "2", "1", "1"],
                     "each object's number of variables")
        self.c.equal(self.column("place", "#loops-table"), ["classes.c:10-12"],
                     "the loops table lists the program's loops only")
        self.c.check("1 loop in the runtime's or the loader's code not shown"
                     in (self.text("#loops .loops-left-out") or ""),
                     "a line says how many loops were left out", self.text("#loops"))
        self.c.check("Show the runtime's data" in (self.b.js(
                         "const c = document.getElementById('show-runtime');"
                         "return c && !c.checked ? c.parentNode.textContent : null;") or ""),
                     "an unticked, labelled 'Show the runtime's data' checkbox")

        # config.program as text, not as the JSON object.
        program = self.b.js(JS_KV, "#run", "Whose data")
        self.c.equal(program, "Program's objects: classes; build tree: /home/user/classes/; "
                     "--program-objects patterns: (none)",
                     "the program's objects, build tree and patterns as text")
        run = self.text("#run")
        self.c.check("{" not in run and '"tree"' not in run and '"objects"' not in run,
                     "the Run section shows no raw JSON", run)

        self.b.js("document.getElementById('variables').scrollIntoView();")
        self.shot("viewer-classes-folded.png")

        # Select a program variable, then unfold: every variable ranked.
        self.b.click("#vartable tbody tr[data-index='2']")
        self.b.click("#show-runtime")
        self.c.equal(self.column("name"),
                     ["libc.so.6:.data", "_rtld_global", "grid", "ld-linux-x86-64.so.2:.bss",
                      "heap@filedoalloc.c:101", "buf", "other",
                      "vgpreload_memprof-amd64-linux.so:.bss", "stack:main"],
                     "ticked: every variable ranked by stall cycles")
        self.c.equal(self.column("class"),
                     ["runtime", "loader", "program", "loader", "runtime", "program", "other",
                      "preload", "program"], "ticked: a class column")
        self.c.equal(self.count("#folds-table"), 0, "ticked: no table by object")
        self.c.equal(self.b.js("return [...document.querySelectorAll('#vartable tr.selected')]"
                               ".map((tr) => tr.getAttribute('data-index'));"), ["2"],
                     "the selected row stays selected")
        self.c.equal(self.text("#detail .detail-name"), "grid", "the detail stays")
        self.c.equal(self.column("place", "#loops-table"),
                     ["../sysdeps/nptl/libc_start_call_main.h:58-74", "classes.c:10-12"],
                     "ticked: every loop, most accesses first")
        self.c.equal(self.column("class", "#loops-table"), ["runtime", "program"],
                     "ticked: the loops' class column")
        self.c.equal(self.count("#loops .loops-left-out"), 0, "ticked: no loop left out")
        self.b.click("#vartable th[data-key=class]")
        self.c.equal(self.column("class"),
                     ["loader", "loader", "other", "preload", "program", "program", "program",
                      "runtime", "runtime"], "click on 'class' sorts A to Z")
        self.b.click("#vartable tbody tr[data-index='0']")
        self.c.equal(self.text("#detail .detail-name"), "libc.so.6:.data",
                     "a click on the runtime's row opens its detail")
        self.b.cmd("POST", "/element/%s/value" % self.b.find("#filter"), {"text": ".bss"})
        self.c.equal(self.column("name"), ["ld-linux-x86-64.so.2:.bss",
                                           "vgpreload_memprof-amd64-linux.so:.bss"],
                     "the filter box works on the unfolded table")
        self.shot("viewer-classes.png")

        # Untick: folded again, the filter kept, the sort back to stall
        # cycles.
        self.b.click("#show-runtime")
        self.c.equal(self.column("name"), [], "unticked: the filter finds none of the program's")
        self.b.js("const f = document.getElementById('filter'); f.value = '';"
                  "f.dispatchEvent(new Event('input'));")
        self.c.equal(self.column("name"), ["grid", "buf", "stack:main"],
                     "unticked: the program's variables, by stall cycles")
        self.c.equal(self.count("#folds-table tbody tr"), 4, "unticked: the table by object")
        self.c.equal(self.count("#loops-table tbody tr"), 1, "unticked: the program's loop")

        # A new file starts folded; a file without classes has no checkbox.
        self.b.click("#show-runtime")
        self.c.equal(self.load("classes.json"), "loaded", "classes.json loads again")
        self.c.equal((self.b.js("return document.getElementById('show-runtime').checked;"),
                      len(self.column("name"))), (False, 3), "a new file starts folded")
        self.c.equal(self.load("basic.json"), "loaded", "basic.json loads after it")
        self.c.equal((self.count("#show-runtime"), self.count("#folds-table"),
                      len(self.column("name"))), (0, 0, 5),
                     "a file without classes: every variable the program's, no checkbox")

    def bad_files(self):
        self.open()
        for name, expected in (
                ("not_json.json", "not a JSON file"),
                ("newer_version.json",
                 "format version 2 is newer than this viewer understands (1)"),
                ("missing_key.json", 'missing key "variables[0].reads"')):
            state = self.load(name)
            msg = self.text("#error") or ""
            self.c.check(state == "error" and expected in msg and name in msg,
                         "%s: error message '%s'" % (name, expected), "state %s, %r" % (state, msg))
            self.c.equal(self.count("#vartable"), 0, name + ": no table is shown")
        self.c.equal(self.load("basic.json"), "loaded", "a good file loads after a bad one")
        self.c.equal(self.b.js("return document.getElementById('error').classList"
                               ".contains('hidden');"), True, "the error message is gone")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="build-viewer")
    ap.add_argument("--viewer", default=VIEWER)
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    ap.add_argument("--chromedriver",
                    default=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    opts = ap.parse_args()
    for prog in (opts.chromium, opts.chromedriver):
        if not (os.path.isfile(prog) and os.access(prog, os.X_OK)):
            print("SKIP: %s not found (install chromium chromium-driver)" % prog)
            return 77
    viewer = os.path.abspath(opts.viewer)
    outdir = os.path.abspath(opts.dir)
    os.makedirs(outdir, exist_ok=True)
    start = time.time()
    checks = Checks()
    port = free_port()
    profile = tempfile.mkdtemp(prefix="memprof-viewer-")
    log = open(os.path.join(outdir, "chromedriver.log"), "w")
    driver = subprocess.Popen([opts.chromedriver, "--port=%d" % port],
                              stdout=log, stderr=subprocess.STDOUT)
    browser = None
    try:
        end = time.time() + WAIT
        while True:
            try:
                with urllib.request.urlopen("http://127.0.0.1:%d/status" % port, timeout=2) as r:
                    if json.load(r)["value"].get("ready"):
                        break
            except (OSError, ValueError, KeyError):
                pass
            if driver.poll() is not None or time.time() > end:
                checks.check(False, "chromedriver starts", "see " + log.name)
                raise SystemExit
            time.sleep(0.1)
        try:
            browser = Browser(port, opts.chromium, profile)
        except (OSError, WebDriverError) as e:
            checks.check(False, "headless chromium starts", str(e))
            raise SystemExit
        t = ViewerTest(browser, checks, viewer, HERE, outdir)
        t.static_checks(viewer)
        for step in (t.empty_page, t.basic, t.nocache, t.rich, t.structs, t.loops, t.detail,
                     t.real_threads, t.real_colwalk, t.real_alternatives, t.real_lines,
                     t.overlap,
                     t.classes, t.hostile,
                     t.bad_files):
            try:
                step()
            except (OSError, WebDriverError, TimeoutError, TypeError, ValueError,
                    KeyError, IndexError, AttributeError) as e:
                checks.check(False, "%s runs to the end" % step.__name__,
                             "%s: %s" % (type(e).__name__, e))
    except SystemExit:
        pass
    finally:
        if browser:
            browser.quit()
        driver.terminate()
        try:
            driver.wait(10)
        except subprocess.TimeoutExpired:
            driver.kill()
            driver.wait()
        log.close()
        shutil.rmtree(profile, ignore_errors=True)
    print("viewer test took %.1f s" % (time.time() - start))
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
