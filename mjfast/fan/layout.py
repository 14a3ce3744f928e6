"""The fixed layout of one hand as the fan kernels read it: a small int16 vector.

One vector (or one row of a batch) holds everything a score depends on, so that a call from
Python passes a single array:

    [0:34]   standing tiles including the winning tile, as 34 counts
    [34]     number of melds (0-4)
    [35:39]  meld kinds (CHOW_SET, PUNG_SET, KONG_SET)
    [39:43]  meld tiles (the lowest tile of a chow)
    [43:47]  1 if the meld was claimed or exposed, 0 for a concealed kong
    [47]     the winning tile
    [48]     win conditions, a bit set of the WIN_* bits below
    [49]     seat wind 0-3 (E S W N)
    [50]     prevalent wind 0-3
    [51]     flowers 0-8
"""

AT_COUNTS = 0
AT_N_MELDS = 34
AT_MELD_KIND = 35
AT_MELD_TILE = 39
AT_MELD_OPEN = 43
AT_WIN_TILE = 47
AT_CONDITIONS = 48
AT_SEAT_WIND = 49
AT_PREVALENT_WIND = 50
AT_FLOWERS = 51
VEC_LEN = 52

# Set kinds, for melds and for the sets a decomposition finds.
CHOW_SET, PUNG_SET, KONG_SET = 1, 2, 3

# Win-condition bits.
WIN_SELF_DRAWN = 1
WIN_LAST_COPY = 2  # 和绝张: the winning tile is the last unseen copy
WIN_KONG = 4  # self-drawn: replacement tile after a kong (杠上开花); discard: robbing a kong (抢杠和)
WIN_LAST_TILE = 8  # the last tile of the wall: 妙手回春 self-drawn, 海底捞月 on a discard
