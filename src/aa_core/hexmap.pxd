# Hex-map geometry and artillery drift (RULES.md section 8, seed 003). Header: inline primitives.
#
# Flat-topped hexes in offset coordinates (col, row), 0-based: column A = 0, row "1" = 0. Columns of
# index parity `parity` sit half a hex lower (parity 1 = "odd-q": B, D, F... lower). Internally hexes
# are axial (q, r) = cube (x = q, z = r, y = -q - r). Directions 0..5 clockwise from north:
# N, NE, SE, S, SW, NW. Flat hex index of an on-map hex = row * cols + col.
from libc.stdint cimport int32_t, uint8_t, int64_t


ctypedef struct Grid:
    int cols
    int rows
    int parity          # 1: odd 0-based columns are the lower ones ("odd-q"); 0: even ones


ctypedef struct DriftRules:
    int face_dir[6]     # compass direction (0 N .. 5 NW) of die faces 1..6
    int combine         # targeting score: 0 white * coloured, 1 white + coloured
    int strict          # 1: hit iff score > threshold; 0: iff score >= threshold


cdef inline int dir_dq(int d) noexcept nogil:
    """Axial q step of direction d (0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW)."""
    if d == 1 or d == 2:
        return 1
    if d == 4 or d == 5:
        return -1
    return 0


cdef inline int dir_dr(int d) noexcept nogil:
    """Axial r step of direction d."""
    if d == 0 or d == 1:
        return -1
    if d == 3 or d == 4:
        return 1
    return 0


cdef inline int axial_r(int col, int row, int parity) noexcept nogil:
    """Axial r of offset (col, row); col may be negative (off-map), the half-shift stays exact."""
    if parity:
        return row - (col - (col & 1)) // 2
    return row - (col + (col & 1)) // 2


cdef inline int offset_row(int q, int r, int parity) noexcept nogil:
    """Offset row of axial (q, r)."""
    if parity:
        return r + (q - (q & 1)) // 2
    return r + (q + (q & 1)) // 2


cdef inline int axial_index(int q, int r, const Grid* g) noexcept nogil:
    """Flat index row * cols + col of axial (q, r), or -1 off the map."""
    cdef int row = offset_row(q, r, g.parity)
    if q < 0 or q >= g.cols or row < 0 or row >= g.rows:
        return -1
    return row * g.cols + q


cdef inline int iabs(int x) noexcept nogil:
    return -x if x < 0 else x


cdef inline int hex_distance(int q0, int r0, int q1, int r1) noexcept nogil:
    """Hex distance between two axial hexes."""
    cdef int dq = q1 - q0, dr = r1 - r0
    return (iabs(dq) + iabs(dr) + iabs(dq + dr)) // 2


cdef inline int64_t floor_div(int64_t a, int64_t b) noexcept nogil:
    """floor(a / b) for b > 0 (C division truncates)."""
    cdef int64_t q = a // b
    if q * b > a:
        q -= 1
    return q


cdef inline int64_t round_nudged(int64_t num, int64_t n, int e) noexcept nogil:
    """round(num / n + e * delta) for an infinitesimal delta > 0 and e != 0: halves go the nudge's way."""
    cdef int64_t q = floor_div(num, n)
    cdef int64_t twice_rem = 2 * (num - q * n)
    if twice_rem > n or (twice_rem == n and e > 0):
        q += 1
    return q


cdef inline int64_t diff_key(int64_t d, int e) noexcept nogil:
    """Order key of |d / n - e * delta| (d = rounded * n - exact * n): strict, as delta -> 0+."""
    if d == 0:
        return e if e > 0 else -e
    if d > 0:
        return 8 * d + 4 - e
    return -8 * d + 4 + e


cdef inline void line_point(int x0, int z0, int x1, int z1, int n, int i, int* q, int* r) noexcept nogil:
    """Hex i (0..n) of the cube line from (x0, z0) to (x1, z1), n = their distance.

    The usual cube lerp + round with the start and end nudged by (1, 2, -3) * delta, evaluated exactly
    in integers for delta -> 0+, so points on hex edges always round the same way on every platform.
    """
    cdef int y0 = -x0 - z0, y1 = -x1 - z1
    cdef int64_t X = <int64_t>x0 * n + <int64_t>(x1 - x0) * i
    cdef int64_t Y = <int64_t>y0 * n + <int64_t>(y1 - y0) * i
    cdef int64_t Z = <int64_t>z0 * n + <int64_t>(z1 - z0) * i
    cdef int64_t rx = round_nudged(X, n, 1)
    cdef int64_t ry = round_nudged(Y, n, 2)
    cdef int64_t rz = round_nudged(Z, n, -3)
    cdef int64_t kx = diff_key(rx * n - X, 1)
    cdef int64_t ky = diff_key(ry * n - Y, 2)
    cdef int64_t kz = diff_key(rz * n - Z, -3)
    if kx > ky and kx > kz:
        rx = -ry - rz
    elif ky > kz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    q[0] = <int>rx
    r[0] = <int>rz


cdef inline int los_hindrance(int q0, int r0, int q1, int r1, const Grid* g, const uint8_t* blocking,
                              const int32_t* hindrance, bint count_target) noexcept nogil:
    """-1 if a blocking hex lies strictly between the two hexes, else the summed hindrance of the
    hexes strictly between (plus the second hex's if count_target). Off-map hexes count nothing."""
    cdef int n = hex_distance(q0, r0, q1, r1)
    cdef int i, q, r, k, total = 0
    for i in range(1, n):
        line_point(q0, r0, q1, r1, n, i, &q, &r)
        k = axial_index(q, r, g)
        if k < 0:
            continue
        if blocking[k]:
            return -1
        total += hindrance[k]
    if count_target and n > 0:
        k = axial_index(q1, r1, g)
        if k >= 0:
            total += hindrance[k]
    return total


cdef inline bint targeting_hit(int white, int coloured, int threshold, const DriftRules* d) noexcept nogil:
    """The Targeting roll: score (product or sum of the dice) against range + hindrance."""
    cdef int score = white * coloured if d.combine == 0 else white + coloured
    if d.strict:
        return score > threshold
    return score >= threshold


cdef inline int drift_landing(int q, int r, bint hit, int white, int coloured, const Grid* g,
                              const DriftRules* d) noexcept nogil:
    """Landing hex index of the round at axial (q, r) after the drift card, -1 if any step is off map.

    Hit: one hex towards the white die's direction, then one towards the coloured die's. Miss:
    `coloured` hexes towards the white die's direction."""
    cdef int dw = d.face_dir[white - 1], k, steps
    if hit:
        q += dir_dq(dw)
        r += dir_dr(dw)
        if axial_index(q, r, g) < 0:
            return -1
        dw = d.face_dir[coloured - 1]
        q += dir_dq(dw)
        r += dir_dr(dw)
        return axial_index(q, r, g)
    for k in range(coloured):
        q += dir_dq(dw)
        r += dir_dr(dw)
        if axial_index(q, r, g) < 0:
            return -1
    return axial_index(q, r, g)


cdef inline int resolve_request(int q, int r, int threshold, int w1, int c1, int w2, int c2,
                                const Grid* g, const DriftRules* d, uint8_t* hit) noexcept nogil:
    """Targeting card (w1, c1) then drift card (w2, c2): the landing index (-1 off map); *hit set."""
    cdef bint h = targeting_hit(w1, c1, threshold, d)
    hit[0] = h
    return drift_landing(q, r, h, w2, c2, g, d)


cdef inline void landing_table(int q, int r, int threshold, const Grid* g, const DriftRules* d,
                               int32_t* table, uint8_t* hits) noexcept nogil:
    """table[36 * a + b] = landing index for targeting card a and drift card b (card id
    6 * (white - 1) + coloured - 1), -1 off map; hits[a] = the Targeting roll of card a hits.

    Every request at the same round shares it, so batch kernels resolve a request by one lookup."""
    cdef int a, b
    cdef uint8_t h
    for a in range(36):
        for b in range(36):
            table[36 * a + b] = resolve_request(q, r, threshold, a // 6 + 1, a % 6 + 1, b // 6 + 1,
                                                b % 6 + 1, g, d, &h)
        hits[a] = h
