"""A message's slot as it is stored and read back (storage/slots.py): every slot the bot writes comes back as
itself, and a text this version does not know is kept as it is, never taken for a hand or a table."""

from __future__ import annotations

from storage.slots import (
    RESULT,
    TABLE,
    Slot,
    hand_seat,
    hand_slot,
    is_ping,
    note_slot,
    ping_slot,
    review_slot,
    vote_slot,
)


def test_every_slot_reads_back_as_written() -> None:
    written = [TABLE, RESULT, hand_slot(0), hand_slot(5), ping_slot(3), review_slot(2), vote_slot(1),
               note_slot("kicked", 101), note_slot("refused", 7)]
    assert [str(s) for s in written] == ["table", "result", "hand:0", "hand:5", "ping:3", "review:2", "vote:1",
                                         "note:kicked:101", "note:refused:7"], "as older versions stored them"
    assert [Slot.parse(str(s)) for s in written] == written
    assert [hand_seat(s) for s in written] == [None, None, 0, 5, None, None, None, None, None]
    assert [s.seat for s in written][4:6] == [3, 2] and [is_ping(s) for s in written].count(True) == 1


def test_a_slot_this_version_does_not_know_is_kept_as_it_is_and_is_no_hand() -> None:
    for text in ("poll:3", "hand:", "hand:x", "", "ping:-", "table2"):
        slot = Slot.parse(text)
        assert str(slot) == text, "written back as it was read"
        assert slot.seat is None and hand_seat(slot) is None and not is_ping(slot) and slot not in (TABLE, RESULT)
