# Exact odds primitives: the outcome of one engagement for given scores, exactly as simulate_fire
# resolves it (aa_core/simulate.pyx `engage`), so enumerating scores with their counts is exact.
from aa_core.fire cimport FireRules, cap_markers, resolve_fire


cdef inline int volley(int a0, int a1, int defense, bint split_high, int band, int armor, int cover,
                       int ap, bint vehicle, const FireRules* r, int* wounds) noexcept nogil:
    """Capped markers (wounds summed into *wounds) of attacks a0 <= a1 (-1 = none) on one target.

    Split Fire's declared target faces only a1, the higher attack; otherwise every attack present
    is one volley: markers summed then capped per turn, wounds summed.
    """
    cdef int w, m = 0
    wounds[0] = 0
    if split_high:
        m = resolve_fire(a1, band, defense, armor, cover, ap, vehicle, r, wounds)
    else:
        if a0 >= 0:
            m += resolve_fire(a0, band, defense, armor, cover, ap, vehicle, r, &w)
            wounds[0] += w
        if a1 >= 0:
            m += resolve_fire(a1, band, defense, armor, cover, ap, vehicle, r, &w)
            wounds[0] += w
    return cap_markers(m, 0, vehicle, r)
