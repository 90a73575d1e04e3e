"""The offer (docs/rules.md B4) and what may be bought from it (B5).

The wheel has 12 spaces. A group is a space's tile plus its Viking. Spaces are named by their
original number 0..11; the wheel's rotation is expressed by prices: the price of the group on
space s is s minus the lowest space still holding a group (B4.3).
"""

from .components import NUM_COLOURS, WHEEL_SPACES, is_ship


class Wheel:
    def __init__(self):
        self.tiles = [None] * WHEEL_SPACES  # tile kind per space
        self.vikings = [None] * WHEEL_SPACES  # Viking colour per space (None while drawing)

    def copy(self):
        other = Wheel()
        other.tiles = list(self.tiles)
        other.vikings = list(self.vikings)
        return other

    def occupied(self):
        return [s for s in range(WHEEL_SPACES) if self.tiles[s] is not None]

    def is_empty(self):
        return all(tile is None for tile in self.tiles)

    def reveal(self, kind):
        """B4.1: island tiles fill spaces from 0 upward, ships from 11 downward."""
        if is_ship(kind):
            space = max(s for s in range(WHEEL_SPACES) if self.tiles[s] is None)
        else:
            space = min(s for s in range(WHEEL_SPACES) if self.tiles[s] is None)
        self.tiles[space] = kind

    def lay_out_vikings(self, drawn):
        """B4.2: the drawn Vikings, sorted by colour, one on each space from 0 upward."""
        colours = [colour for colour in range(NUM_COLOURS) for _ in range(drawn[colour])]
        for space, colour in enumerate(colours):
            self.vikings[space] = colour

    def place_from_top(self, colour, count):
        """A3: `count` Vikings of `colour` on the highest spaces without a Viking, 11 down."""
        free = [s for s in range(WHEEL_SPACES) if self.vikings[s] is None]
        for space in free[len(free) - count :]:
            self.vikings[space] = colour

    def colours_placed(self):
        """A3: how many colours are on the wheel already."""
        return len({colour for colour in self.vikings if colour is not None})

    def lowest_space(self):
        return min(self.occupied())

    def price(self, space):
        """B4.3: the group's place on the wheel as rotated now."""
        return space - self.lowest_space()

    def legal_buys(self, gold, fame):
        """B5.2, B5.3, B5.5: the spaces a player with this gold and Fame may buy."""
        zero = self.lowest_space()
        others = [s for s in self.occupied() if s != zero]
        legal = [s for s in others if self.price(s) <= gold + fame]
        colour_elsewhere = any(self.vikings[s] == self.vikings[zero] for s in others)
        too_poor_for_others = all(gold < self.price(s) for s in others)
        if not colour_elsewhere or too_poor_for_others:
            legal.append(zero)
        return sorted(legal)

    def take(self, space):
        """B5.4: buying removes the group; the wheel turns by itself, as prices are relative."""
        group = self.tiles[space], self.vikings[space]
        self.tiles[space] = None
        self.vikings[space] = None
        return group
