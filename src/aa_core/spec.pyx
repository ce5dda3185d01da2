# cython: language_level=3
"""The C core's spec loader (csrc/aa_spec.c) for Python: what ``aa_spec_load`` and ``aa_spec_default``
make of a spec file, read back as the dicts of atomic_africa.game.native.params (tests compare them with
what Python computes for VectorGame).
"""
import numpy as np

from libc.stddef cimport size_t
from libc.string cimport memcpy

from aa_core.vgame cimport (AA_ODDS_TABLE_BYTES, N_ACTIONS, NF64, NI32, NI8, Params, aa_last_error, aa_spec,
                            aa_spec_default, aa_spec_free, aa_spec_load, aa_spec_params)


def load_status(const unsigned char[::1] data):
    """``aa_spec_load`` of ``data``: (status, message); status 0 (AA_OK) with message ``""``."""
    cdef aa_spec* s = NULL
    cdef int st
    cdef const unsigned char* p = &data[0] if data.shape[0] else <const unsigned char*>b""
    with nogil:
        st = aa_spec_load(p, <size_t>data.shape[0], &s)
    msg = "" if st == 0 else aa_last_error().decode("utf-8", "replace")
    aa_spec_free(s)
    return st, msg


cdef _array(const void* src, Py_ssize_t n, dtype):
    a = np.empty(n, dtype=dtype)
    cdef unsigned char[::1] view = a.view(np.uint8)
    if n:
        memcpy(&view[0], src, n * a.itemsize)
    return a


cdef _read(const Params* P):
    """The sections and tables of P, keyed as native_params' dicts."""
    cdef int K = P.K, U = P.U, nf = P.terrain.n_feat, npoly = P.terrain.n_poly, nc = P.terrain.n_circ
    cdef Py_ssize_t nv = P.terrain.poly_off[npoly] if npoly else 0
    params = {"C": P.C, "U": P.U, "K": P.K, "obs_size": P.obs_size, "n_actions": P.n_actions,
              "base": P.base, "movement": P.movement, "orders": P.orders, "rally": P.rally,
              "call_for_fire": P.call_for_fire, "cleanup": P.cleanup, "dice": P.dice, "fire": P.fire,
              "table": P.table,
              "terrain": {"n_poly": npoly, "n_circ": nc, "n_feat": nf, "edge_depth": P.terrain.edge_depth}}
    t, g = P.tables, P.terrain
    tables = {
        "card_joker": _array(t.card_joker, K, np.int8), "card_suit": _array(t.card_suit, K, np.int8),
        "card_rank": _array(t.card_rank, K, np.int8), "card_posture": _array(t.card_posture, K, np.int8),
        "card_face": _array(t.card_face, K, np.int8), "card_any": _array(t.card_any, K, np.int8),
        "card_move": _array(t.card_move, K, np.int32), "table5": _array(t.table5, N_ACTIONS * 6, np.int8),
        "feat_x": _array(t.feat_x, nf, np.float64), "feat_y": _array(t.feat_y, nf, np.float64),
        "feat_cover0": _array(t.feat_cover0, nf, np.int8),
        "tmpl_i8": _array(t.tmpl_i8, NI8 * U, np.int8), "tmpl_i32": _array(t.tmpl_i32, NI32 * U, np.int32),
        "tmpl_f64": _array(t.tmpl_f64, NF64 * U, np.float64),
        "poly_off": _array(g.poly_off, npoly + 1, np.int64), "vx": _array(g.vx, nv, np.float64),
        "vy": _array(g.vy, nv, np.float64), "poly_blocks": _array(g.poly_blocks, npoly, np.uint8),
        "poly_cover": _array(g.poly_cover, npoly, np.int8), "poly_feat": _array(g.poly_feat, npoly, np.int32),
        "cx": _array(g.cx, nc, np.float64), "cy": _array(g.cy, nc, np.float64), "cr": _array(g.cr, nc, np.float64),
        "circ_blocks": _array(g.circ_blocks, nc, np.uint8), "circ_cover": _array(g.circ_cover, nc, np.int8),
        "circ_feat": _array(g.circ_feat, nc, np.int32), "feat_armor": _array(g.feat_armor, nf, np.int32),
        "odds": _array(t.odds, AA_ODDS_TABLE_BYTES, np.uint8),
    }
    return params, tables


def load_params(const unsigned char[::1] data=None):
    """The parameters the C core loads from a spec file (``aa_spec_load``; None: ``aa_spec_default``).

    Returns (params, tables) keyed as atomic_africa.game.native.params.native_params' (tables
    holding exactly the elements of each array, the unit templates and the odds tables included);
    raises ValueError with aa_last_error()'s message when the file is refused.
    """
    cdef aa_spec* s = NULL
    cdef int st
    if data is None:
        st = aa_spec_default(&s)
    else:
        st = aa_spec_load(&data[0] if data.shape[0] else <const unsigned char*>b"", <size_t>data.shape[0], &s)
    if st != 0:
        raise ValueError(aa_last_error().decode("utf-8", "replace"))
    try:
        return _read(aa_spec_params(s))
    finally:
        aa_spec_free(s)
