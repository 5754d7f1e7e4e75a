"""Places, as every message shows them and the results store them."""

from __future__ import annotations

from storage.models import Away, Game


def places_of(game: Game) -> dict[int, int]:
    """The places of the seats that went out, numbered without the players who left (they rank last): what the
    players read and what is stored."""
    assert game.state is not None
    left = {seat.seat for seat in game.seats if seat.away is Away.LEFT}
    return {seat: n for n, seat in enumerate((p for p in game.state.out if p not in left), 1)}
