#!/usr/bin/python3
"""A stand-in for `kvo-run serve`, to work on the playground page without the
Swift server. It serves Sources/KVOServe/Page/ and implements the page's API with
canned or faked answers. It also documents the contract:

GET  /            the page (index.html); GET /page.css, GET /page.js
GET  /examples    {"allowSwift": false, "groups": [{"title": "Tutorial",
                   "examples": [{"name": "tutorial/1", "title": "1. A first observer",
                                 "source": "class Account …"}, …]}, …]}
POST /run         {"source": "…", "line": 7}  (line: the caret line, 1-based, for the graph)
                  → 200 {"language": "scenario" | "swift",
                         "status": 0 | 1 | 2,       # kvo-run's exit status
                         "output": "…",             # kvo-run --no-color FILE, stdout and stderr
                         "diagnostics": [{"severity": "error" | "warning" | "note",
                                          "line": 3, "column": 5, "message": "…"}],
                         "statements": [{"line": 5, "explain": "# …\n"}],   # each top-level statement
                         "explain": null,           # a Swift program: its whole --explain output
                         "graph": {"line": 7, "svg": "<svg…>" | null, "dot": "digraph …"},
                         "trace": {"svg": "<svg…>"}}
                  → 400 {"error": …} malformed, 403 {"error": …} a Swift program without
                    --allow-swift, 413 too large, 503 {"error": "busy …"}
POST /graph       {"source": "…", "line": 7} → {"line": 7, "svg": "<svg…>" | null, "dot": "digraph …"}

The fake understands just enough of a scenario for the tutorial's first step:
`let x = T(…)`, `x.addObserver(y, forKeyPath: "k" …)`, `x.k = …` (one notification
per observer, newest first); `undefinedName` is an error, `while true` the
playground's time limit, `import Foundation` a Swift program (refused).
Its graph SVG carries a <script> and an onclick, which the page must drop.

With --kvo-run PATH the scenarios really run (kvo-run --no-color, graph, trace;
each statement's explanation from --explain runs of the scenario cut before it and
after it), to see real outputs in the page; the canned answers above still come first.

Usage: Tests/Browser/mock_server.py [--port 8765] [--no-graphviz] [--slow SECONDS] [--kvo-run PATH]
"""
import argparse
import glob
import html
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from http.server import ThreadingHTTPServer, BaseHTTPRequestHandler

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PAGE = os.path.join(ROOT, "Sources", "KVOServe", "Page")
MAX_SOURCE = 64 * 1024
OPTIONS = None

TUTORIAL_1 = """class Account { var balance: Double = 0 }
class Person { }
let acct = Account(balance: 100)
let alice = Person()
acct.addObserver(alice, forKeyPath: "balance")
acct.balance = 200
acct.balance = 200
"""


def examples():
    """The tutorial's ```kvo blocks and the scenarios/ folders, as the server's groups."""
    groups = []
    tutorial = []
    try:
        text = open(os.path.join(ROOT, "docs", "tutorial.md"), encoding="utf-8").read()
        for match in re.finditer(r"^## (\d+)\. (.*?)\n(.*?)(?=^## |\Z)", text, re.S | re.M):
            block = re.search(r"```kvo\n(.*?)```", match.group(3), re.S)
            if block:
                tutorial.append({"name": f"tutorial/{match.group(1)}",
                                 "title": f"{match.group(1)}. {match.group(2)}",
                                 "source": block.group(1)})
    except OSError:
        pass
    groups.append({"title": "Tutorial", "examples": tutorial or [
        {"name": "tutorial/1", "title": "1. A first observer", "source": TUTORIAL_1}]})
    for folder, title in (("guide", "Apple's guide"), ("objcio", "objc.io"), ("explain", "--explain")):
        items = []
        for path in sorted(glob.glob(os.path.join(ROOT, "scenarios", folder, "*.kvo"))):
            stem = os.path.splitext(os.path.basename(path))[0]
            items.append({"name": f"{folder}/{stem}",
                          "title": stem.replace("_", " ").lstrip("0123456789 ").capitalize(),
                          "source": open(path, encoding="utf-8").read()})
        if items:
            groups.append({"title": title, "examples": items})
    return {"allowSwift": False, "groups": groups}


def fake_run(source):
    """Interprets the tiny subset the docstring names."""
    observers, events, statements = {}, [], []
    diagnostics, output, status = [], [], 0
    for number, line in enumerate(source.split("\n"), 1):
        text = line.strip()
        explain = []
        if re.match(r"let (\w+) = (\w+)\(", text):
            pass
        elif m := re.match(r'(\w+)\.addObserver\((\w+), forKeyPath: "([\w.]+)"', text):
            target, observer, key = m.groups()
            regs = observers.setdefault((target, key), [])
            regs.append(observer)
            explain.append(f"# addObserver: {target}[{len(regs) - 1}] registered: {observer} observes "
                           f"{target}.{key}, no options, no context")
        elif m := re.match(r"(\w+)\.(\w+) = ", text):
            target, key = m.groups()
            regs = observers.get((target, key), [])
            if regs:
                explain.append(f"# change of {target}.{key} (kind 1, setting), automatic: "
                               "KVO wraps the setter in willChange/didChange")
            for observer in reversed(regs):
                notification = f"{target}.{key} → {observer} {{kind = 1}}"
                explain.append(notification)
                output.append(notification)
                events.append((number, text, key, observer))
        if "undefinedName" in text:
            column = line.index("undefinedName") + 1
            message = "cannot find 'undefinedName' in scope"
            diagnostics.append({"severity": "error", "line": number, "column": column, "message": message})
            output += [f"scenario.kvo:{number}:{column}: error: {message}", line,
                       " " * (column - 1) + "^" + "~" * (len("undefinedName") - 1)]
            status = 2
        if text[:1].isalpha() and not text.startswith(("class", "context")):
            statements.append({"line": number, "explain": "".join(l + "\n" for l in explain)})
    if status == 2:   # a script error: nothing ran
        output = [l for l in output if " → " not in l]
        statements, events = [], []
    return status, output, diagnostics, statements, events


def svg_graph(source, line):
    """A faked observation graph: the objects declared up to the line, an edge per observance."""
    lines = source.split("\n")[:line]
    objects = [m.groups() for l in lines if (m := re.match(r"\s*let (\w+) = (\w+)\(", l))]
    edges = [m.groups() for l in lines
             if (m := re.match(r'\s*(\w+)\.addObserver\((\w+), forKeyPath: "([\w.]+)"', l))]
    width = max(160 * len(objects), 240)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="110" '
             f'viewBox="0 0 {width} 110" onclick="document.title=\'owned\'">',
             '<script>document.title = "owned";</script>',
             f'<rect width="{width}" height="110" fill="white"/>',
             f'<text x="8" y="14" font-size="10" font-family="sans-serif">mock graph at line {line}</text>']
    x = {}
    for i, (name, cls) in enumerate(objects):
        x[name] = 20 + 160 * i
        parts.append(f'<rect x="{x[name]}" y="30" width="120" height="30" fill="#dbe9f6" stroke="#1b1b1b"/>'
                     f'<text x="{x[name] + 8}" y="50" font-family="sans-serif" font-size="12">'
                     f'{html.escape(name)}: {html.escape(cls)}</text>')
    for target, observer, key in edges:
        if target in x and observer in x:
            parts.append(f'<line x1="{x[target] + 60}" y1="60" x2="{x[observer] + 60}" y2="80" stroke="#1b1b1b"/>'
                         f'<text x="{(x[target] + x[observer]) // 2 + 60}" y="100" font-size="11" '
                         f'font-family="sans-serif" text-anchor="middle">{html.escape(key)}</text>')
    parts.append("</svg>")
    dot = "digraph kvo {\n" + "".join(f'  "{t}" -> "{o}" [label="{k}"];\n' for t, o, k in edges) + "}\n"
    return {"line": line, "svg": None if OPTIONS.no_graphviz else "".join(parts), "dot": dot}


def svg_trace(events):
    height = 40 + 26 * len(events)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="520" height="{height}" viewBox="0 0 520 {height}">',
             f'<rect width="520" height="{height}" fill="white"/>',
             '<text x="10" y="20" font-size="14" font-weight="bold" font-family="sans-serif">mock trace</text>']
    for i, (number, text, key, observer) in enumerate(events):
        y = 46 + 26 * i
        parts.append(f'<text x="10" y="{y}" font-size="12" font-family="sans-serif" fill="#2e7d32">'
                     f'line {number}: {html.escape(text)}</text>'
                     f'<text x="320" y="{y}" font-size="12" font-family="sans-serif">'
                     f'{html.escape(key)} → {html.escape(observer)}</text>')
    parts.append("</svg>")
    return {"svg": "".join(parts)}


def run(source, line):
    if re.match(r"\s*import\s+Foundation\b", source):
        return 403, {"error": "Swift programs run only when the server was started with --allow-swift: "
                              "a program is compiled and run as arbitrary code on the serving machine "
                              "(kvo-run serve --allow-swift). Scenarios (.kvo) always run."}
    if m := re.search(r"^while true", source, re.M):
        number = source[:m.start()].count("\n") + 1
        message = ("the scenario ran longer than 2 s and was stopped (the playground's limit for a request); "
                   "does a loop never end?")
        time.sleep(2)
        return 200, {"language": "scenario", "status": 1,
                     "output": f"scenario.kvo:{number}:1: error: {message}\nwhile true {{ i = i + 1 }}\n^\n",
                     "diagnostics": [{"severity": "error", "line": number, "column": 1, "message": message}],
                     "statements": [], "explain": None, "graph": svg_graph(source, line), "trace": svg_trace([])}
    if OPTIONS.kvo_run and "undefinedName" not in source:
        return 200, real_run(source, line)
    status, output, diagnostics, statements, events = fake_run(source)
    return 200, {"language": "scenario", "status": status,
                 "output": "".join(l + "\n" for l in output), "diagnostics": diagnostics,
                 "statements": statements, "explain": None,
                 "graph": svg_graph(source, line), "trace": svg_trace(events)}


def kvo_run(source, *arguments):
    """Runs the real kvo-run on the source; returns (status, stdout and stderr, the -o file's text)."""
    with tempfile.TemporaryDirectory() as folder:
        path, out = os.path.join(folder, "scenario.kvo"), os.path.join(folder, "out.svg")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
        command = [OPTIONS.kvo_run] + [a.replace("FILE", path).replace("OUT", out) for a in arguments]
        done = subprocess.run(command, capture_output=True, text=True, timeout=10, cwd=folder)
        picture = open(out, encoding="utf-8").read() if os.path.exists(out) else None
        return done.returncode, (done.stdout + done.stderr).replace(path, "scenario.kvo"), picture


def statement_lines(source):
    """Where the top-level statements start: lines at bracket depth 0 (roughly)."""
    starts, depth = [], 0
    for number, line in enumerate(source.split("\n"), 1):
        text = line.strip()
        if depth == 0 and text and not text.startswith(("//", "}", ")", "]", ".")):
            starts.append(number)
        depth += sum(text.count(c) for c in "({[") - sum(text.count(c) for c in ")}]")
    return starts


def real_run(source, line):
    status, output, _ = kvo_run(source, "--no-color", "FILE")
    diagnostics = [{"severity": m.group(3), "line": int(m.group(1)), "column": int(m.group(2)), "message": m.group(4)}
                   for m in re.finditer(r"^scenario\.kvo:(\d+):(\d+): (error|warning|note): (.*)$", output, re.M)]
    lines, starts, statements, before = source.split("\n"), statement_lines(source), [], ""
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else len(lines)
        after = kvo_run("\n".join(lines[:end]) + "\n", "--explain", "--no-color", "--keep-going", "FILE")[1]
        statements.append({"line": start, "explain": after[len(before):] if after.startswith(before) else after})
        before = after
    trace = kvo_run(source, "trace", "FILE", "-o", "OUT")[2]
    return {"language": "scenario", "status": status, "output": output, "diagnostics": diagnostics,
            "statements": statements, "explain": None, "graph": real_graph(source, line), "trace": {"svg": trace}}


def real_graph(source, line):
    svg = kvo_run(source, "graph", "FILE", "--at", str(line), "-o", "OUT")[2]
    return {"line": line, "svg": None if OPTIONS.no_graphviz else svg, "dot": "digraph kvo { }"}


class Handler(BaseHTTPRequestHandler):
    FILES = {"/": ("index.html", "text/html; charset=utf-8"),
             "/page.css": ("page.css", "text/css; charset=utf-8"),
             "/page.js": ("page.js", "text/javascript; charset=utf-8")}

    def send(self, code, body, kind="application/json"):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path in self.FILES:
            name, kind = self.FILES[path]
            with open(os.path.join(PAGE, name), "rb") as f:
                return self.send(200, f.read(), kind)
        if path == "/examples":
            return self.send(200, examples())
        self.send(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_SOURCE + 1024:
            return self.send(413, {"error": "the scenario is larger than the playground's 64 KB"})
        try:
            body = json.loads(self.rfile.read(length))
            source, line = body["source"], int(body.get("line", 1))
            assert isinstance(source, str)
        except (ValueError, KeyError, TypeError, AssertionError):
            return self.send(400, {"error": "expected {\"source\": \"…\", \"line\": N}"})
        time.sleep(OPTIONS.slow)
        if self.path == "/run":
            return self.send(*run(source, line))
        if self.path == "/graph":
            return self.send(200, real_graph(source, line) if OPTIONS.kvo_run else svg_graph(source, line))
        self.send(404, {"error": "not found"})

    def log_message(self, format, *args):
        sys.stderr.write("mock: " + format % args + "\n")


def main():
    global OPTIONS
    parser = argparse.ArgumentParser(description="A mock of kvo-run serve for the playground page.")
    parser.add_argument("--port", type=int, default=8765, help="0: any free port")
    parser.add_argument("--no-graphviz", action="store_true", help="answer graphs with DOT only")
    parser.add_argument("--slow", type=float, default=0.2, help="seconds each POST takes")
    parser.add_argument("--kvo-run", metavar="PATH", help="really run scenarios with this kvo-run")
    OPTIONS = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", OPTIONS.port), Handler)
    print(f"kvo-run serve: http://127.0.0.1:{server.server_port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
