# Hex-map geometry and artillery drift (RULES.md section 8, seed 003): the C core's csrc/aa_hexmap.h.
#
# Flat-topped hexes in offset coordinates (col, row), 0-based: column A = 0, row "1" = 0. Columns of
# index parity `parity` sit half a hex lower (parity 1 = "odd-q": B, D, F... lower). Internally hexes
# are axial (q, r) = cube (x = q, z = r, y = -q - r). Directions 0..5 clockwise from north:
# N, NE, SE, S, SW, NW. Flat hex index of an on-map hex = row * cols + col.
# The primitives are inline in the header; the aa_* loops below are in the C library.
from libc.stddef cimport ptrdiff_t
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t

from aa_core.rng cimport aa_bitgen

cdef extern from "csrc/aa_hexmap.h" nogil:
    ctypedef struct Grid "aa_grid":
        int cols
        int rows
        int parity          # 1: odd 0-based columns are the lower ones ("odd-q"); 0: even ones

    ctypedef struct DriftRules "aa_drift_rules":
        int face_dir[6]     # compass direction (0 N .. 5 NW) of die faces 1..6
        int combine         # targeting score: 0 white * coloured, 1 white + coloured
        int strict          # 1: hit iff score > threshold; 0: iff score >= threshold

    int dir_dq "aa_dir_dq"(int d) noexcept          # axial q step of direction d
    int dir_dr "aa_dir_dr"(int d) noexcept          # axial r step of direction d
    int axial_r "aa_axial_r"(int col, int row, int parity) noexcept
    int offset_row "aa_offset_row"(int q, int r, int parity) noexcept
    int axial_index "aa_axial_index"(int q, int r, const Grid* g) noexcept   # -1 off the map
    int iabs "aa_iabs"(int x) noexcept
    int hex_distance "aa_hex_distance"(int q0, int r0, int q1, int r1) noexcept
    int64_t floor_div "aa_floor_div"(int64_t a, int64_t b) noexcept
    int64_t round_nudged "aa_round_nudged"(int64_t num, int64_t n, int e) noexcept
    int64_t diff_key "aa_diff_key"(int64_t d, int e) noexcept
    # Hex i (0..n) of the cube line from (x0, z0) to (x1, z1), n = their distance.
    void line_point "aa_line_point"(int x0, int z0, int x1, int z1, int n, int i, int* q, int* r) noexcept
    # -1 if a blocking hex lies strictly between the two hexes, else the summed hindrance between
    # (plus the second hex's if count_target).
    int los_hindrance "aa_los_hindrance"(int q0, int r0, int q1, int r1, const Grid* g,
                                         const uint8_t* blocking, const int32_t* hindrance,
                                         bint count_target) noexcept
    bint targeting_hit "aa_targeting_hit"(int white, int coloured, int threshold, const DriftRules* d) noexcept
    int drift_landing "aa_drift_landing"(int q, int r, bint hit, int white, int coloured, const Grid* g,
                                         const DriftRules* d) noexcept
    int resolve_request "aa_resolve_request"(int q, int r, int threshold, int w1, int c1, int w2, int c2,
                                             const Grid* g, const DriftRules* d, uint8_t* hit) noexcept
    # table[36 * a + b] = landing of targeting card a and drift card b; hits[a] = card a hits.
    void landing_table "aa_landing_table"(int q, int r, int threshold, const Grid* g, const DriftRules* d,
                                          int32_t* table, uint8_t* hits) noexcept

    # The loops (C library).
    void aa_los_array(int col, int row, const Grid* g, const uint8_t* blocking, const int32_t* hindrance,
                      bint count_target, int32_t* out) noexcept
    ptrdiff_t aa_resolve_requests(int col, int row, int threshold, const int32_t* cards, ptrdiff_t n,
                                  ptrdiff_t stride, const Grid* g, const DriftRules* d, int32_t* landing,
                                  uint8_t* hit) noexcept
    ctypedef struct aa_requests:
        pass
    int aa_requests_init(aa_requests* s, int col, int row, int threshold, const Grid* g, const DriftRules* d,
                         bint independent, const int32_t* pile, int n_pile, const int32_t* discard,
                         int n_discard) noexcept
    void aa_simulate_requests(aa_bitgen* bg, const aa_requests* s, ptrdiff_t lo, ptrdiff_t hi,
                              int32_t* landing, uint8_t* hit) noexcept
