"""The leads of ``pairs`` and ``groups`` as a sequence that is counted at once and built when read.

A hand of those variants has hundreds of legal leads (a random playout's leader holds ten cards
on average: about 190), and a simulation or a random policy takes one of them: building every
action only to drop all but one was most of the cost of such a move. ``Leads`` holds the hand's
lead blocks (``durak.leads.shaped_blocks``): its length is the sum of their products, item ``i``
is found by the block and by one piece of each of its parts, and iterating it yields the same
actions, in the same order, as listing them would. This module stays interpreted in a compiled
build (setup.py): a native class cannot be a ``Sequence``.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from itertools import accumulate, chain
from math import prod
from typing import overload

from durak.actions import Act, Action
from durak.leads import Block, attacks, joined


class Leads(Sequence[Action]):
    """The leads of ``blocks`` as attacks, followed by ``tail`` (the leader's other actions)."""

    __slots__ = ("_blocks", "_ends", "_tail")

    def __init__(self, blocks: list[Block], tail: list[Action]) -> None:
        self._blocks = blocks
        self._ends = list(accumulate(prod(map(len, parts)) for parts in blocks))  # where each block ends
        self._tail = tail

    def __len__(self) -> int:
        return (self._ends[-1] if self._ends else 0) + len(self._tail)

    @overload
    def __getitem__(self, index: int) -> Action: ...

    @overload
    def __getitem__(self, index: slice) -> list[Action]: ...

    def __getitem__(self, index: int | slice) -> Action | list[Action]:
        if isinstance(index, slice):
            return list(self)[index]
        leads = self._ends[-1] if self._ends else 0
        if index < 0:
            index += len(self)
        if index >= leads:
            if index - leads >= len(self._tail):
                raise IndexError("Leads index out of range")
            return self._tail[index - leads]
        if index < 0:
            raise IndexError("Leads index out of range")
        block = bisect_right(self._ends, index)
        offset = index - (self._ends[block - 1] if block else 0)
        pieces = []
        for part in reversed(self._blocks[block]):  # the last part varies fastest, as in product()
            offset, piece = divmod(offset, len(part))
            pieces.append(part[piece])
        return Action(Act.ATTACK, tuple(chain.from_iterable(reversed(pieces))))

    def __iter__(self) -> Iterator[Action]:
        for block in self._blocks:
            yield from attacks(joined(block))
        yield from self._tail

    def __repr__(self) -> str:
        return f"Leads({list(self)!r})"

    def __eq__(self, other: object) -> bool:
        """Equal to a sequence of the same actions (a list of them, say), as a list would be."""
        if isinstance(other, (Leads, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking like a list: not hashable
