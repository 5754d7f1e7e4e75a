"""Who a Mini App page is: Telegram's signature of initData, and the tokens the bot signs itself."""

from __future__ import annotations

import pytest

from bot.webapp.auth import (
    Links,
    PageUser,
    Refused,
    check_init_data,
    check_session,
    game_of,
    game_token,
    session_token,
)

# initData that Telegram itself signed for a real bot (published with its token in saleor/saleor's tests,
# tests/telegram/test_telegram_validate.mjs): it carries the newer "signature" field, which the hash covers too
REAL_TOKEN = "8014119913:AAFyzp17QSynAxUmo51_oZrpypiKWckiFBA"
REAL = ("user=%7B%22id%22%3A7498813057%2C%22first_name%22%3A%22Justin%22%2C%22last_name%22%3A%22Lung%22%2C"
        "%22username%22%3A%22justin_lung%22%2C%22language_code%22%3A%22zh-hans%22%2C%22allows_write_to_pm%22%3Atrue"
        "%2C%22photo_url%22%3A%22https%3A%5C%2F%5C%2Ft.me%5C%2Fi%5C%2Fuserpic%5C%2F320%5C%2FrGKW6Lt09BFrz7VflVuUhEs6QKC"
        "zwcYRig4tOJajh48XbQ6wjxfYBorP5x7116lJ.svg%22%7D&chat_instance=6755980278051609308&chat_type=sender"
        "&auth_date=1738051266&signature=7lnXe6LFLx7RSFUNuoJzWocQmIppy3vHs44gIKO-k8Atz78aORr2h7p3EyswVzywkGkdAxrAYXzg"
        "UL7_Cjf6AQ&hash=53414351f3b4ed4bba75ca16f1704c2b186b319e15124c4702e989d1841a262c")
SIGNED_AT = 1738051266
TOKEN = "123456789:" + "A" * 35


def test_initdata_telegram_signed_is_accepted() -> None:
    user = check_init_data(REAL, REAL_TOKEN, max_age=86400, now=SIGNED_AT + 60)
    assert user == PageUser(7498813057, "Justin Lung", "zh-hans", None, "https://t.me/i/userpic/320/"
                            "rGKW6Lt09BFrz7VflVuUhEs6QKCzwcYRig4tOJajh48XbQ6wjxfYBorP5x7116lJ.svg"), \
        "his photo's address as Telegram signed it"


@pytest.mark.parametrize(("init_data", "token", "now", "why"), [
    (REAL, REAL_TOKEN, SIGNED_AT + 86401, "too old"),
    (REAL, TOKEN, SIGNED_AT, "signature"),                                        # another bot's pages
    (REAL.replace("7498813057", "7498813058"), REAL_TOKEN, SIGNED_AT, "signature"),  # someone else's id
    (REAL.replace("&signature=", "&signaturf="), REAL_TOKEN, SIGNED_AT, "signature"),
    (REAL.split("&hash=")[0], REAL_TOKEN, SIGNED_AT, "signature"),                # unsigned
    (REAL + "&start_param=abc", REAL_TOKEN, SIGNED_AT, "signature"),              # a field added
    ("", REAL_TOKEN, SIGNED_AT, "no initData"),
    ("x" * 5000, REAL_TOKEN, SIGNED_AT, "no initData"),
    ("a=1&&=", REAL_TOKEN, SIGNED_AT, "malformed"),
])
def test_initdata_that_proves_nothing_is_refused(init_data: str, token: str, now: float, why: str) -> None:
    with pytest.raises(Refused, match=why):
        check_init_data(init_data, token, max_age=86400, now=now)


def test_a_game_token_names_its_game_only_for_the_bot_that_signed_it() -> None:
    token = game_token(42, TOKEN)
    assert game_of(token, TOKEN) == 42
    assert "42" not in token and len(token) == 24
    assert game_of(token, REAL_TOKEN) is None
    assert game_of("42", TOKEN) is None
    assert game_of(token[:-1] + ("A" if token[-1] != "A" else "B"), TOKEN) is None
    assert game_of("not base64 !", TOKEN) is None
    assert game_token(43, TOKEN) != token


def test_a_session_lets_a_page_back_in_for_an_hour() -> None:
    user = PageUser(7, "Anna", "ru", None)
    token = session_token(user, 42, TOKEN, now=1000)
    assert check_session(token, TOKEN, now=1000 + 3599) == (user, 42)
    with pytest.raises(Refused, match="expired"):
        check_session(token, TOKEN, now=1000 + 3601)
    with pytest.raises(Refused, match="forged"):
        check_session(token, REAL_TOKEN, now=1000)
    with pytest.raises(Refused):
        check_session("garbage", TOKEN, now=1000)


def test_links_carry_the_token() -> None:
    links = Links("https://durak.example.org/app/", "table", TOKEN)
    assert links.hand(42) == f"https://durak.example.org/app/?g={game_token(42, TOKEN)}"
    assert links.table(42, "durak_bot") == f"https://t.me/durak_bot/table?startapp={game_token(42, TOKEN)}"
    assert Links("https://x/app/", None, TOKEN).table(42, "durak_bot") is None, "no short name, no group link"
