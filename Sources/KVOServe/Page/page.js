// The kvo-run playground (`kvo-run serve`). Plain JavaScript, no build step and
// nothing fetched from elsewhere: the page must work offline, served by kvo-run.
// The server keeps nothing; the scenario lives in the URL fragment (#s=…).
"use strict";

const $ = (id) => document.getElementById(id);
const editor = $("editor"), highlight = $("highlight").firstElementChild, gutter = $("gutter");
const output = $("output"), explain = $("explain"), graph = $("graph"), trace = $("trace");
const statusLine = $("status"), picker = $("examples"), diagnosticsList = $("diagnostics");

let lastRun = null;        // {source, statements, explain} of the last run shown
let diagnostics = [];      // the last run's diagnostics, drawn in the gutter and list
let running = false, runAgain = false;   // one run at a time: the server may answer 503 to a second
let caretLineShown = 0;    // the caret line the panes were last updated for
let graphKey = "";         // line + source of the graph shown (or asked for), to skip repeats
let graphSeq = 0;          // answers of older /graph requests are ignored
let graphTimer = 0, urlTimer = 0;
let tabLeaves = false;     // after Esc, Tab leaves the editor (no keyboard trap)
const examples = new Map();   // name → example

// ---------------------------------------------------------------- highlighting

const KEYWORDS = new Set(("class let var func if else while for in return context do catch try " +
  "throw override dynamic static init deinit self super true false nil import struct enum " +
  "willSet didSet get set guard repeat release").split(" "));
// Dot literals (options, change kinds, set mutations), only after a non-identifier
// so that `change.new` stays a plain member access.
const DOT_LITERAL = /^\.(new|old|initial|prior|setting|insertion|removal|replacement|union|minus|intersect|set)\b/;

const escapeHTML = (s) => s.replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"})[c]);
const span = (cls, text) => `<span class="${cls}">${escapeHTML(text)}</span>`;

// One line to HTML. `state.comment` is the depth of /* */ comments open at the
// line's start (they nest, and may span lines); it is updated for the next line.
function highlightLine(line, state) {
  let html = "", i = 0;
  if (state.first && line.startsWith("#!")) return span("com", line);
  while (i < line.length) {
    if (state.comment > 0) {
      const start = i;
      while (i < line.length && state.comment > 0) {
        if (line.startsWith("/*", i)) { state.comment++; i += 2; }
        else if (line.startsWith("*/", i)) { state.comment--; i += 2; }
        else i++;
      }
      html += span("com", line.slice(start, i));
      continue;
    }
    const rest = line.slice(i), prev = line[i - 1] || " ";
    let m;
    if (rest.startsWith("//")) { html += span("com", rest); break; }
    if (rest.startsWith("/*")) { state.comment = 1; html += span("com", "/*"); i += 2; continue; }
    if (rest[0] === '"') { const s = highlightString(line, i); html += s.html; i = s.end; continue; }
    if ((m = /^[0-9][0-9_]*(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(rest))) html += span("num", m[0]);
    else if ((m = /^@[A-Za-z_]\w*/.exec(rest))) html += span("attr", m[0]);
    else if (!/[\w)\]]/.test(prev) && (m = DOT_LITERAL.exec(rest))) html += span("lit", m[0]);
    else if ((m = /^[A-Za-z_]\w*/.exec(rest))) {
      const word = m[0];
      // `context:` is an argument label, and `context` alone a name; `context Name` declares.
      const plain = line[i + word.length] === ":" || (word === "context" && !/^\s+[A-Za-z_]/.test(rest.slice(7)));
      html += KEYWORDS.has(word) && !plain ? span("kw", word) : /^[A-Z]/.test(word) ? span("type", word) : escapeHTML(word);
    } else {
      m = [rest[0]];
      html += escapeHTML(rest[0]);
    }
    i += m[0].length;
  }
  return html;
}

// A string literal from line[start] (a quote): escapes, and \( … ) whose inside
// is highlighted as code. An unterminated string runs to the end of the line.
function highlightString(line, start) {
  let html = "", i = start + 1, text = '"';
  const flush = () => { html += span("str", text); text = ""; };
  while (i < line.length) {
    if (line.startsWith("\\(", i)) {
      flush();
      let depth = 1, j = i + 2;
      while (j < line.length && depth > 0) {
        if (line[j] === "(") depth++; else if (line[j] === ")") depth--;
        j++;
      }
      const inner = line.slice(i + 2, depth === 0 ? j - 1 : j);
      html += span("interp", "\\(") + highlightLine(inner, {comment: 0}) + (depth === 0 ? span("interp", ")") : "");
      i = j;
      continue;
    }
    if (line[i] === "\\") { text += line.slice(i, i + 2); i += 2; continue; }
    text += line[i++];
    if (line[i - 1] === '"') break;
  }
  flush();
  return {html, end: i};
}

// Redraw the highlight layer and the gutter from the textarea, with the
// diagnostics' lines tinted and marked.
function render() {
  const lines = editor.value.split("\n"), state = {comment: 0, first: true};
  const byLine = new Map(), rank = {note: 1, warning: 2, error: 3};
  for (const d of diagnostics) {   // a line's mark: its worst severity, all its messages
    const mark = byLine.get(d.line) || {severity: d.severity, messages: []};
    if (rank[d.severity] > rank[mark.severity]) mark.severity = d.severity;
    mark.messages.push(`${d.severity}: ${d.message}`);
    byLine.set(d.line, mark);
  }
  let code = "", numbers = "";
  lines.forEach((line, n) => {
    const d = byLine.get(n + 1), cls = d ? ` diag-${d.severity}` : "";
    // An empty line still needs a line box: a space.
    code += `<span class="line${cls}">${highlightLine(line, state) || " "}</span>`;
    state.first = false;
    const title = d ? ` title="${escapeHTML(d.messages.join("\n"))}"` : "";
    numbers += `<div class="ln${cls}" data-line="${n + 1}"${title}>${n + 1}</div>`;
  });
  highlight.innerHTML = code;
  gutter.innerHTML = numbers;
  caretLineShown = 0;   // the current-line mark was redrawn away
  syncScroll();
  onCaret();
}

function syncScroll() {
  highlight.parentElement.scrollTop = editor.scrollTop;
  highlight.parentElement.scrollLeft = editor.scrollLeft;
  gutter.scrollTop = editor.scrollTop;
}

// ---------------------------------------------------------------- the editor

const caretLine = () => editor.value.slice(0, editor.selectionStart).split("\n").length;

function setCaret(line, column) {
  const lines = editor.value.split("\n");
  let offset = 0;
  for (let n = 0; n < line - 1 && n < lines.length; n++) offset += lines[n].length + 1;
  offset += Math.min(Math.max(column - 1, 0), (lines[line - 1] || "").length);
  editor.focus();
  editor.setSelectionRange(offset, offset);
  onCaret();
}

function setSource(text) {
  editor.value = text;
  editor.setSelectionRange(text.length, text.length);   // the end: the graph of the whole scenario
  editor.scrollTop = 0;
  render();
}

// The caret moved (or may have): update the current line, the explanation, and
// ask for the graph at that line a little later.
function onCaret() {
  const line = caretLine();
  if (line === caretLineShown) return;
  caretLineShown = line;
  for (const el of highlight.querySelectorAll(".current")) el.classList.remove("current");
  const el = highlight.children[line - 1];
  if (el) el.classList.add("current");
  showExplanation();
  clearTimeout(graphTimer);
  graphTimer = setTimeout(requestGraph, 250);
}

editor.addEventListener("input", () => {
  render();             // also re-evaluates the caret: the explanation goes stale
  picker.value = "";   // no longer the example as shipped
  clearTimeout(urlTimer);
  urlTimer = setTimeout(saveToURL, 300);
});
editor.addEventListener("scroll", syncScroll);
for (const event of ["keyup", "mouseup", "focus", "select", "selectionchange"]) editor.addEventListener(event, onCaret);

editor.addEventListener("focus", () => { tabLeaves = false; });
editor.addEventListener("keydown", (event) => {
  if (event.key === "Escape") { tabLeaves = true; return; }
  if (event.key === "Tab" && !tabLeaves && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
    event.preventDefault();
    // execCommand keeps the browser's undo history; setRangeText where it is gone.
    if (!document.execCommand("insertText", false, "    ")) {
      editor.setRangeText("    ", editor.selectionStart, editor.selectionEnd, "end");
      editor.dispatchEvent(new Event("input"));
    }
    return;
  }
  if (event.key !== "Tab") tabLeaves = false;
});

// Ctrl-Enter (Cmd-Enter on a Mac) runs from anywhere on the page.
document.addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); run(); }
});

// A click on a line number puts the caret on that line.
gutter.addEventListener("mousedown", (event) => {
  const line = Number(event.target.dataset.line);
  if (line) { event.preventDefault(); setCaret(line, 1); }
});

// ---------------------------------------------------------------- the server
// Relative addresses ("run", not "/run"), so that the page also works behind a
// proxy that serves it under a path of its own.

async function post(path, body) {
  let response;
  try {
    response = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  } catch (error) {
    throw new Error(`cannot reach the server (${error.message})`);
  }
  const answer = await response.json().catch(() => null);
  if (!response.ok || !answer) {
    const fallback = response.status === 413 ? "the scenario is too large for the playground" : `the server answered ${response.status}`;
    throw new Error((answer && answer.error) || fallback);
  }
  return answer;
}

async function run() {
  if (running) { runAgain = true; return; }   // run again, with the newest source, when this one ends
  running = true; runAgain = false;
  const source = editor.value, line = caretLine();
  setStatus("Running…", "busy");
  output.setAttribute("aria-busy", "true");
  try {
    showRun(await post("run", {source, line}), source, line);
  } catch (error) {
    setStatus(`error: ${error.message}`, "error");
    output.replaceChildren(lineSpan(`error: ${error.message}`, "err"));
  } finally {
    running = false;
    output.removeAttribute("aria-busy");
    if (runAgain) run();
  }
}

function showRun(answer, source, line) {
  lastRun = {source, statements: answer.statements || [], explain: answer.explain};
  showText(output, answer.output || "");
  diagnostics = answer.diagnostics || [];
  showDiagnostics();
  const count = (answer.output || "").split("\n").filter((l) => l.includes(" → ")).length;
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  setStatus(`exit ${answer.status} · ${count} notification${count === 1 ? "" : "s"}` +
    (errors ? ` · ${errors} error${errors === 1 ? "" : "s"}` : ""), answer.status === 0 ? "ok" : "error");
  graphSeq++;   // a /graph answer on its way is older than this run's
  if (answer.graph) { graphKey = `${answer.graph.line}\n${source}`; showGraph(answer.graph); }
  else graph.replaceChildren(hint("No graph for this run."));
  if (answer.trace && answer.trace.svg) insertSVG(trace, answer.trace.svg);
  else trace.replaceChildren(hint("No sequence diagram for this run."));
  render();   // diagnostics in the gutter; the caret's explanation; a new graph if the caret moved since
}

async function requestGraph() {
  const line = caretLine(), source = editor.value, key = `${line}\n${source}`;
  if (key === graphKey || running) return;   // a run brings its own graph
  // Edited since the last run: the next run draws it. (Each /graph request
  // runs the whole scenario on the server's one runner; while typing, that
  // would be a run per pause, a runaway one included.)
  if (!lastRun || lastRun.source !== source) return;
  graphKey = key;
  const seq = ++graphSeq;
  try {
    const answer = await post("graph", {source, line});
    if (seq === graphSeq) showGraph(answer);
  } catch (error) {
    if (seq !== graphSeq) return;
    graphKey = "";   // try again on the next move
    graph.replaceChildren(hint(`No graph: ${error.message}`));
  }
}

// ---------------------------------------------------------------- the panes

function setStatus(text, kind) {
  statusLine.textContent = text;
  statusLine.className = kind || "";
}

const hint = (text) => Object.assign(document.createElement("p"), {className: "hint", textContent: text});

function lineSpan(text, cls) {
  const el = document.createElement("span");
  el.textContent = text + "\n";
  if (cls) el.className = cls;
  return el;
}

// kvo-run's text format, one span per line so that notifications, errors and
// explanations get their colour; caret lines stay aligned as the pane is monospace.
function classOf(line) {
  if (/^\s*#/.test(line)) return "expl";
  if (/(^|\s|:)error:/.test(line) || /^\s*\*\*\*/.test(line)) return "err";
  if (/(^|\s|:)warning:/.test(line)) return "warn";
  if (/(^|\s|:)note:/.test(line)) return "note";
  if (/^\s*[\^~]+\s*$/.test(line)) return "caret";
  if (line.includes(" → ")) return "notif";
  return "";
}

function showText(pane, text) {
  const lines = text.replace(/\n$/, "").split("\n");
  pane.replaceChildren(...(text ? lines.map((l) => lineSpan(l, classOf(l))) : [hint("(no output)")]));
}

function showExplanation() {
  const heading = $("explain-heading");
  heading.textContent = "Explain";
  if (!lastRun) return explain.replaceChildren(hint("Run the scenario (Ctrl-Enter), then click a line to see what KVO did there."));
  if (editor.value !== lastRun.source) return explain.replaceChildren(hint("Run again to explain the edited scenario."));
  if (lastRun.explain != null) {   // a Swift program: one explanation for the whole run
    heading.textContent = "Explain (whole program)";
    return showText(explain, lastRun.explain);
  }
  const line = caretLine();
  let best = null;
  for (const s of lastRun.statements) if (s.line <= line && (!best || s.line > best.line)) best = s;
  if (!best) return explain.replaceChildren(hint("Click a line with a statement to see what KVO did there."));
  heading.textContent = `Explain (line ${best.line})`;
  if (best.explain) showText(explain, best.explain);
  else explain.replaceChildren(hint("KVO did nothing at this statement."));
}

function showGraph(answer) {
  $("graph-heading").textContent = `Graph (at line ${answer.line})`;
  if (answer.svg) return insertSVG(graph, answer.svg);
  if (answer.dot) {
    const pre = document.createElement("pre");
    pre.textContent = answer.dot;
    return graph.replaceChildren(hint("Graphviz is not installed on the server: the graph as DOT"), pre);
  }
  graph.replaceChildren(hint("No graph at this line."));
}

// The SVGs come from kvo-run and Graphviz with their text escaped; still, as a
// defence, parse them as XML and drop scripts and event handlers before they
// join the page (imported nodes never run <script>, but on* attributes would).
function insertSVG(pane, text) {
  const doc = new DOMParser().parseFromString(text, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.localName !== "svg" || doc.querySelector("parsererror")) {
    return pane.replaceChildren(hint("The server sent a picture the page cannot read."));
  }
  for (const el of svg.querySelectorAll("script, foreignObject")) el.remove();
  for (const el of [svg, ...svg.querySelectorAll("*")]) {
    for (const attr of [...el.attributes]) {
      if (/^on/i.test(attr.name) || (/href$/i.test(attr.name) && /^\s*javascript:/i.test(attr.value))) el.removeAttribute(attr.name);
    }
  }
  // Fitting the pane needs a viewBox (Graphviz and kvo-run write one).
  const width = parseFloat(svg.getAttribute("width")), height = parseFloat(svg.getAttribute("height"));
  if (!svg.hasAttribute("viewBox") && width && height) svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  pane.replaceChildren(document.importNode(svg, true));
}

// A click (or Enter, Space) on a picture toggles between fitting the pane and its own size.
for (const pane of [graph, trace]) {
  pane.addEventListener("click", () => pane.classList.toggle("actual"));
  pane.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pane.classList.toggle("actual"); }
  });
}

function showDiagnostics() {
  diagnosticsList.replaceChildren(...diagnostics.map((d) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = `diag-${d.severity}`;
    button.textContent = `${d.line}:${d.column}: ${d.severity}: ${d.message}`;
    button.addEventListener("click", () => setCaret(d.line, d.column));
    const item = document.createElement("li");
    item.append(button);
    return item;
  }));
}

// ---------------------------------------------------------------- the URL and the examples

// #s= + base64url (RFC 4648 §5, no padding) of the UTF-8 source.
function encodeSource(text) {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decodeSource(text) {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - base64.length % 4) % 4));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

const urlFor = (source) => `#s=${encodeSource(source)}`;
function saveToURL() {
  clearTimeout(urlTimer);
  history.replaceState(null, "", urlFor(editor.value));
}

// The scenario in the fragment, or null when there is none (or it is unreadable).
function sourceFromURL() {
  const encoded = new URLSearchParams(location.hash.slice(1)).get("s");
  if (encoded === null) return null;
  try { return decodeSource(encoded); } catch (error) {
    setStatus("The link's scenario could not be read.", "error");
    return null;
  }
}

// Swift programs compile for a while on the server: run them only when asked.
const looksLikeSwift = (source) => /^\s*(\/\/[^\n]*\n\s*)*import\s+Foundation\b/.test(source);
function loadAndRun(source) {
  setSource(source);
  if (!looksLikeSwift(source)) run();
  else setStatus("A Swift program: press Run (Ctrl-Enter) to compile and run it.");
}

function restoreFromURL() {
  const source = sourceFromURL();
  if (source !== null && source !== editor.value) loadAndRun(source);
  return source !== null;
}
window.addEventListener("popstate", restoreFromURL);   // Back after picking an example; a pasted link

picker.addEventListener("change", () => {
  const example = examples.get(picker.value);
  if (!example) return;
  history.pushState(null, "", urlFor(example.source));   // Back returns to the scenario before
  loadAndRun(example.source);
  picker.value = example.name;
});

$("run").addEventListener("click", run);

$("share").addEventListener("click", async () => {
  saveToURL();
  const note = $("share-note"), field = $("share-url");
  try {
    await navigator.clipboard.writeText(location.href);
    field.hidden = true;
    note.textContent = "Link copied";
  } catch (error) {   // no clipboard (an insecure origin): let the user copy it
    field.value = location.href;
    field.hidden = false;
    field.select();
    note.textContent = document.execCommand("copy") ? "Link copied" : "Copy the selected link";
  }
  setTimeout(() => { note.textContent = ""; }, 3000);
});

async function loadExamples() {
  let answer;
  try {
    answer = await (await fetch("examples")).json();
  } catch (error) {
    picker.replaceChildren(new Option("No examples", ""));
    return;
  }
  picker.replaceChildren(new Option("Examples…", ""));
  for (const group of answer.groups || []) {
    const optgroup = document.createElement("optgroup");
    optgroup.label = group.title;
    for (const example of group.examples) {
      examples.set(example.name, example);
      optgroup.append(new Option(example.title, example.name));
    }
    picker.append(optgroup);
  }
  if (editor.value === "" && examples.size) {   // no scenario in the link: the first example
    const first = examples.values().next().value;
    history.replaceState(null, "", urlFor(first.source));
    loadAndRun(first.source);
    picker.value = first.name;
  } else {
    for (const example of examples.values()) if (example.source === editor.value) picker.value = example.name;
  }
}

// A link's scenario shows at once; the examples follow.
showExplanation();
if (!restoreFromURL()) render();
loadExamples();
