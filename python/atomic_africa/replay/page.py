"""The HTML replay page: markup, styles and script in one document, filled in by
:func:`atomic_africa.replay.html.render_html` (``{{TITLE}}``, ``{{DATA}}`` = the replay JSON).

The script draws the table in SVG from the embedded JSON and loads nothing: the page works offline
and from a file. ``window.replay`` exposes the current frame (``frame``, ``count``, ``show(i)``,
``playing``) for scripts and tests.

The table itself (terrain, units, moves, fire lines, fire-support strikes, the shots' odds cards
and the legend) is drawn by :data:`BOARD_SCRIPT`, which the ``atomic-africa play`` page
(:mod:`atomic_africa.play.page`) shares with its :data:`STYLE`.
"""

__all__ = ["PAGE", "STYLE", "BOARD_SCRIPT"]

#: The styles of the table, the shot cards and the legend (shared with the play page).
STYLE = r"""
  :root { --blue: #1f5fbf; --red: #c0392b; --ink: #222; --muted: #666; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
         background: #f4f1ea; }
  header { padding: 8px 16px; background: #2d2a24; color: #f4f1ea; display: flex; gap: 16px; align-items: baseline; }
  header h1 { font-size: 18px; margin: 0; }
  #result { color: #f0c36b; }
  main { display: flex; gap: 12px; padding: 10px 16px; align-items: flex-start; }
  #board { flex: 1 1 auto; min-width: 0; }
  #table { width: 100%; height: auto; background: #fff; border: 1px solid #bbb; display: block; }
  aside { flex: 0 0 380px; max-height: calc(100vh - 110px); overflow-y: auto; }
  aside h2 { font-size: 15px; margin: 4px 0 6px; }
  .shot { background: #fff; border: 1px solid #ddd; border-left: 5px solid #b0b0b0; padding: 6px 8px;
          margin-bottom: 8px; font-size: 13px; cursor: default; }
  .shot.hit { border-left-color: #e67e22; }
  .shot.focus { outline: 2px solid #333; }
  .shot .who { font-weight: 600; }
  .shot .facts { color: var(--muted); }
  .shot table { border-collapse: collapse; margin-top: 4px; width: 100%; font-variant-numeric: tabular-nums; }
  .shot td { padding: 0 4px; }
  .shot td.bar { width: 45%; }
  .shot td.bar span { display: block; height: 9px; background: #9db4d6; }
  .shot tr.actual { background: #fde7c9; font-weight: 600; }
  .none { color: var(--muted); font-style: italic; }
  #legend { background: #fff; border: 1px solid #ddd; padding: 6px 8px; font-size: 13px; }
  #legend div { display: flex; align-items: center; gap: 8px; margin: 2px 0; }
  #legend svg { flex: 0 0 34px; }
  svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  .ulabel { font-size: 2.5px; font-weight: 700; paint-order: stroke; stroke: #fff; stroke-width: 0.55px;
            stroke-linejoin: round; }
  .tlabel { font-size: 2.2px; font-style: italic; fill: #222; paint-order: stroke; stroke: #fff;
            stroke-width: 0.4px; }
  .count { font-size: 1.9px; font-weight: 700; }
  .fire.focus, .fire-path.focus { stroke: #000 !important; }
"""

#: ``aaBoard(data, svg, legend)``: draws the static table (terrain, legend) once and returns
#: ``{drawFrame(frame), drawShots(frame, box), layer, overlay, el, html, Y, pct, plural, size}``;
#: ``data`` holds ``table``, ``sides`` and ``terrain`` as :func:`~atomic_africa.replay.html.board_data`
#: gives them, a frame is one of :func:`~atomic_africa.replay.html.replay_data`'s frames.
BOARD_SCRIPT = r"""
function aaBoard(data, svg, legend) {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";
  const W = data.table.width, H = data.table.height;
  const COVER = { open: "#e8e0c8", light: "#9cc48a", heavy: "#8f8f8f" };
  const HIT = "#e67e22", MISS = "#b0b0b0", IMPACT = "#d35400", WOUND = "#8e0000";
  const KIND = ["infantry", "light infantry", "vehicle"];
  const Y = (y) => H - y;            // table y grows upwards, SVG y downwards

  function el(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, attrs, parent, text) {
    const e = document.createElement(tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  const pct = (p) => (p > 0 && p < 0.001 ? (100 * p).toPrecision(2) : (100 * p).toFixed(1)) + "%";
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const starPath = (x, y, r) => {
    let d = "";
    for (let i = 0; i < 10; i++) {
      const a = Math.PI / 2 + i * Math.PI / 5, rr = i % 2 ? r * 0.45 : r;
      d += (i ? "L" : "M") + (x + rr * Math.cos(a)).toFixed(2) + "," + (y - rr * Math.sin(a)).toFixed(2);
    }
    return d + "Z";
  };

  // ---- static layer: definitions, table, terrain
  svg.setAttribute("viewBox", `-7 -7 ${W + 14} ${H + 14}`);
  const defs = el("defs", {}, svg);
  const hatch = el("pattern", { id: "hatch", patternUnits: "userSpaceOnUse", width: 2.2, height: 2.2,
                                patternTransform: "rotate(45)" }, defs);
  el("line", { x1: 0, y1: 0, x2: 0, y2: 2.2, stroke: "#333", "stroke-width": 0.35 }, hatch);
  const arrow = el("marker", { id: "arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7,
                               markerHeight: 7, orient: "auto", markerUnits: "strokeWidth" }, defs);
  el("path", { d: "M0,0 L10,5 L0,10 z", fill: "#444" }, arrow);
  el("rect", { x: 0, y: 0, width: W, height: H, fill: COVER.open, stroke: "#000", "stroke-width": 0.3 }, svg);
  const terrainLabels = [], terrainShapes = [];
  // A feature's look for a cover word: its colour, and hatched while it blocks line of sight (an
  // armoured feature knocked down to no cover by heavy weapons no longer does).
  const blocks = (t, cover) => t.blocks_los && !(t.armor && cover === "open");
  const featureTitle = (t, cover) => `${t.name}: ${cover} cover${blocks(t, cover) ? ", blocks line of sight" : ""}` +
    (t.armor ? `; armor ${t.armor}, a target for heavy weapons${cover !== t.cover ? ` (set up with ${t.cover} cover)` : ""}` : "");
  for (const t of data.terrain) {
    const attrs = { fill: COVER[t.cover], stroke: "#444", "stroke-width": 0.25, "fill-opacity": 0.9, class: "terrain" };
    const shape = (extra) => t.shape === "polygon"
      ? el("polygon", Object.assign({ points: t.points.map((p) => `${p[0]},${Y(p[1])}`).join(" ") }, extra), svg)
      : el("circle", Object.assign({ cx: t.center[0], cy: Y(t.center[1]), r: t.radius }, extra), svg);
    const s = shape(attrs);
    const title = el("title", {}, s);
    title.textContent = featureTitle(t, t.cover);
    const hatched = t.blocks_los ? shape({ fill: "url(#hatch)", stroke: "none", "pointer-events": "none" }) : null;
    terrainShapes.push({ t, s, title, hatched });
    const c = t.shape === "polygon"
      ? [t.points.reduce((a, p) => a + p[0], 0) / t.points.length, t.points.reduce((a, p) => a + p[1], 0) / t.points.length]
      : t.center;
    const lab = el("text", { x: c[0], y: Y(c[1]), "text-anchor": "middle", "dominant-baseline": "central",
                             class: "tlabel" }, svg);
    lab.textContent = t.name;
    terrainLabels.push(lab);
  }
  const layer = el("g", { id: "frame" }, svg);
  const overlay = el("g", { id: "overlay" }, svg);   // what a page draws over the frame (the play page's choices)

  // ---- legend (drawn once, with the same symbols as the table)
  function legendRow(draw, text) {
    const row = html("div", {}, legend);
    const icon = document.createElementNS(NS, "svg");
    icon.setAttribute("viewBox", "0 0 17 8"); icon.setAttribute("width", 34); icon.setAttribute("height", 16);
    row.appendChild(icon);
    draw(icon);
    html("span", {}, row, text);
  }
  if (legend) {
    data.sides.forEach((s) => legendRow((g) => el("circle", { cx: 8.5, cy: 4, r: 3.5, fill: s.colour, stroke: "#000", "stroke-width": 0.4 }, g), `${s.name} unit`));
    legendRow((g) => el("circle", { cx: 8.5, cy: 4, r: 3.5, fill: "#fff", stroke: "#000", "stroke-width": 0.5 }, g), "infantry (solid edge)");
    legendRow((g) => el("circle", { cx: 8.5, cy: 4, r: 3.5, fill: "#fff", stroke: "#000", "stroke-width": 0.5, "stroke-dasharray": "0.8 0.6" }, g), "light infantry (dotted edge)");
    legendRow((g) => el("rect", { x: 4, y: 1.5, width: 9, height: 5, fill: "#fff", stroke: "#000", "stroke-width": 0.5 }, g), "vehicle (rectangle)");
    legendRow((g) => el("path", { d: starPath(8.5, 4, 3.6), fill: "gold", stroke: "#000", "stroke-width": 0.3 }, g), "commander");
    legendRow((g) => el("circle", { cx: 8.5, cy: 4, r: 1.2, fill: "#000" }, g), "suppression marker (one dot each, \u00d7N past six)");
    legendRow((g) => el("path", { d: "M7,2.5 L10,5.5 M10,2.5 L7,5.5", stroke: WOUND, "stroke-width": 0.8 }, g), "wound (one cross each, \u00d7N past six)");
    legendRow((g) => { const t = el("text", { x: 8.5, y: 5.5, "text-anchor": "middle", "font-size": 4.5, "font-weight": 700 }, g); t.textContent = "S W"; },
              "label 'Name (5) S2 W1': 5 figures, 2 suppression markers, 1 wound");
    legendRow((g) => el("line", { x1: 1, y1: 4, x2: 15, y2: 4, stroke: "#444", "stroke-width": 0.6, "stroke-dasharray": "1.5 1", "marker-end": "url(#arrow)" }, g), "move this phase (dashed arrow)");
    legendRow((g) => el("line", { x1: 1, y1: 4, x2: 16, y2: 4, stroke: HIT, "stroke-width": 1.2 }, g), "fire with effect (thicker = more wounds)");
    legendRow((g) => el("line", { x1: 1, y1: 4, x2: 16, y2: 4, stroke: MISS, "stroke-width": 0.8 }, g), "fire without effect");
    legendRow((g) => { el("circle", { cx: 8.5, cy: 4, r: 3.6, fill: "none", stroke: IMPACT, "stroke-width": 0.5, "stroke-dasharray": "1 0.7" }, g);
                       el("path", { d: starPath(8.5, 4, 2.6), fill: IMPACT, stroke: "#000", "stroke-width": 0.3 }, g); },
              "fire support impact and blast radius (a ring round each unit it hit)");
    legendRow((g) => { el("circle", { cx: 8.5, cy: 4, r: 3.3, fill: "#fff", "fill-opacity": 0.4, stroke: "#000", "stroke-width": 0.4, "stroke-dasharray": "0.8 0.6" }, g); },
              "unit gone at the end of the phase (removed or merged), drawn where it stood");
    for (const c of ["open", "light", "heavy"])
      legendRow((g) => el("rect", { x: 3, y: 1, width: 11, height: 6, fill: COVER[c], stroke: "#444", "stroke-width": 0.3 }, g), c === "open" ? "open ground" : `${c} cover`);
    legendRow((g) => { el("rect", { x: 3, y: 1, width: 11, height: 6, fill: "#fff", stroke: "#444", "stroke-width": 0.3 }, g);
                       el("rect", { x: 3, y: 1, width: 11, height: 6, fill: "url(#hatch)" }, g); }, "hatched: blocks line of sight");
  }

  // ---- one frame
  const size = (u) => 2 + Math.min(u.figures, 14) * 0.25;
  function unitRow(r) {
    return { uid: r[0], name: r[1], side: r[2], kind: r[3], x: r[4], y: r[5], figures: r[6], markers: r[7],
             wounds: r[8], commander: r[9], gone: r[10] };
  }
  function boxOverlap(a, b) {
    return Math.min(a.x2, b.x2) > Math.max(a.x1, b.x1) && Math.min(a.y2, b.y2) > Math.max(a.y1, b.y1);
  }
  function area(a, b) {
    const w = Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1), h = Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1);
    return w > 0 && h > 0 ? w * h : 0;
  }
  const DIRS = [[0, 1], [0, -1], [1, 0], [-1, 0], [1, 1], [-1, 1], [1, -1], [-1, -1]];  // SVG y: 1 = below

  // Labels are placed one by one, each at the nearest place around its unit that overlaps no
  // label placed before (as the PNG does); crowded units choose first.
  function placeLabels(units, symbols) {
    const placed = terrainLabels.map((t) => { const b = t.getBBox(); return { x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height }; });
    const order = units.map((u, i) => i).sort((i, j) =>
      symbols.filter((s) => boxOverlap(grow(symbols[j], 12), s)).length - symbols.filter((s) => boxOverlap(grow(symbols[i], 12), s)).length);
    for (const i of order) {
      const u = units[i], sym = symbols[i];
      const t = el("text", { class: "ulabel", fill: data.sides[u.side].colour, "data-uid": u.uid }, layer);
      el("tspan", { x: 0, dy: 0 }, t).textContent = u.gone ? `${u.name} (${u.gone})` : `${u.name} (${u.figures})`;
      if ((u.markers || u.wounds) && !u.gone) el("tspan", { x: 0, dy: "1.1em" }, t).textContent = `S${u.markers} W${u.wounds}`;
      const b = t.getBBox();
      let best = null;
      for (let ring = 0; ring < 14 && !(best && best.cost === 0); ring++) {
        const gap = 0.6 + ring * 2.5;
        for (const [dx, dy] of DIRS) {
          const ax = dx > 0 ? sym.x2 + gap : dx < 0 ? sym.x1 - gap - b.width : (sym.x1 + sym.x2) / 2 - b.width / 2;
          const ay = dy > 0 ? sym.y2 + gap : dy < 0 ? sym.y1 - gap - b.height : (sym.y1 + sym.y2) / 2 - b.height / 2;
          const box = { x1: ax, y1: ay, x2: ax + b.width, y2: ay + b.height };
          if (placed.some((p) => boxOverlap(box, p))) continue;
          const outside = box.x1 < -7 || box.x2 > W + 7 || box.y1 < -7 || box.y2 > H + 7;
          const cost = symbols.reduce((a, s, j) => a + (j === i ? 0 : area(box, s)), 0) + (outside ? 1e7 : 0);
          if (!best || cost < best.cost) best = { cost, box, ring };
          if (cost === 0) break;
        }
      }
      if (!best) best = { box: { x1: sym.x1, y1: sym.y2, x2: sym.x1 + b.width, y2: sym.y2 + b.height }, ring: 0 };
      t.setAttribute("transform", `translate(${(best.box.x1 - b.x).toFixed(2)},${(best.box.y1 - b.y).toFixed(2)})`);
      placed.push(best.box);
      if (best.ring > 0) {
        const cx = Math.max(best.box.x1, Math.min(u.x, best.box.x2)), cy = Math.max(best.box.y1, Math.min(Y(u.y), best.box.y2));
        layer.insertBefore(el("line", { x1: u.x, y1: Y(u.y), x2: cx, y2: cy, stroke: data.sides[u.side].colour,
                                        "stroke-width": 0.15 }), layer.firstChild);
      }
    }
  }
  function grow(b, d) { return { x1: b.x1 - d, y1: b.y1 - d, x2: b.x2 + d, y2: b.y2 + d }; }

  function drawCovers(f) {
    terrainShapes.forEach(({ t, s, title, hatched }, i) => {
      const cover = f.covers[i];
      s.setAttribute("fill", COVER[cover]);
      s.setAttribute("data-cover", cover);
      title.textContent = featureTitle(t, cover);
      if (hatched) hatched.setAttribute("visibility", blocks(t, cover) ? "visible" : "hidden");
    });
  }

  // A row of up to six counters (dots or crosses); past six, six of them and the number.
  function counters(g, n, x, y, draw, kind) {
    for (let k = 0; k < Math.min(n, 6); k++) draw(x + 1.6 * k, y);
    if (n > 6) {
      const t = el("text", { x: x + 1.6 * 6 - 0.5, y: y + 0.7, class: `count ${kind}-count`,
                             fill: kind === "wound" ? WOUND : "#000" }, g);
      t.textContent = `\u00d7${n}`;
    }
  }

  function drawUnit(u, colour, into) {
    const s = size(u), x = u.x, y = Y(u.y);
    const g = el("g", { class: u.gone ? "ghost" : "unit", "data-uid": u.uid }, into);
    el("title", {}, g).textContent = u.gone
      ? `${u.name} (${data.sides[u.side].name} ${KIND[u.kind]}): ${u.gone} at the end of the phase`
      : `${u.name} (${data.sides[u.side].name} ${KIND[u.kind]}): ${plural(u.figures, "figure")}, ${plural(u.markers, "suppression marker")}, ${plural(u.wounds, "wound")}`;
    const look = u.gone ? { fill: colour, "fill-opacity": 0.25, stroke: "#000", "stroke-width": 0.3, "stroke-dasharray": "0.8 0.6" }
                        : { fill: colour, stroke: "#000", "stroke-width": u.kind === 2 ? 0.25 : 0.3 };
    if (u.kind === 2)
      el("rect", Object.assign({ x: x - s, y: y - 0.6 * s, width: 2 * s, height: 1.2 * s }, look), g);
    else
      el("circle", Object.assign({ cx: x, cy: y, r: s }, look, u.kind === 1 && !u.gone ? { "stroke-dasharray": "0.6 0.5" } : {}), g);
    if (u.gone) return { x1: x - s, y1: y - s, x2: x + s, y2: y + s };
    if (u.commander) el("path", { d: starPath(x, y, 1.6), fill: "gold", stroke: "#000", "stroke-width": 0.15 }, g);
    counters(g, u.markers, x + s + 1, y - s, (cx, cy) => el("circle", { cx, cy, r: 0.55, fill: "#000", class: "marker" }, g), "marker");
    counters(g, u.wounds, x + s + 1, y - s + 2, (cx, cy) =>
      el("path", { d: `M${cx - 0.6},${cy - 0.6}L${cx + 0.6},${cy + 0.6}M${cx + 0.6},${cy - 0.6}L${cx - 0.6},${cy + 0.6}`,
                   stroke: WOUND, "stroke-width": 0.35, class: "wound" }, g), "wound");
    const most = Math.max(u.markers, u.wounds);
    const right = most ? x + s + 2 + 1.6 * Math.min(most, 6) + (most > 6 ? 3 : 0) : x + s;
    return { x1: x - s, y1: y - s - 1, x2: right, y2: y + s };
  }

  function drawFrame(f) {
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    drawCovers(f);
    const units = f.units.map(unitRow), gone = (f.gone || []).map(unitRow);
    const at = new Map(units.map((u) => [u.uid, u]));
    for (const u of gone) if (!at.has(u.uid)) at.set(u.uid, u);
    for (const m of f.moves)
      el("line", { x1: m[0], y1: Y(m[1]), x2: m[2], y2: Y(m[3]), stroke: "#444", "stroke-width": 0.35,
                   "stroke-dasharray": "1.4 0.9", "marker-end": "url(#arrow)", class: "move" }, layer);
    f.shots.forEach((s, k) => {
      const hit = s.actual[0] > 0 || s.actual[1] > 0;
      const attrs = { stroke: hit ? HIT : MISS, "stroke-width": 0.45 + 0.3 * s.actual[1], "data-shot": k, opacity: 0.95 };
      let mark;
      if (s.source < 0) {
        // Fire support: a ring round each unit in the blast (a direct hit lands on the target's
        // own position, where a line from the impact would have no length), and a line from the
        // impact when it landed away from the unit.
        const t = at.get(s.target), r = (t ? size(t) : 3) + 1.1;
        mark = el("circle", Object.assign({ cx: s.to[0], cy: Y(s.to[1]), r, fill: "none", class: "fire support" }, attrs), layer);
        if (Math.hypot(s.to[0] - s.from[0], s.to[1] - s.from[1]) > r)
          el("line", Object.assign({ x1: s.from[0], y1: Y(s.from[1]), x2: s.to[0], y2: Y(s.to[1]), "stroke-linecap": "round",
                                     class: "fire-path" }, attrs), layer);
      } else {
        mark = el("line", Object.assign({ x1: s.from[0], y1: Y(s.from[1]), x2: s.to[0], y2: Y(s.to[1]),
                                          "stroke-linecap": "round", class: "fire" }, attrs), layer);
      }
      el("title", {}, mark).textContent = s.feature != null
        ? `${s.shooter} -> ${s.target_name}: +${s.actual[1]} wounds, ${s.cover_before} -> ${s.cover_after} cover (P = ${pct(s.p_actual)})`
        : `${s.shooter} -> ${s.target_name}: +${s.actual[0]} markers, +${s.actual[1]} wounds (P = ${pct(s.p_actual)})`;
    });
    const symbols = [], labelled = [];
    for (const u of gone) { symbols.push(drawUnit(u, data.sides[u.side].colour, layer)); labelled.push(u); }
    for (const u of units) { symbols.push(drawUnit(u, data.sides[u.side].colour, layer)); labelled.push(u); }
    // Fire-support strikes over the units, so that a direct hit shows on the unit it landed on:
    // the spotter's call (dotted), the blast radius and the impact.
    for (const s of f.strikes || []) {
      const [x, y] = s.at;
      el("line", { x1: s.from[0], y1: Y(s.from[1]), x2: x, y2: Y(y), stroke: IMPACT, "stroke-width": 0.25,
                   "stroke-dasharray": "0.5 0.8", class: "call", "pointer-events": "none" }, layer);
      if (s.radius > 0)
        el("circle", { cx: x, cy: Y(y), r: s.radius, fill: IMPACT, "fill-opacity": 0.08, stroke: IMPACT, "stroke-width": 0.3,
                       "stroke-dasharray": "1 0.7", class: "blast", "pointer-events": "none" }, layer);
      const star = el("path", { d: starPath(x, Y(y), 3.2), fill: IMPACT, stroke: "#000", "stroke-width": 0.2, class: "impact" }, layer);
      el("title", {}, star).textContent = `${s.asset}: ${s.direct_hit ? "direct hit" : "scattered"}, blast radius ${s.radius} cm`;
    }
    if (!f.strikes)
      for (const p of f.impacts)
        el("path", { d: starPath(p[0], Y(p[1]), 3.2), fill: IMPACT, stroke: "#000", "stroke-width": 0.2, class: "impact" }, layer);
    placeLabels(labelled, symbols);
  }

  function drawShots(f, box) {
    box.textContent = "";
    if (!f.shots.length) { html("p", { class: "none" }, box, "No fire in this phase."); return; }
    f.shots.forEach((s, k) => {
      const hit = s.actual[0] > 0 || s.actual[1] > 0;
      const card = html("div", { class: "shot" + (hit ? " hit" : ""), "data-shot": k }, box);
      html("div", { class: "who" }, card, `${s.shooter} \u2192 ${s.target_name}`);
      const att = s.attack.length > 1 ? `attacks ${s.attack.join(" and ")}` : `attack ${s.attack[0]}`;
      html("div", {}, card, `${s.source < 0 ? "fire support: " : ""}${s.action} (${s.posture}), ${att} ` +
                            `vs defense ${s.defense} (${s.target_stance})`);
      const feature = s.feature != null;
      html("div", { class: "facts" }, card, feature
        ? `dice ${s.shooter_dice.map((d) => "d" + d).join(" ")} vs no roll; ${s.band_words}; armor ${s.armor}` +
          `${s.ap ? ` (AP ${s.ap})` : ""}; no cover bonus; each wound lowers its cover a level`
        : `dice ${s.shooter_dice.map((d) => "d" + d).join(" ")} vs ${s.target_dice.map((d) => "d" + d).join(" ")}; ` +
          `${s.band_words}; armor ${s.armor}${s.ap ? ` (AP ${s.ap})` : ""}; ${s.cover} cover${s.vehicle ? "; vehicle" : ""}`);
      // What the target took, as the log says it: the dice may give more markers than the
      // turn's cap still allows.
      const cut = !feature && s.markers_rolled > s.actual[0]
        ? ` (${plural(s.markers_rolled, "marker")} rolled; ${s.cap_left ? `only ${s.cap_left} more allowed` : "none allowed"} ` +
          `under the turn's cap of ${s.cap})` : "";
      html("div", {}, card, (feature
        ? `Result: +${plural(s.actual[1], "wound")}, cover ${s.cover_before} \u2192 ${s.cover_after} `
        : `Result: +${plural(s.actual[0], "marker")}${cut}, +${plural(s.actual[1], "wound")} `) +
                            `\u2014 chance of exactly this: ${pct(s.p_actual)}`);
      const capText = s.cap_left < s.cap ? `: ${s.cap_left} of the turn's ${s.cap} still allowed` : ` at ${s.cap} a turn`;
      html("div", { class: "facts" }, card, feature
        ? `P(\u22651 wound) ${pct(s.p_wound)}, expected ${s.e_wounds.toFixed(2)} wounds (a feature takes no markers)`
        : `P(\u22651 marker) ${pct(s.p_marker)}, P(\u22651 wound) ${pct(s.p_wound)}, ` +
          `expected ${s.e_markers.toFixed(2)} markers, ${s.e_wounds.toFixed(2)} wounds (markers capped${capText})`);
      const table = html("table", {}, card);
      const head = html("tr", {}, table);
      ["markers", "wounds", "chance", ""].forEach((h) => html("th", {}, head, h));
      const top = s.outcomes.slice(0, 8);
      if (!top.some((r) => r[0] === s.actual[0] && r[1] === s.actual[1]))
        top.push(s.outcomes.find((r) => r[0] === s.actual[0] && r[1] === s.actual[1]) || [s.actual[0], s.actual[1], 0]);
      for (const r of top) {
        const tr = html("tr", { class: r[0] === s.actual[0] && r[1] === s.actual[1] ? "actual" : "" }, table);
        html("td", {}, tr, `+${r[0]}`); html("td", {}, tr, `+${r[1]}`); html("td", {}, tr, pct(r[2]));
        const bar = html("td", { class: "bar" }, tr);
        html("span", { style: `width:${(100 * r[2]).toFixed(1)}%` }, bar);
      }
      if (s.outcomes.length > top.length) html("div", { class: "facts" }, card, `(${s.outcomes.length - top.length} less likely outcomes not shown)`);
      const focus = (on) => {
        card.classList.toggle("focus", on);
        for (const l of layer.querySelectorAll(`[data-shot="${k}"]`)) l.classList.toggle("focus", on);
      };
      card.addEventListener("mouseenter", () => focus(true));
      card.addEventListener("mouseleave", () => focus(false));
    });
  }

  return { drawFrame, drawShots, layer, overlay, el, html, Y, pct, plural, size, unitRow };
}
"""

PAGE = r"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{TITLE}} - Atomic Africa replay</title>
<style>""" + STYLE + r"""
  #controls { display: flex; gap: 6px; align-items: center; padding: 8px 16px; background: #e4dfd3;
              border-bottom: 1px solid #cfc8b8; flex-wrap: wrap; }
  #controls button { font-size: 15px; min-width: 38px; padding: 3px 8px; cursor: pointer; }
  #play { min-width: 84px !important; font-weight: 600; }
  #slider { flex: 1 1 300px; min-width: 200px; }
  #status { font-variant-numeric: tabular-nums; min-width: 330px; }
  #caption { margin: 6px 0 0; padding: 6px 8px; background: #fff; border: 1px solid #ddd; min-height: 5.5em;
             font: 13px/1.35 ui-monospace, "DejaVu Sans Mono", Menlo, monospace; white-space: pre-wrap; }
</style>
</head>
<body>
<header><h1 id="title">{{TITLE}}</h1><span id="result"></span></header>
<div id="controls">
  <button id="first" title="first frame (Home)">|&#x25C0;</button>
  <button id="prev" title="previous frame (left arrow)">&#x25C0;</button>
  <button id="play" title="play / pause (space)">&#x25B6; Play</button>
  <button id="next" title="next frame (right arrow)">&#x25B6;&#xFE0E;</button>
  <button id="last" title="last frame (End)">&#x25B6;&#xFE0E;|</button>
  <input id="slider" type="range" min="0" max="0" value="0" step="1" aria-label="frame">
  <span id="status"></span>
</div>
<main>
  <div id="board">
    <svg id="table" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="the table"></svg>
    <pre id="caption"></pre>
  </div>
  <aside>
    <h2>Shots this phase, with their exact odds</h2>
    <div id="shots"></div>
    <h2>Legend</h2>
    <div id="legend"></div>
  </aside>
</main>
<script type="application/json" id="replay-data">{{DATA}}</script>
<script>
"use strict";
""" + BOARD_SCRIPT + r"""
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const board = aaBoard(data, document.getElementById("table"), document.getElementById("legend"));
  const svg = document.getElementById("table");

  // ---- controls
  const slider = document.getElementById("slider"), playBtn = document.getElementById("play");
  const status = document.getElementById("status"), captionBox = document.getElementById("caption");
  const shotsBox = document.getElementById("shots"), resultBox = document.getElementById("result");
  const n = data.frames.length;
  slider.max = String(n - 1);
  const state = { frame: -1, count: n, playing: false, timer: null };
  function show(i) {
    i = Math.max(0, Math.min(n - 1, Number(i) | 0));
    const f = data.frames[i];
    state.frame = i;
    slider.value = String(i);
    svg.setAttribute("data-frame", String(i));
    board.drawFrame(f);
    board.drawShots(f, shotsBox);
    captionBox.textContent = f.caption.join("\n");
    // The result only once the replay reaches the end: the header must not tell the winner
    // while the battle is still being watched.
    resultBox.textContent = i === n - 1 ? (data.result || "") : "";
    status.textContent = `frame ${i + 1}/${n} \u00b7 action ${f.step}/${data.actions} \u00b7 turn ${f.turn}, ${f.stage}`;
  }
  function play(on) {
    state.playing = on;
    playBtn.textContent = on ? "\u275A\u275A Pause" : "\u25B6 Play";
    clearInterval(state.timer);
    if (on) {
      if (state.frame >= n - 1) show(0);
      state.timer = setInterval(() => { if (state.frame >= n - 1) play(false); else show(state.frame + 1); }, 900);
    }
  }
  slider.addEventListener("input", () => { play(false); show(slider.value); });
  playBtn.addEventListener("click", () => play(!state.playing));
  document.getElementById("first").addEventListener("click", () => { play(false); show(0); });
  document.getElementById("prev").addEventListener("click", () => { play(false); show(state.frame - 1); });
  document.getElementById("next").addEventListener("click", () => { play(false); show(state.frame + 1); });
  document.getElementById("last").addEventListener("click", () => { play(false); show(n - 1); });
  document.addEventListener("keydown", (e) => {
    if (e.target === slider && (e.key === "ArrowLeft" || e.key === "ArrowRight")) return;   // the slider moves itself
    if (e.key === "ArrowLeft") { play(false); show(state.frame - 1); }
    else if (e.key === "ArrowRight") { play(false); show(state.frame + 1); }
    else if (e.key === "Home") { play(false); show(0); }
    else if (e.key === "End") { play(false); show(n - 1); }
    else if (e.key === " ") { e.preventDefault(); play(!state.playing); }
    else return;
  });
  window.replay = { get frame() { return state.frame; }, count: n, get playing() { return state.playing; },
                    show: (i) => { play(false); show(i); } };
  show(0);
})();
</script>
</body>
</html>
"""
