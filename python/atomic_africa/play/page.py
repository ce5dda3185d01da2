"""The play page: the table as the replay page draws it (:data:`~atomic_africa.replay.page.BOARD_SCRIPT`),
the choices of the decision at hand, the battle log beside it, each side's forces, and the shots
of the last phase with their odds.

The page holds no rules: it shows the ``choices`` the server sends (:func:`~atomic_africa.play.choices.legal_choices`)
grouped by their ``group``, draws a ring on the table round each unit a choice names and a dot at
each point it names, and sends the chosen action id back. A kind of decision the page has never
seen is offered the same way. It reads its token from its own URL and sends it with every request;
it loads nothing else. ``window.play`` exposes ``state``, ``busy``, ``act(id)`` and ``reload()`` for
scripts and tests.
"""
from __future__ import annotations

import html

from .._text import printable
from ..replay.page import BOARD_SCRIPT, STYLE

__all__ = ["PLAY_PAGE", "render_page"]

PLAY_PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}} - Atomic Africa</title>
<style>""" + STYLE + r"""
  header #status { font-variant-numeric: tabular-nums; }
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
</style>
</head>
<body>
<header><h1 id="title">{{TITLE}}</h1><span id="status">loading ...</span><span id="result"></span></header>
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
  const token = new URLSearchParams(location.search).get("token") || "";
  const $ = (id) => document.getElementById(id);
  const svg = $("table"), box = $("choices"), logBox = $("log");
  let board = null, st = null, busy = false, focus = null, lines = [];

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
    // The log arrives in pieces (the lines after those the page has): start again if they do not fit.
    if (s.log_total !== lines.length + s.log.length) { lines = []; return false; }
    lines = lines.concat(s.log);
    st = s;
    return true;
  }
  async function reload() {
    let s = await api(`/api/state?since=${lines.length}`);
    if (!take(s)) { s = await api("/api/state?since=0"); take(s); }
    render();
  }
  async function act(id) {
    if (busy || !st) return;
    busy = true;
    setBusy(true);
    $("error").hidden = true;
    try {
      const s = await api("/api/act", { action: id, step: st.step, since: lines.length });
      if (!take(s)) { take(await api("/api/state?since=0")); }
      focus = null;
    } catch (e) {
      $("error").textContent = e.message;
      $("error").hidden = false;
      try { const s = await api(`/api/state?since=${lines.length}`); if (!take(s)) take(await api("/api/state?since=0")); } catch (e2) { /* the server is gone */ }
    } finally {
      busy = false;
      render();
    }
  }
  function setBusy(on) { for (const b of box.querySelectorAll("button")) b.disabled = on; }

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
      box.hidden = !!st.over;
      if (!st.over) board.html("p", { class: "none" }, box, "Waiting for the other side ...");
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

  // ---- the table: the frame, and rings and dots for the choices in view
  function drawOverlay() {
    const ov = board.overlay;
    while (ov.firstChild) ov.removeChild(ov.firstChild);
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
  }
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
    if (!board) board = aaBoard(st.board, svg, $("legend"));
    board.drawFrame(st.frame);
    board.drawShots(st.frame, $("shots"));
    const who = st.over ? "" : ` \u00b7 ${st.players[st.to_play]} to play`;
    $("status").textContent = `turn ${st.turn} of ${st.turns} \u00b7 ${st.stage.replace(/_/g, " ")}${who}`;
    $("result").textContent = st.over ? st.result : "";
    $("prompt").textContent = st.prompt;
    $("prompt").classList.toggle("waiting", !st.human);
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
    const atEnd = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 4;
    for (let i = logBox.childElementCount; i < lines.length; i++) board.html("div", {}, logBox, lines[i]);
    while (logBox.childElementCount > lines.length) logBox.removeChild(logBox.lastChild);
    if (atEnd || !logBox.dataset.seen) { logBox.scrollTop = logBox.scrollHeight; logBox.dataset.seen = "1"; }
  }
  window.play = { get state() { return st; }, get busy() { return busy; }, act, reload };
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
    return PLAY_PAGE.replace("{{TITLE}}", html.escape(printable(session.scenario.name)))
