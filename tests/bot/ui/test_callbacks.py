from __future__ import annotations

import pytest

from bot.ui.callbacks import MAX_BYTES, Press, Verb, decode, encode, pack, unpack


def test_round_trip() -> None:
    data = encode(Verb.TARGET, 123456789012, 999999999, "10H.10S")
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == Press(Verb.TARGET, 123456789012, 999999999, "10H.10S")


def test_the_longest_cover_fits() -> None:
    assert decode(encode(Verb.TARGET, 10**11, 0, "10S.10H")) is not None


@pytest.mark.parametrize("data", [
    None, "", "v2:c:1:1:6S", "v1:Q:1:1:6S", "v1:c:x:1:6S", "v1:c:1:1:6S;drop", "v1:c:1:1", "v1:ff:1:1:",
    "v1:c:1:1:" + "A" * 41, "v1:c:" + "1" * 13 + ":1:6S", "v1:c:1:1:6S\n",
])
def test_anything_else_is_refused(data: str | None) -> None:
    assert decode(data) is None


def test_encode_refuses_what_would_not_fit() -> None:
    with pytest.raises(ValueError):
        encode(Verb.CARD, 1, 1, "A" * 41)


def test_packed_cards_round_trip_and_forty_fit() -> None:
    cards = tuple(range(8, 48))
    assert unpack(pack(cards)) == cards
    assert len(encode(Verb.LEAD, 123456789012, 0, pack(cards)).encode()) <= MAX_BYTES
    for bad in ("", "0", "z", "A!"):  # no card, below the lowest card, above the highest, not a card
        with pytest.raises(ValueError):
            unpack(bad)
