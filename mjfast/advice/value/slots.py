"""The graph's hash slots: a hand's key (its counts as two base-5 numbers), the slots that find
a hand by its key, and the bit set that answers "no such 14-tile hand" from the cache.

A slot holds a key, the honours' number (below 5^7, 17 bits) packed with the hand's index + 1
above it (0: an empty slot): one cache line read per probe. The slots in use are a power of
two, the first of the arrays (graph.make_room grows them)."""

import numpy as np

from ...runtime.decorators import njit

# Adding or removing tile t changes a key by POW5[t] in the suits' number (_SUIT_KEY[t] 1) or
# the honours' (0).
POW5 = np.array([5 ** t for t in range(27)] + [5 ** t for t in range(7)], np.int64)
SUIT_KEY = np.array([1] * 27 + [0] * 7, np.int64)
_HONOURS_BITS = 17
_MIX0 = np.int64(-7046029254386353131)
_MIX1 = np.int64(-4417276706812531889)
_MIX2 = np.int64(-2989050862716231011)


@njit
def hand_key(hand):
    k0 = np.int64(0)
    k1 = np.int64(0)
    for t in range(27):
        k0 += hand[t] * POW5[t]
    for t in range(27, 34):
        k1 += hand[t] * POW5[t]
    return k0, k1


@njit(inline="always")
def key_with(k0, k1, u):
    """The key of a hand with key (k0, k1) and one more u."""
    return k0 + POW5[u] * SUIT_KEY[u], k1 + POW5[u] * (1 - SUIT_KEY[u])


@njit(inline="always")
def key_without(k0, k1, k):
    """The key of a hand with key (k0, k1) and one k fewer."""
    return k0 - POW5[k] * SUIT_KEY[k], k1 - POW5[k] * (1 - SUIT_KEY[k])


@njit(inline="always")
def slot_of(k0, k1, span):
    """The first slot a key probes among `span`."""
    return ((k0 * _MIX0 ^ k1 * _MIX1) >> 24) & (span - 1)  # wraps: a multiplicative hash


@njit(inline="always")
def find_slot(slots, span, k0, k1):
    """(index of the hand with this key or -1, the slot where it is or would go) among the
    first `span` slots."""
    s = slot_of(k0, k1, span)
    while True:
        packed = slots[s, 1]
        if packed == 0:
            return -1, s
        if slots[s, 0] == k0 and packed & ((1 << _HONOURS_BITS) - 1) == k1:
            return (packed >> _HONOURS_BITS) - 1, s
        s = (s + 1) & (span - 1)


@njit(inline="always")
def put_slot(slots, s, k0, k1, index):
    slots[s, 0] = k0
    slots[s, 1] = k1 | ((index + 1) << _HONOURS_BITS)


@njit(inline="always")
def bits_of(span, k0, k1):
    """The two bits of a 14-tile hand's key in a bit set of 8 x `span` bits (word, bit of
    each)."""
    h = (k0 * _MIX2 ^ k1 * _MIX0) >> 16
    n = 8 * span
    a = h & (n - 1)
    b = (h >> 24) & (n - 1)
    return a >> 6, a & 63, b >> 6, b & 63


@njit(inline="always")
def maybe_made(made, span, k0, k1):
    """False when no 14-tile hand with this key was made (True: perhaps one was)."""
    wa, ba, wb, bb = bits_of(span, k0, k1)
    return (made[wa] >> ba) & 1 != 0 and (made[wb] >> bb) & 1 != 0


@njit(inline="always")
def mark_made(made, span, k0, k1):
    wa, ba, wb, bb = bits_of(span, k0, k1)
    made[wa] |= np.int64(1) << ba
    made[wb] |= np.int64(1) << bb


@njit(nrt=True)
def rehash_slots(slots, span, wider, made):
    """The slots in use grown from `span` to `wider` (their hands put again); with `made`,
    the 14-tile hands' bit set made again for the wider span."""
    held = slots[:span].copy()
    slots[:wider] = 0
    if made.shape[0]:
        made[:8 * wider // 64] = 0
    for s in range(span):
        packed = held[s, 1]
        if packed == 0:
            continue
        k0, k1 = held[s, 0], packed & ((1 << _HONOURS_BITS) - 1)
        _, at = find_slot(slots, wider, k0, k1)
        slots[at, 0] = k0
        slots[at, 1] = packed
        if made.shape[0]:
            mark_made(made, wider, k0, k1)
