// atomic-africa's C core in the browser: a small wrapper over the WebAssembly build of atomic_africa.h
// (make -C src/aa_core -f wasm.mk web, a WASI reactor). The core does no I/O, so the WASI imports it
// could ask for get a tiny shim: output goes to the console, everything else answers ENOSYS.
// Games equal the native library's bit for bit (the core uses no C library maths).

export const ABI_VERSION = 2;
export const AGENTS = { random: 0, heuristic: 1, greedy: 2, doctrine: 3, ismcts: 4 };
const ENOSYS = 52;

function wasiShim(memory) {
  const decoder = new TextDecoder();
  const impl = {
    fd_write(fd, iovs, n, written) {          // the core never writes; a host's printf would
      const view = new DataView(memory().buffer);
      let text = "", total = 0;
      for (let i = 0; i < n; i++) {
        const ptr = view.getUint32(iovs + 8 * i, true), len = view.getUint32(iovs + 8 * i + 4, true);
        text += decoder.decode(new Uint8Array(memory().buffer, ptr, len));
        total += len;
      }
      (fd === 2 ? console.error : console.log)(text);
      view.setUint32(written, total, true);
      return 0;
    },
    proc_exit(code) { throw new Error(`atomic_africa.wasm exited with ${code}`); },
    environ_sizes_get(count, size) { const v = new DataView(memory().buffer); v.setUint32(count, 0, true); v.setUint32(size, 0, true); return 0; },
    args_sizes_get(count, size) { const v = new DataView(memory().buffer); v.setUint32(count, 0, true); v.setUint32(size, 0, true); return 0; },
    environ_get() { return 0; },
    args_get() { return 0; },
  };
  return new Proxy(impl, { get: (target, name) => target[name] ?? (() => ENOSYS) });
}

/** Load the core: `const aa = await loadAtomicAfrica("atomic_africa.wasm")`. */
export async function loadAtomicAfrica(url) {
  const bytes = await (await fetch(url)).arrayBuffer();
  let exports;
  const { instance } = await WebAssembly.instantiate(bytes, {
    wasi_snapshot_preview1: wasiShim(() => exports.memory),
  });
  exports = instance.exports;
  if (exports._initialize) exports._initialize();
  return new AtomicAfrica(exports);
}

/** The default battle (aa_spec_default) and the games and agents made from it. */
export class AtomicAfrica {
  constructor(exports) {
    this.x = exports;
    if (exports.aa_abi_version() !== ABI_VERSION)
      throw new Error(`atomic_africa.wasm has ABI ${exports.aa_abi_version()}; this wrapper ${ABI_VERSION}`);
    this.out = exports.malloc(16);                  // out parameters: one 8-byte slot, one 4-byte
    this.check(exports.aa_spec_default(this.out));
    this.spec = this.i32(this.out);
    this.numActions = exports.aa_num_actions(this.spec);
    this.legalBuf = exports.malloc(4 * this.numActions);
  }

  i32(ptr) { return new DataView(this.x.memory.buffer).getInt32(ptr, true); }

  /** aa_last_error() as a string. */
  lastError() {
    const ptr = this.x.aa_last_error(), mem = new Uint8Array(this.x.memory.buffer);
    let end = ptr;
    while (mem[end]) end++;
    return new TextDecoder().decode(mem.subarray(ptr, end));
  }

  check(status) {
    if (status !== 0) throw new Error(`atomic_africa: status ${status}: ${this.lastError()}`);
  }

  /** A new game of the default battle: Game(None, seed) of the Python package. */
  newGame(seed) {
    this.check(this.x.aa_game_new(this.spec, BigInt(seed), this.out));
    return new Game(this, this.i32(this.out));
  }

  /** A built-in agent (AGENTS) with the Python classes' defaults; `seed` seeds the random agent. */
  newAgent(kind, seed) {
    this.check(this.x.aa_agent_new(AGENTS[kind] ?? kind, BigInt(seed), 0, this.out));
    return new Agent(this, this.i32(this.out));
  }
}

export class Game {
  constructor(aa, ptr) { this.aa = aa; this.ptr = ptr; }
  get isOver() { return this.aa.x.aa_game_is_over(this.ptr) === 1; }
  get currentPlayer() { this.aa.check(this.aa.x.aa_game_current_player(this.ptr, this.aa.out)); return this.aa.i32(this.aa.out); }
  /** The legal action ids, ascending. */
  legalActions() {
    const n = this.aa.x.aa_game_legal_actions(this.ptr, this.aa.legalBuf, this.aa.numActions);
    if (n < 0) this.aa.check(-n);
    return Array.from(new Int32Array(this.aa.x.memory.buffer, this.aa.legalBuf, n));
  }
  apply(action) { this.aa.check(this.aa.x.aa_game_apply(this.ptr, action)); }
  /** 0 or 1, -1 a draw (once over). */
  get winner() { this.aa.check(this.aa.x.aa_game_winner(this.ptr, this.aa.out)); return this.aa.i32(this.aa.out); }
  /** The event records since set-up, as doubles (a copy). */
  records() {
    const out = this.aa.out;
    this.aa.check(this.aa.x.aa_game_events(this.ptr, out, out + 8));
    const view = new DataView(this.aa.x.memory.buffer);
    return Array.from(new Float64Array(this.aa.x.memory.buffer, view.getUint32(out, true), view.getUint32(out + 8, true)));
  }
  /** The events: {code, turn, values} each. */
  events() {
    const r = this.records(), out = [];
    for (let i = 0; i < r.length; i += 3 + r[i + 2]) out.push({ code: r[i], turn: r[i + 1], values: r.slice(i + 3, i + 3 + r[i + 2]) });
    return out;
  }
  free() { this.aa.x.aa_game_free(this.ptr); this.ptr = 0; }
}

export class Agent {
  constructor(aa, ptr) { this.aa = aa; this.ptr = ptr; }
  /** The action this agent plays for the player to move (the game unchanged). */
  action(game) { this.aa.check(this.aa.x.aa_agent_action(this.ptr, game.ptr, this.aa.out)); return this.aa.i32(this.aa.out); }
  free() { this.aa.x.aa_agent_free(this.ptr); this.ptr = 0; }
}
