from __future__ import annotations

import pytest

from bot.callbacks import MAX_BYTES, Press, Verb, decode, encode


def test_round_trip() -> None:
    data = encode(Verb.TARGET, 123456789012, 999999999, "10H.10S")
    assert len(data.encode()) <= MAX_BYTES
    assert decode(data) == Press(Verb.TARGET, 123456789012, 999999999, "10H.10S")


def test_the_longest_lead_fits() -> None:
    lead = ".".join(["10S", "10C", "10D", "10H"])
    assert decode(encode(Verb.LEAD, 10**11, 10**8, lead)) is not None


@pytest.mark.parametrize("data", [
    None, "", "v2:c:1:1:6S", "v1:Z:1:1:6S", "v1:c:x:1:6S", "v1:c:1:1:6S;drop", "v1:c:1:1", "v1:f:1:1:",
    "v1:c:1:1:" + "A" * 41, "v1:c:" + "1" * 13 + ":1:6S", "v1:c:1:1:6S\n",
])
def test_anything_else_is_refused(data: str | None) -> None:
    assert decode(data) is None


def test_encode_refuses_what_would_not_fit() -> None:
    with pytest.raises(ValueError):
        encode(Verb.CARD, 1, 1, "A" * 41)
