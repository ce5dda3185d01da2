// The page: a person plays the default battle against a built-in agent, or watches two agents play.
// Action ids and events are labelled from battle.json (written by battle_json.py from the Python
// package); the rules all run in atomic_africa.wasm through atomic_africa.js.
import { AGENTS, loadAtomicAfrica } from "./atomic_africa.js";

const $ = (id) => document.getElementById(id);
let aa, battle, game = null, agents = [], played = [];

function segmentOf(id) {
  for (const [name, base, size] of battle.segments)
    if (id >= base && id < base + size) return [name, id - base];
  return ["?", id];
}

const unitName = (slot) => `${battle.sides[Math.floor(slot / battle.C)]}:${battle.units[slot] || "unit " + slot}`;

/** A readable label of action `id` for the player to move (Game.describe_action's words). */
function label(id, player) {
  const [name, k] = segmentOf(id), C = battle.C, nf = battle.fractions.length;
  switch (name) {
    case "ASSIGN": return `ASSIGN ${battle.cards[Math.floor(k / C)]} -> ${unitName(player * C + (k % C))}`;
    case "SELECT": case "SPLIT": return `${name} ${unitName(player * C + k)}`;
    case "DECLARE": return `DECLARE ${battle.actions[Math.floor(k / battle.postures.length)]} ${battle.postures[k % battle.postures.length]}`;
    case "TARGET": return `TARGET ${unitName(k)}`;
    case "FEATURE": return `TARGET feature ${k}`;
    case "ASSET": return `ASSET ${k}`;
    case "MOVE": return `MOVE direction ${Math.floor(k / nf)} x ${battle.fractions[k % nf]}`;
    default: return name;
  }
}

function humanSide() {
  const mode = $("mode").value;
  return mode === "watch" ? -1 : Number(mode);
}

function logEvents(from) {
  const events = game.events(), log = $("log");
  for (const e of events.slice(from)) {
    const line = document.createElement("div");
    line.textContent = `turn ${e.turn} ${battle.events[e.code]} ${e.values.map((v) => +v.toFixed(3)).join(" ")}`;
    log.appendChild(line);
  }
  log.scrollTop = log.scrollHeight;
  return events.length;
}

let shown = 0;

function apply(action) {
  game.apply(action);
  played.push(action);
  shown = logEvents(shown);
}

/** When a person plays: the agent plays until the person is to decide or the game is over. Then the
 * page shows the choices (when watching, the buttons below step the game). */
function advance() {
  while (humanSide() >= 0 && !game.isOver && game.currentPlayer !== humanSide())
    apply(agents[game.currentPlayer].action(game));
  render();
}

function render() {
  const box = $("actions");
  box.replaceChildren();
  if (game.isOver) {
    const w = game.winner;
    $("status").textContent = `Game over after ${played.length} decisions: ${w < 0 ? "a draw" : battle.sides[w] + " wins"}`;
    $("status").dataset.state = "over";
    return;
  }
  const p = game.currentPlayer, legal = game.legalActions();
  $("status").textContent = `${battle.sides[p]} to decide (${legal.length} legal actions, ${played.length} decisions so far)`;
  $("status").dataset.state = p === humanSide() ? "yours" : "watching";
  if (p !== humanSide()) return;
  for (const id of legal) {
    const b = document.createElement("button");
    b.textContent = label(id, p);
    b.dataset.id = id;
    b.className = `action side${p}`;
    b.addEventListener("click", () => { apply(id); advance(); });
    box.appendChild(b);
  }
}

function newGame() {
  if (game) game.free();
  agents.forEach((a) => a.free());
  game = aa.newGame(Number($("seed").value));
  agents = [aa.newAgent($("agent0").value, 1), aa.newAgent($("agent1").value, 2)];
  played = [];
  shown = 0;
  $("log").replaceChildren();
  shown = logEvents(0);
  advance();
}

async function main() {
  [aa, battle] = await Promise.all([loadAtomicAfrica("atomic_africa.wasm"), fetch("battle.json").then((r) => r.json())]);
  for (const side of [0, 1])
    for (const name of Object.keys(AGENTS).filter((n) => n !== "ismcts"))
      $(`agent${side}`).add(new Option(name, name, false, name === "heuristic"));
  $("new").addEventListener("click", newGame);
  $("step").addEventListener("click", () => { if (!game.isOver) { apply(agents[game.currentPlayer].action(game)); render(); } });
  $("finish").addEventListener("click", () => {
    while (!game.isOver) apply(agents[game.currentPlayer].action(game));
    render();
  });
  // for tests and the curious: the game's records and the actions played
  window.atomicAfrica = { aa, records: () => game.records(), played: () => played.slice() };
  newGame();
}

main().catch((e) => { $("status").textContent = `Error: ${e.message}`; console.error(e); });
