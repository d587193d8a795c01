"""Every printed number of Azul: Summer Pavilion and the board geometry (rules sections 1-9).

Nothing else in the engine spells out a rule figure; it reads these tables. Spaces are numbered
``star * 6 + (pos - 1)`` with stars ``0 = centre, 1 = purple, 2 = orange, 3 = red, 4 = blue,
5 = yellow, 6 = green`` and ring positions ``pos`` 1..6 clockwise (rules "Board geometry").
"""

from typing import Final

RULES_VERSION: Final = "pavilion-1"

# Colours in wild order (rules 1.2, 3.2): index 0..5.
COLORS: Final = ("purple", "green", "orange", "yellow", "blue", "red")
COLOR_LETTERS: Final = "PGOYBR"
NUM_COLORS: Final = 6
PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED = range(6)
NO_COLOR: Final = -1  # where a colour index has no colour (the centre star, round 0)

TILES_PER_COLOR: Final = 22
TOTAL_TILES: Final = TILES_PER_COLOR * NUM_COLORS  # 132
TILES_PER_FACTORY: Final = 4
FACTORIES: Final = {2: 5, 3: 7, 4: 9}
SUPPLY_SPACES: Final = 10
START_SCORE: Final = 5
CORNER_SPACES: Final = 4
ROUNDS: Final = 6
# rules 3.2, index = round 1..6 (there is no round 0)
WILD_BY_ROUND: Final = (NO_COLOR, PURPLE, GREEN, ORANGE, YELLOW, BLUE, RED)

# Stars (rules "Board geometry"): index, name, letter used in the notation, fixed colour on the
# coloured side (NO_COLOR: the multicoloured centre star).
STARS: Final = ("centre", "purple", "orange", "red", "blue", "yellow", "green")
STAR_LETTERS: Final = "CPORBYG"
STAR_COLOR: Final = (NO_COLOR, PURPLE, ORANGE, RED, BLUE, YELLOW, GREEN)
NUM_STARS: Final = 7
# The grey side's stars have no colour: they are named by where they are (rules "Board
# geometry": star 1 at 9 o'clock, then clockwise).
GREY_STAR_PLACES: Final = (
    "centre",
    "left",
    "upper left",
    "upper right",
    "right",
    "lower right",
    "lower left",
)


def star_names(grey: bool) -> tuple[str, ...]:
    """The stars' names in the final scores and on the terminal board: by colour on the
    coloured side, by place on the grey side (English words, translated where shown)."""
    return GREY_STAR_PLACES if grey else STARS


NUM_SPACES: Final = 42

# Completed-star bonus (rules 7.1): multicoloured star 12, single-coloured star by its colour.
MULTICOLORED_STAR_BONUS: Final = 12
STAR_BONUS_BY_COLOR: Final = {PURPLE: 20, GREEN: 18, ORANGE: 17, YELLOW: 16, BLUE: 15, RED: 14}
# All spaces of one printed number covered (rules 7.2).
NUMBER_BONUS: Final = {1: 4, 2: 8, 3: 12, 4: 16}

# Printed number (= cost) of each ring position (rules 5.2, 9.1).
COST_COLOURED = {star: {pos: pos for pos in range(1, 7)} for star in range(7)}
_GREY_OUTER = {1: 3, 2: 2, 3: 1, 4: 4, 5: 5, 6: 6}
COST_GREY = {
    star: ({pos: 3 for pos in range(1, 7)} if star == 0 else dict(_GREY_OUTER)) for star in range(7)
}
BOARDS: Final = {"coloured": COST_COLOURED, "grey": COST_GREY}

# Bonus tiles per structure (rules 5.6).
PILLAR_REWARD, STATUE_REWARD, WINDOW_REWARD = 1, 2, 3


def space(star: int, pos: int) -> int:
    """Space index of ring position ``pos`` (1..6) on ``star`` (0..6)."""
    return star * 6 + pos - 1


def _wrap(i: int) -> int:
    """Wrap an outer star index or a ring position into 1..6."""
    return (i - 1) % 6 + 1


Structure = tuple[str, int, tuple[int, ...], int]
"""A pillar, statue or window: (kind, outer star, spaces, reward)."""


def _structures() -> list[Structure]:
    """All 18 structures as (kind, outer star, spaces, reward), from the index form of the rules."""
    out: list[Structure] = []
    for s in range(1, 7):
        out.append(
            (
                "pillar",
                s,
                (space(s, 2), space(s, 3), space(0, _wrap(s - 2)), space(0, _wrap(s - 1))),
                PILLAR_REWARD,
            )
        )
    for s in range(1, 7):
        n = _wrap(s + 1)
        out.append(
            ("statue", s, (space(s, 1), space(s, 2), space(n, 3), space(n, 4)), STATUE_REWARD)
        )
    for s in range(1, 7):
        out.append(("window", s, (space(s, 5), space(s, 6)), WINDOW_REWARD))
    return out


STRUCTURES = _structures()
