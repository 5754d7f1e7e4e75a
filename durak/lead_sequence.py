"""The leads of ``three``, ``pairs`` and ``groups`` as sequences counted at once and built when read.

A hand of those variants has dozens to hundreds of legal leads (a random playout's leader of
``groups`` holds ten cards on average: about 190 leads), and a simulation or a random policy takes
one of them: building every action only to drop all but one was most of the cost of such a move.
Here the length is counted from the hand, item ``i`` is built alone, and iterating yields the same
actions, in the same order, as listing them would; the leader's other actions (``tail``) follow.
This module stays interpreted in a compiled build (setup.py): a native class cannot be a ``Sequence``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain, combinations
from math import comb
from typing import overload

from durak.actions import Act, Action
from durak.cards import Card
from durak.leads import Block, attacks, block_size, joined, shaped_blocks, three_size
from durak.rules import Lead


class _Counted(Sequence[Action]):
    """``count`` leads, built by ``_lead`` and ``_leads``, then ``tail``."""

    __slots__ = ("_count", "_tail")

    def __init__(self, count: int, tail: list[Action]) -> None:
        self._count = count
        self._tail = tail

    def _lead(self, index: int) -> tuple[Card, ...]:
        raise NotImplementedError

    def _leads(self) -> Iterator[tuple[Card, ...]]:
        raise NotImplementedError

    def __len__(self) -> int:
        return self._count + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("lead index out of range")
        if index >= self._count:
            return self._tail[index - self._count]
        return Action(Act.ATTACK, self._lead(index))

    def __iter__(self) -> Iterator[Action]:
        yield from attacks(self._leads())
        yield from self._tail

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same actions (a list of them, say), as a list would be."""
        if isinstance(other, (_Counted, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # like a list

    def __repr__(self) -> str:
        return f"{type(self).__name__}({list(self)!r})"


class Leads(_Counted):
    """``pairs`` and ``groups``: the leads of ``blocks`` (``durak.leads.shaped_blocks``). A block's leads are
    one piece of each of its parts, the last part varying fastest, as in ``itertools.product``."""

    __slots__ = ("_blocks", "_ends")

    def __init__(self, blocks: list[Block], tail: list[Action]) -> None:
        self._blocks = blocks
        self._ends = list(accumulate(map(block_size, blocks)))  # where each block ends
        super().__init__(self._ends[-1] if self._ends else 0, tail)

    def _lead(self, index: int) -> tuple[Card, ...]:
        block = bisect_right(self._ends, index)
        offset = index - (self._ends[block - 1] if block else 0)
        pieces = []
        for part in reversed(self._blocks[block]):
            offset, piece = divmod(offset, len(part))
            pieces.append(part[piece])
        return tuple(chain.from_iterable(reversed(pieces)))

    def _leads(self) -> Iterator[tuple[Card, ...]]:
        return chain.from_iterable(map(joined, self._blocks))


class Combinations(_Counted):
    """``three``: every ``size`` of the (sorted) ``cards``, in the order of ``itertools.combinations``."""

    __slots__ = ("_cards", "_size")

    def __init__(self, cards: list[Card], size: int, tail: list[Action]) -> None:
        self._cards = cards
        self._size = size
        super().__init__(comb(len(cards), size), tail)

    def _lead(self, index: int) -> tuple[Card, ...]:
        """The ``index``-th combination: each next card is the first whose combinations reach the index."""
        cards, n, chosen, start = self._cards, len(self._cards), [], 0
        for left in range(self._size, 0, -1):
            for i in range(start, n):
                count = comb(n - i - 1, left - 1)  # the combinations that take cards[i] next
                if index < count:
                    chosen.append(cards[i])
                    start = i + 1
                    break
                index -= count
        return tuple(chosen)

    def _leads(self) -> Iterator[tuple[Card, ...]]:
        return combinations(self._cards, self._size)


def counted(lead: Lead, hand: list[Card], most: int, tail: list[Action]) -> _Counted | None:
    """The leads of ``hand`` within ``most`` cards, then ``tail``, if ``lead`` is one that counts them."""
    if lead is Lead.PAIRS or lead is Lead.GROUPS:
        return Leads(shaped_blocks(lead, hand, most), tail)
    if lead is Lead.THREE:
        return Combinations(sorted(hand), three_size(hand, most), tail)
    return None
