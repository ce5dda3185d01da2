"""Run a WebAssembly WASI command (``_start``) under the ``wasmtime`` package (a test extra), as a
subprocess would: arguments, standard input, and its standard output and exit code back."""
from __future__ import annotations

import tempfile
from pathlib import Path

from wasmtime import Engine, ExitTrap, Linker, Module, Store, WasiConfig

_ENGINE = Engine()


def run_wasi(wasm: Path, args=(), stdin: bytes = b"") -> tuple:
    """``(exit code, stdout bytes)`` of ``wasm`` run with ``args`` (argv[1:]) and ``stdin``."""
    module = Module.from_file(_ENGINE, str(wasm))
    linker = Linker(_ENGINE)
    linker.define_wasi()
    store = Store(_ENGINE)
    with tempfile.TemporaryDirectory(prefix="aa-wasi-") as tmp:
        out, inp = Path(tmp) / "stdout", Path(tmp) / "stdin"
        inp.write_bytes(stdin)
        config = WasiConfig()
        config.argv = [Path(wasm).stem, *map(str, args)]
        config.stdin_file = str(inp)
        config.stdout_file = str(out)
        config.inherit_stderr()
        store.set_wasi(config)
        instance = linker.instantiate(store, module)
        try:
            instance.exports(store)["_start"](store)
            code = 0
        except ExitTrap as e:
            code = e.code
        return code, out.read_bytes()
