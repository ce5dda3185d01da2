"""The play page: the table as the replay page draws it (:data:`~atomic_africa.replay.page.BOARD_SCRIPT`),
the choices of the decision at hand, the battle log beside it, each side's forces, and the shots
of the last phase with their odds; a tool bar with undo, a range ruler with line of sight, the speed
the AI's turn is played out at, and a new game or a saved one.

The page holds no rules: it shows the ``choices`` the server sends (:func:`~atomic_africa.play.choices.legal_choices`)
grouped by their ``group``, draws a ring on the table round each unit a choice names and a dot at
each point it names, and sends the chosen action id back; a move's destination may also be dragged
from the unit, and is snapped to the nearest legal one. The ruler asks the server
(``/api/measure``: the engine's range band and line of sight) and draws its answer. The AI's turn
is the server's ``playback``, shown step by step. With two people at one screen, the page shows the
handover screen the server asks for and turns the table for the side to move. A kind of decision
the page has never seen is offered the same way. It reads its token from its own URL and sends it
with every request; it loads nothing else. ``window.play`` exposes ``state``, ``busy``,
``playback`` (``playing``, ``shown``: the steps and lines played out, in order), ``speed``,
``ruler`` (its two points and the server's answer),
``act(id)``, ``reload()`` and ``toClient(x, y)`` (a table point in window pixels) for scripts and
tests.
"""
from __future__ import annotations

import html
import json

from .._text import printable
from ..replay.page import BOARD_SCRIPT, STYLE

__all__ = ["PLAY_PAGE", "SPEEDS", "render_page"]

#: The AI-turn speeds of the page: milliseconds between two lines of the AI's turn.
SPEEDS = {"slow": 1100, "normal": 450, "fast": 120, "instant": 0}

PLAY_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}} - Atomic Africa</title>
<style>""" + STYLE + r"""
  header #status { font-variant-numeric: tabular-nums; }
  #toolbar { display: flex; gap: 6px; align-items: center; padding: 6px 16px; background: #e4dfd3;
             border-bottom: 1px solid #cfc8b8; flex-wrap: wrap; font-size: 13px; }
  #toolbar button { font-size: 13px; padding: 3px 8px; cursor: pointer; }
  #toolbar button[aria-pressed="true"] { background: #2d2a24; color: #f4f1ea; }
  #toolbar .sep { flex: 0 0 12px; }
  #ruler-out { font-variant-numeric: tabular-nums; }
  #ruler-out.blocked { color: #8e0000; }
  aside { flex: 0 0 460px; max-height: none; overflow: visible; }
  #prompt { font-weight: 600; font-size: 15px; padding: 8px 10px; background: #2d2a24; color: #f4f1ea;
            border-radius: 4px 4px 0 0; }
  #prompt.waiting { background: #777; }
  #error { background: #fdecea; color: #8e0000; border: 1px solid #e6b0aa; padding: 6px 8px; margin: 6px 0; }
  #choices { background: #fff; border: 1px solid #ddd; border-top: none; padding: 6px 8px; max-height: 46vh;
             overflow-y: auto; }
  .group { margin: 4px 0 8px; }
  .group-head { display: block; width: 100%; text-align: left; font-weight: 600; background: #eee9dc;
                border: 1px solid #cfc8b8; padding: 3px 6px; cursor: pointer; border-radius: 3px; }
  .group-head.open { background: #d8ccae; }
  .row { display: flex; flex-direction: column; margin: 3px 0; }
  button.choice { text-align: left; padding: 4px 8px; cursor: pointer; background: #f7f4ec; border: 1px solid #bbb;
                  border-radius: 3px; font-size: 13px; }
  button.choice:hover, button.choice.hover { background: #fde7c9; border-color: #e67e22; }
  button.choice:disabled { cursor: wait; opacity: 0.6; }
  button.choice .odds { display: block; color: #444; font-size: 12px; font-variant-numeric: tabular-nums; }
  .chips { display: flex; flex-wrap: wrap; gap: 3px; }
  .chips button.choice { font-size: 12px; padding: 2px 5px; }
  details.detail { font-size: 12px; color: #444; margin: 1px 0 0 10px; }
  details.detail table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
  details.detail td { padding: 0 5px; }
  #playback { background: #fffdf5; border: 1px solid #e2d6b5; padding: 6px 8px; margin: 6px 0; }
  #playback .pb-head { font-weight: 600; display: flex; gap: 8px; align-items: baseline; }
  #playback .pb-head span { flex: 1 1 auto; }
  #pb-lines { font: 12px/1.35 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; max-height: 28vh; overflow-y: auto; }
  #pb-lines div { white-space: pre-wrap; padding-left: 4ch; text-indent: -4ch; }
  #pb-lines div.new { background: #fde7c9; }
  #log { background: #fff; border: 1px solid #ddd; padding: 6px 8px; max-height: 34vh; overflow-y: auto; margin: 0;
         font: 12px/1.35 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; }
  #log div { white-space: pre-wrap; padding-left: 4ch; text-indent: -4ch; }
  #forces { display: flex; gap: 10px; margin-top: 8px; }
  #forces > div { flex: 1 1 0; background: #fff; border: 1px solid #ddd; padding: 4px 8px; font-size: 12px; }
  #forces table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
  #forces td, #forces th { padding: 0 4px; text-align: left; }
  #end { background: #fff8e6; border: 1px solid #f0c36b; padding: 8px 10px; margin: 6px 0; }
  #end a { margin-right: 12px; }
  .pick { cursor: pointer; }
  .pick:hover { stroke: #e67e22 !important; stroke-width: 0.6 !important; }
  .drag-handle { cursor: grab; }
  #table.ruling { cursor: crosshair; }
  #table.ruling #overlay { pointer-events: none; }
  .dialog { position: fixed; inset: 0; background: rgba(30, 28, 24, 0.55); display: flex; align-items: center;
            justify-content: center; z-index: 10; }
  .dialog[hidden] { display: none; }
  .dialog > div { background: #f4f1ea; border: 1px solid #888; border-radius: 6px; padding: 14px 18px; max-width: 640px; }
  .dialog h2 { font-size: 17px; margin: 0 0 8px; }
  .dialog h3 { font-size: 14px; margin: 12px 0 6px; }
  .opts { display: flex; flex-wrap: wrap; gap: 4px; margin: 2px 0 8px; }
  .opts button { padding: 3px 8px; cursor: pointer; }
  .opts button[aria-pressed="true"] { background: #2d2a24; color: #f4f1ea; }
  .dialog .facts { color: #555; font-size: 12px; }
  #handover > div { text-align: center; font-size: 16px; }
  #handover button { font-size: 16px; padding: 6px 14px; cursor: pointer; }
  body.handing main { visibility: hidden; }
</style>
</head>
<body>
<header><h1 id="title">{{TITLE}}</h1><span id="status">loading ...</span><span id="result"></span></header>
<div id="toolbar">
  <button id="new-btn" title="start a new game, or load a saved one">New game / load ...</button>
  <button id="undo-btn" disabled title="take back your last decision, while the other side has not seen it and it drew no card and rolled no die">Undo</button>
  <button id="ruler-btn" aria-pressed="false" title="click two points of the table: their range band and line of sight, by the rules">Ruler &amp; line of sight</button>
  <span id="ruler-out"></span>
  <span class="sep"></span>
  <span>AI's turn:</span>
  <button class="speed" data-speed="slow">slow</button><button class="speed" data-speed="normal">normal</button><button class="speed" data-speed="fast">fast</button><button class="speed" data-speed="instant">instant</button>
  <button id="again-btn" disabled title="play the last turn of the other side out again">again</button>
</div>
<div id="newgame" class="dialog" hidden><div>
  <h2>New game</h2>
  <div>Scenario</div><div class="opts" id="ng-scenario"></div>
  <div>You play</div><div class="opts" id="ng-side"></div>
  <div>Against</div><div class="opts" id="ng-level"></div>
  <div>Seed <input id="ng-seed" size="12" placeholder="random" inputmode="numeric"></div>
  <p><button id="ng-start">Start the new game</button> <button id="ng-cancel">Cancel</button></p>
  <h3>... or load a saved game (a save file of atomic-africa play, any Game.to_json file)</h3>
  <div><input type="file" id="ng-file" accept=".json,application/json"> <button id="ng-load">Load it</button>
    <span class="facts">(you play the side chosen above, against the opponent chosen above)</span></div>
  <p class="facts" id="ng-note"></p>
</div></div>
<div id="handover" class="dialog" hidden><div>
  <p id="handover-text"></p>
  <button id="handover-btn"></button>
</div></div>
<main>
  <div id="board">
    <svg id="table" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the table"></svg>
    <div id="forces"></div>
    <h2>Shots of the last phase resolved, with their exact odds</h2>
    <div id="shots"></div>
  </div>
  <aside>
    <div id="prompt"></div>
    <div id="error" hidden></div>
    <div id="end" hidden></div>
    <div id="playback" hidden><div class="pb-head"><span id="pb-title"></span><button id="pb-skip" hidden>skip to the end</button></div>
      <div id="pb-lines"></div></div>
    <div id="choices"></div>
    <h2>Battle log</h2>
    <div id="log"></div>
    <details><summary>Legend</summary><div id="legend"></div></details>
  </aside>
</main>
<script>
"use strict";
""" + BOARD_SCRIPT + r"""
(function () {
  const SPEEDS = {{SPEEDS}};
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const svg = $("table"), box = $("choices"), logBox = $("log");
  let board = null, boardGame = null, turnG = null, rulerG = null, st = null, busy = false, focus = null, lines = [];
  let speed = "normal", seenPlayback = null, lastPlayback = null, skip = false, logReset = false, reading = 0;
  const playback = { playing: false, shown: [] };
  let ruler = { on: false, a: null, b: null }, drag = null;
  const ng = { scenario: null, side: 0, level: "normal" };
  try { speed = localStorage.getItem("aa-play-speed") || speed; } catch (e) { /* no storage */ }
  if (!(speed in SPEEDS)) speed = "normal";

  async function api(path, body) {
    const opts = { headers: { "X-Play-Token": token }, cache: "no-store" };
    if (body !== undefined) {
      opts.method = "POST";
      opts.headers["Content-Type"] = "application/json";
      opts.body = JSON.stringify(body);
    }
    let r;
    try { r = await fetch(path, opts); }
    catch (e) { throw new Error("the play server does not answer (stopped?): the game is saved; resume it with atomic-africa play --load FILE"); }
    const data = await r.json().catch(() => ({ error: r.statusText }));
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
  function take(s) {
    // The log arrives in pieces (the lines after those the page has): start again if they do not
    // fit (a decision taken back), or if the page now shows another game.
    if (st && s.game !== st.game) { lines = []; logReset = true; }
    if (s.log_total !== lines.length + s.log.length) { lines = []; logReset = true; return false; }
    lines = lines.concat(s.log);
    st = s;
    return true;
  }
  async function fetchState() {
    const s = await api(`/api/state?since=${lines.length}`);
    if (!take(s)) take(await api("/api/state?since=0"));
  }
  async function reload() {
    await fetchState();
    if (seenPlayback === null) {   // the page opened: what the other side did last is listed, not played
      seenPlayback = pbKey(st);
      lastPlayback = st.playback;
      fillPlayback(lastPlayback);
    }
    render();
  }
  const pbKey = (s) => `${s.game}:${s.playback.from}:${s.playback.steps.length}`;

  // Every change goes through here: post, take the answer, play the other side's turn out, draw.
  async function post(path, body) {
    if (busy || !st) return;
    busy = true;
    setBusy(true);
    $("error").hidden = true;
    try {
      const s = await api(path, Object.assign({ since: lines.length, game: st.game }, body));
      if (!take(s)) await fetchState();
      focus = null;
      if (st.playback.steps.length && pbKey(st) !== seenPlayback) {
        seenPlayback = pbKey(st);
        lastPlayback = st.playback;
        await playOut(st.playback);
      }
    } catch (e) {
      $("error").textContent = e.message;
      $("error").hidden = false;
      try { await fetchState(); } catch (e2) { /* the server is gone */ }
    } finally {
      busy = false;
      render();
    }
  }
  const act = (id) => post("/api/act", { action: id, step: st.step });
  const undo = () => post("/api/undo", { step: st.step });
  function setBusy(on) {
    for (const b of box.querySelectorAll("button")) b.disabled = on;
    $("undo-btn").disabled = on || !st || !st.undo;
  }

  // ---- the other side's turn, step by step
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  async function beat() {
    // One line's time at the chosen speed; "skip" or "instant" ends the wait at once.
    const t0 = Date.now();
    while (!skip && Date.now() - t0 < SPEEDS[speed]) await sleep(Math.min(40, SPEEDS[speed]));
  }
  async function playOut(pb) {
    if (!board || boardGame !== st.game) render();   // a new game's own table first
    playback.playing = true;
    skip = false;
    box.hidden = true;
    const panel = $("playback"), out = $("pb-lines");
    panel.hidden = false;
    $("pb-skip").hidden = false;
    out.textContent = "";
    try {
      for (let i = 0; i < pb.steps.length; i++) {
        const s = pb.steps[i];
        $("pb-title").textContent = `${s.label} \u2014 step ${i + 1} of ${pb.steps.length}`;
        if (!skip) { board.drawFrame(s.frame); board.drawShots(s.frame, $("shots")); turnTable(); clearOverlay(); }
        for (const old of out.querySelectorAll(".new")) old.classList.remove("new");
        for (let k = 0; k < s.lines.length; k++) {
          board.html("div", { class: "new", "data-step": s.step }, out, s.lines[k]);
          out.scrollTop = out.scrollHeight;
          playback.shown.push([s.step, k]);
          if (!skip) await beat();
        }
      }
    } finally {
      playback.playing = false;
      $("pb-skip").hidden = true;
      $("pb-title").textContent = pb.steps.length ? `${pb.steps[pb.steps.length - 1].label}: ${pb.steps.length} step${pb.steps.length === 1 ? "" : "s"} played out` : "";
    }
  }
  function fillPlayback(pb) {
    const out = $("pb-lines");
    out.textContent = "";
    for (const s of pb.steps) for (const line of s.lines) board_html("div", { "data-step": s.step }, out, line);
    $("pb-title").textContent = pb.steps.length ? `${pb.steps[pb.steps.length - 1].label}: ${pb.steps.length} step${pb.steps.length === 1 ? "" : "s"} ('again' plays them out)` : "";
    $("playback").hidden = !pb.steps.length;
  }
  function board_html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    e.textContent = text;
    parent.appendChild(e);
    return e;
  }
  async function playAgain() {
    if (busy || !lastPlayback || !lastPlayback.steps.length) return;
    busy = true;
    setBusy(true);
    try { await playOut(lastPlayback); } finally { busy = false; render(); }
  }
  function showSpeed() {
    for (const b of document.querySelectorAll("button.speed")) b.setAttribute("aria-pressed", String(b.dataset.speed === speed));
  }
  for (const b of document.querySelectorAll("button.speed"))
    b.addEventListener("click", () => {
      speed = b.dataset.speed;
      try { localStorage.setItem("aa-play-speed", speed); } catch (e) { /* no storage */ }
      showSpeed();
    });
  $("pb-skip").addEventListener("click", () => { skip = true; });
  $("again-btn").addEventListener("click", playAgain);
  $("undo-btn").addEventListener("click", undo);

  // ---- the decision at hand
  function groupsOf(choices) {
    const groups = new Map();
    for (const c of choices) {
      const g = c.group || "";
      if (!groups.has(g)) groups.set(g, []);
      groups.get(g).push(c);
    }
    return groups;
  }
  function isOpen(g, groups) { return g === "" || groups.size === 1 || focus === g || (focus === null && g === [...groups.keys()].find((k) => k !== "")); }
  function oddsTable(o, parent) {
    const t = board.html("table", {}, parent);
    const head = board.html("tr", {}, t);
    ["markers", "wounds", "chance"].forEach((h) => board.html("th", {}, head, h));
    for (const r of o.outcomes.slice(0, 6)) {
      const tr = board.html("tr", {}, t);
      board.html("td", {}, tr, `+${r[0]}`); board.html("td", {}, tr, `+${r[1]}`); board.html("td", {}, tr, board.pct(r[2]));
    }
  }
  function detail(c, parent) {
    const o = c.odds;
    const d = board.html("details", { class: "detail" }, parent);
    board.html("summary", {}, d, "odds in detail");
    if (o.assumes) board.html("div", {}, d, `Assuming ${o.assumes}.`);
    const fire = (x, label) => {
      if (label) board.html("div", {}, d, label);
      const facts = [x.band_words, x.cover, x.armor !== undefined ? `armor ${x.armor}${x.ap ? ` (AP ${x.ap})` : ""}` : null,
                     x.target_stance ? `defends: ${x.target_stance}` : null,
                     x.cap_left !== undefined ? `up to ${x.cap_left} more markers this turn` : null].filter((v) => v);
      if (facts.length) board.html("div", {}, d, facts.join("; "));
      oddsTable(x, d);
    };
    if (o.kind === "fire") fire(o);
    else if (o.kind === "split") { fire(o.declared, `declared target ${o.declared.target} (higher Attack)`); fire(o.other, `${o.other.target} (lower Attack)`); }
    else if (o.kind === "call_for_fire") { board.html("div", {}, d, `${o.asset}: direct hit ${board.pct(o.p_direct_hit)}, within its ${o.radius} cm blast ${board.pct(o.p_within)}`); fire(o.fire, "on the target:"); }
    else if (o.kind === "rally") board.html("div", {}, d, o.allowed ? `succeeds if Rally > range ${o.band} + ${o.markers} markers` : "not allowed");
    else if (o.kind === "targets") for (const t of o.targets) board.html("div", {}, d, `${t.target}: ${summaryOf(t)}`);
  }
  function summaryOf(o) {
    if (o.kind === "fire") return o.feature ? `P(\u22651 wound) ${board.pct(o.p_wound)}`
      : `P(\u22651 marker) ${board.pct(o.p_marker)}, P(\u22651 wound) ${board.pct(o.p_wound)}, expected ${o.e_wounds.toFixed(2)} wounds`;
    if (o.kind === "rally") return o.allowed ? `P(success) ${board.pct(o.p_success)}` : "not allowed";
    if (o.kind === "call_for_fire") return `within the blast ${board.pct(o.p_within)}; ${summaryOf(o.fire)}`;
    return "";
  }
  function renderChoices() {
    box.textContent = "";
    if (!st.human) {
      box.hidden = !!st.over || !!st.handover;
      if (!st.over && !st.handover) board.html("p", { class: "none" }, box, "Waiting for the other side ...");
      return;
    }
    box.hidden = false;
    const groups = groupsOf(st.choices);
    if (focus !== null && !groups.has(focus)) focus = null;
    for (const [g, list] of groups) {
      const sec = board.html("section", { class: "group" }, box);
      const open = isOpen(g, groups);
      if (g) {
        const h = board.html("button", { class: "group-head" + (open ? " open" : ""), "data-group": g }, sec,
                             `${open ? "\u25BE" : "\u25B8"} ${g} \u2014 ${list.length} choice${list.length === 1 ? "" : "s"}`);
        h.addEventListener("click", () => { focus = g; renderChoices(); drawOverlay(); });
      }
      if (!open) continue;
      const compact = list.length > 12;
      const wrap = board.html("div", { class: compact ? "chips" : "list" }, sec);
      for (const c of list) {
        const row = compact ? wrap : board.html("div", { class: "row" }, wrap);
        const b = board.html("button", { class: "choice" + (c.odds ? " has-odds" : ""), "data-action": c.id,
                                         title: c.describe + (c.summary ? `\n${c.summary}` : "") }, row);
        board.html("span", { class: "label" }, b,
                   compact && c.odds && c.odds.kind === "fire" ? `${c.label} \u00b7 ${board.pct(c.odds.p_wound)}` : c.label);
        if (!compact && c.summary) board.html("span", { class: "odds" }, b, c.summary);
        b.addEventListener("click", () => act(c.id));
        b.addEventListener("mouseenter", () => hover(c.id, true));
        b.addEventListener("mouseleave", () => hover(c.id, false));
        if (!compact && c.odds) detail(c, row);
      }
      if (compact && list.some((c) => c.odds && c.odds.kind === "fire"))
        board.html("div", { class: "facts" }, sec, "\u00b7 N%: the chance of at least one wound from there (hover a dot or a button for the odds)");
    }
  }
  function hover(id, on) {
    for (const e of document.querySelectorAll(`[data-action="${id}"]`)) e.classList.toggle("hover", on);
  }

  // ---- the table: turned for the side it is shown to; table points from and to the window
  const H = () => st.board.table.height, W = () => st.board.table.width;
  function tablePoint(ev) {
    const p = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(turnG.getScreenCTM().inverse());
    return [Math.max(0, Math.min(W(), p.x)), Math.max(0, Math.min(H(), H() - p.y))];
  }
  function toClient(x, y) {
    const p = new DOMPoint(x, H() - y).matrixTransform(turnG.getScreenCTM());
    return [p.x, p.y];
  }
  function turnTable() {
    // Turned half a turn about the table's centre, each text turned back upright in place.
    turnG.setAttribute("transform", st.turned ? `rotate(180 ${W() / 2} ${H() / 2})` : "");
    for (const t of turnG.querySelectorAll("text")) {
      if (!("t0" in t.dataset)) t.dataset.t0 = t.getAttribute("transform") || "";
      if (st.turned) {
        const b = t.getBBox();
        t.setAttribute("transform", `${t.dataset.t0} rotate(180 ${b.x + b.width / 2} ${b.y + b.height / 2})`);
      } else if (t.dataset.t0) t.setAttribute("transform", t.dataset.t0);
      else t.removeAttribute("transform");
    }
  }
  function makeBoard() {
    svg.textContent = "";
    $("legend").textContent = "";
    board = aaBoard(st.board, svg, $("legend"));
    boardGame = st.game;
    turnG = board.el("g", { id: "turn" });
    for (const c of [...svg.childNodes]) if (c.nodeName !== "defs") turnG.appendChild(c);
    svg.appendChild(turnG);
    rulerG = board.el("g", { id: "ruler", "pointer-events": "none" }, turnG);
    ruler.a = ruler.b = null;
  }

  // ---- rings and dots for the choices in view, and the drag of a move's destination
  function clearOverlay() { const ov = board.overlay; while (ov.firstChild) ov.removeChild(ov.firstChild); }
  function drawOverlay() {
    clearOverlay();
    const ov = board.overlay;
    if (!st.human) return;
    const at = new Map(st.frame.units.map((r) => [r[0], board.unitRow(r)]));
    if (st.actor !== null && at.has(st.actor)) {   // the unit the decision is about
      const u = at.get(st.actor);
      board.el("circle", { cx: u.x, cy: board.Y(u.y), r: board.size(u) + 0.9, fill: "none", stroke: "gold",
                           "stroke-width": 0.7, class: "actor", "pointer-events": "none" }, ov);
    }
    const groups = groupsOf(st.choices);
    for (const [g, list] of groups) {
      if (!isOpen(g, groups)) continue;
      for (const c of list) {
        let mark = null;
        const tip = c.label + (c.summary ? `\n${c.summary}` : "");
        if (c.unit !== null && at.has(c.unit)) {
          const u = at.get(c.unit);
          mark = board.el("circle", { cx: u.x, cy: board.Y(u.y), r: board.size(u) + 1.4, fill: "#fff", "fill-opacity": 0.01,
                                      stroke: "#111", "stroke-width": 0.35, "stroke-dasharray": "1 0.6", class: "pick", "data-action": c.id }, ov);
        } else if (c.point) {
          const p = c.odds && c.odds.kind === "fire" ? c.odds.p_wound : null;
          const fill = p === null ? "#333" : `hsl(${Math.round(120 - 120 * Math.min(1, p * 2))}, 75%, 42%)`;
          mark = board.el("circle", { cx: c.point[0], cy: board.Y(c.point[1]), r: 0.85, fill, stroke: "#fff",
                                      "stroke-width": 0.2, class: "pick", "data-action": c.id }, ov);
        }
        if (!mark) continue;
        board.el("title", {}, mark).textContent = tip;
        mark.addEventListener("click", () => act(c.id));
        mark.addEventListener("mouseenter", () => hover(c.id, true));
        mark.addEventListener("mouseleave", () => hover(c.id, false));
      }
    }
    const dests = st.choices.filter((c) => (c.segment === "MOVE" || c.segment === "STAY") && c.point);
    if (dests.length && st.actor !== null && at.has(st.actor)) {
      const u = at.get(st.actor);
      const handle = board.el("circle", { cx: u.x, cy: board.Y(u.y), r: board.size(u) + 0.9, fill: "#fff", "fill-opacity": 0.01,
                                          stroke: "none", class: "drag-handle" }, ov);
      board.el("title", {}, handle).textContent = "drag to place the destination (it snaps to the nearest legal one)";
      handle.addEventListener("pointerdown", (ev) => {
        if (busy || ruler.on) return;
        ev.preventDefault();
        drag = { u, dests, from: tablePoint(ev), pick: null,
                 line: board.el("line", { stroke: "#111", "stroke-width": 0.35, "stroke-dasharray": "1 0.6", "pointer-events": "none" }, ov),
                 ghost: board.el("circle", { r: 1.6, fill: "gold", "fill-opacity": 0.6, stroke: "#111", "stroke-width": 0.3,
                                             class: "ghost-dest", "pointer-events": "none" }, ov) };
        dragTo(drag.from);
      });
    }
  }
  function nearest(list, p) {
    let best = null, bd = Infinity;
    for (const c of list) { const d = Math.hypot(c.point[0] - p[0], c.point[1] - p[1]); if (d < bd) { bd = d; best = c; } }
    return best;
  }
  function dragTo(p) {
    const c = nearest(drag.dests, p);
    drag.pick = c;
    drag.line.setAttribute("x1", drag.u.x); drag.line.setAttribute("y1", board.Y(drag.u.y));
    drag.line.setAttribute("x2", c.point[0]); drag.line.setAttribute("y2", board.Y(c.point[1]));
    drag.ghost.setAttribute("cx", c.point[0]); drag.ghost.setAttribute("cy", board.Y(c.point[1]));
    hover(c.id, true);
    for (const e of document.querySelectorAll("button.choice.hover")) if (Number(e.dataset.action) !== c.id) e.classList.remove("hover");
  }
  window.addEventListener("pointermove", (ev) => { if (drag) dragTo(tablePoint(ev)); });
  window.addEventListener("pointerup", (ev) => {
    if (!drag) return;
    const d = drag, p = tablePoint(ev);
    drag = null;
    d.line.remove(); d.ghost.remove();
    // A press and release in place is no drag: nothing is chosen.
    if (Math.hypot(p[0] - d.from[0], p[1] - d.from[1]) >= 1 && d.pick) act(d.pick.id);
  });

  // ---- the ruler: two points, their range and line of sight from the server (the engine's rules)
  function drawRuler(answer) {
    while (rulerG.firstChild) rulerG.removeChild(rulerG.firstChild);
    const dot = (p) => board.el("circle", { cx: p[0], cy: board.Y(p[1]), r: 0.7, fill: "#111", class: "ruler-end" }, rulerG);
    if (ruler.a) dot(ruler.a);
    if (ruler.b) {
      dot(ruler.b);
      const clear = answer ? answer.los : true;
      board.el("line", { x1: ruler.a[0], y1: board.Y(ruler.a[1]), x2: ruler.b[0], y2: board.Y(ruler.b[1]), class: "ruler-line",
                         stroke: clear ? "#1e7d32" : "#8e0000", "stroke-width": 0.45, "stroke-dasharray": clear ? "" : "1.2 0.8" }, rulerG);
    }
  }
  async function measure() {
    const q = (p) => `${p[0].toFixed(2)},${p[1].toFixed(2)}`;
    const out = $("ruler-out");
    try {
      const m = await api(`/api/measure?from=${q(ruler.a)}&to=${q(ruler.b)}`);
      ruler.answer = m;
      out.textContent = `${m.distance_cm.toFixed(1)} cm \u00b7 ${m.band_words} \u00b7 line of sight ${m.los ? "clear" : "blocked"}` +
                        ` \u00b7 ${m.cover[0]} \u2192 ${m.cover[1]}`;
      out.classList.toggle("blocked", !m.los);
      drawRuler(m);
    } catch (e) { out.textContent = e.message; }
  }
  $("ruler-btn").addEventListener("click", () => {
    ruler = { on: !ruler.on, a: null, b: null, answer: null };
    $("ruler-btn").setAttribute("aria-pressed", String(ruler.on));
    svg.classList.toggle("ruling", ruler.on);
    $("ruler-out").textContent = ruler.on ? "click a point of the table, then another" : "";
    drawRuler(null);
  });
  svg.addEventListener("click", (ev) => {
    if (!ruler.on || !st) return;
    ev.stopPropagation();
    const p = tablePoint(ev);
    if (!ruler.a || ruler.b) { ruler.a = p; ruler.b = null; ruler.answer = null; $("ruler-out").textContent = "now the other point"; drawRuler(null); }
    else { ruler.b = p; drawRuler(null); measure(); }
  }, true);

  // ---- a new game, a saved game
  function opts(box, items, key) {
    box.textContent = "";
    for (const [value, text, title] of items) {
      const b = board.html("button", { "data-value": String(value), title: title || "" }, box, text);
      b.setAttribute("aria-pressed", String(ng[key] === value));
      b.addEventListener("click", () => { ng[key] = value; for (const o of box.children) o.setAttribute("aria-pressed", String(o === b)); });
    }
  }
  function openNewGame() {
    if (!st || busy) return;
    const n = st.new_game;
    if (ng.scenario === null) ng.scenario = "current";
    opts($("ng-scenario"), n.scenarios.map((s) => [s.name, s.title]), "scenario");
    opts($("ng-side"), st.board.sides.map((s, p) => [p, s.name]), "side");
    opts($("ng-level"), n.levels.map((l) => [l.name, l.text, l.words]), "level");
    $("ng-note").textContent = st.save ? `The game on the table stays saved in ${st.save}; the new one is saved beside it.` : "";
    $("newgame").hidden = false;
  }
  async function startGame(extra) {
    const seed = $("ng-seed").value.trim();
    const body = Object.assign({ side: ng.side, level: ng.level }, extra);
    if (extra.saved === undefined) { body.scenario = ng.scenario; if (seed) body.seed = Number(seed); }
    $("newgame").hidden = true;
    await post(extra.saved === undefined ? "/api/new" : "/api/load", body);
  }
  $("new-btn").addEventListener("click", openNewGame);
  $("ng-cancel").addEventListener("click", () => { $("newgame").hidden = true; });
  $("ng-start").addEventListener("click", () => startGame({}));
  $("ng-load").addEventListener("click", async () => {
    const f = $("ng-file").files[0];
    if (!f) { $("ng-note").textContent = "Choose a saved game's file first."; return; }
    reading++;   // the page is busy from the click on, while the file is read
    let text;
    try { text = await f.text(); } finally { reading--; }
    await startGame({ saved: text });
  });

  // ---- hot-seat: the screen handed to the side to move
  $("handover-btn").addEventListener("click", () => post("/api/handover", { player: st.handover.to, step: st.step }));

  function renderForces() {
    const f = $("forces");
    f.textContent = "";
    st.forces.forEach((side, p) => {
      const d = board.html("div", {}, f);
      board.html("b", { style: `color:${st.board.sides[p].colour}` }, d, side.label);
      if (side.hand) board.html("div", {}, d, `Reserve: ${side.hand.length ? side.hand.join(", ") : "no cards"}`);
      else board.html("div", {}, d, `Reserve: ${side.reserve} card${side.reserve === 1 ? "" : "s"}`);
      const t = board.html("table", {}, d);
      const head = board.html("tr", {}, t);
      ["unit", "fig.", "mark.", "wnd.", "orders"].forEach((h) => board.html("th", {}, head, h));
      for (const u of side.units) {
        const tr = board.html("tr", {}, t);
        board.html("td", {}, tr, u.name + (u.commander ? " \u2605" : ""));
        board.html("td", {}, tr, String(u.figures)); board.html("td", {}, tr, String(u.markers));
        board.html("td", {}, tr, String(u.wounds));
        board.html("td", {}, tr, u.card ? `${u.card}${u.status === "acted" ? " (acted)" : ""}` : u.status);
      }
    });
  }
  function render() {
    if (!st) return;
    if (!board || boardGame !== st.game) {
      makeBoard();
      const end = $("end"); end.textContent = ""; delete end.dataset.done;
      $("title").textContent = st.board.title;
      document.title = `${st.board.title} - Atomic Africa`;
    }
    board.drawFrame(st.frame);
    board.drawShots(st.frame, $("shots"));
    turnTable();
    drawRuler(ruler.answer);
    const who = st.over ? "" : ` \u00b7 ${st.players[st.to_play]} to play`;
    $("status").textContent = `turn ${st.turn} of ${st.turns} \u00b7 ${st.stage.replace(/_/g, " ")}${who}`;
    $("result").textContent = st.over ? st.result : "";
    $("prompt").textContent = st.prompt;
    $("prompt").classList.toggle("waiting", !st.human);
    document.body.classList.toggle("handing", !!st.handover);
    $("handover").hidden = !st.handover;
    if (st.handover) {
      $("handover-text").textContent = `Pass the screen to ${st.handover.label}. Nothing of either side's cards is shown until they take it.`;
      $("handover-btn").textContent = `I am ${st.handover.label}: show my side`;
    }
    $("undo-btn").disabled = busy || !st.undo;
    $("undo-btn").textContent = st.undo ? `Undo (${st.undo})` : "Undo";
    $("again-btn").disabled = busy || !lastPlayback || !lastPlayback.steps.length;
    if (!playback.playing && !(lastPlayback && lastPlayback.steps.length && pbKey(st) === seenPlayback)) $("playback").hidden = true;
    renderChoices();
    drawOverlay();
    renderForces();
    const end = $("end");
    end.hidden = !st.over;
    if (st.over && !end.dataset.done) {
      end.dataset.done = "1";
      board.html("div", {}, end, st.result);
      const q = `token=${encodeURIComponent(token)}`;
      board.html("a", { id: "replay-link", href: `/replay.html?${q}`, target: "_blank", rel: "noopener" }, end, "Replay of the battle");
      board.html("a", { id: "replay-download", href: `/replay.html?${q}&download=1` }, end, "Download the replay page");
      board.html("a", { id: "game-download", href: `/game.json?${q}` }, end, "Download the saved game");
      if (st.save) board.html("div", { class: "facts" }, end, `Saved in ${st.save}.`);
    }
    // The log grows at the bottom; it follows the newest line unless the reader scrolled up.
    if (logReset) { logBox.textContent = ""; logReset = false; }
    const atEnd = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 4;
    for (let i = logBox.childElementCount; i < lines.length; i++) board.html("div", {}, logBox, lines[i]);
    if (atEnd || !logBox.dataset.seen) { logBox.scrollTop = logBox.scrollHeight; logBox.dataset.seen = "1"; }
  }
  showSpeed();
  window.play = { get state() { return st; }, get busy() { return busy || reading > 0; }, get speed() { return speed; },
                  get ruler() { return ruler; }, playback, act, undo, reload, toClient };
  reload().catch((e) => { $("error").textContent = e.message; $("error").hidden = false; $("status").textContent = ""; });
})();
</script>
</body>
</html>
"""


def render_page(session) -> str:
    """The play page for ``session`` (its scenario's name as the title; everything else is fetched).

    Parameters
    ----------
    session : PlaySession

    Returns
    -------
    str
    """
    return (PLAY_PAGE.replace("{{TITLE}}", html.escape(printable(session.scenario.name)))
            .replace("{{SPEEDS}}", json.dumps(SPEEDS)))
