"""Who a Mini App page is, and which game it may open. Pure: no I/O.

A page proves its user with Telegram's signed ``initData`` (Mini Apps, "Validating data received via
the Mini App"): the fields but ``hash``, sorted and joined as ``key=value`` lines, signed with
HMAC-SHA256 under the key HMAC-SHA256("WebAppData", bot token). ``initDataUnsafe`` and anything
else the page says of itself is never trusted.

A game is named by an opaque token the bot signs itself (the table's direct link carries it as
``startapp``, the hand's button as ``?g=``): the game id and a MAC under a key derived from the bot
token, so a page cannot name a game it was not sent. A session token (user, game, expiry, MAC)
lets a page reconnect its socket without resending ``initData``.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import struct
from dataclasses import dataclass
from urllib.parse import parse_qsl

GAME_MAC = 10          # bytes of MAC in a game token: 80 bits, far beyond guessing
SESSION_SECONDS = 3600


@dataclass(frozen=True, slots=True)
class PageUser:
    """The user Telegram signed for, and the game its link named (``start_param``), if any."""

    id: int
    name: str
    language: str | None
    start_param: str | None
    photo: str | None = None  # his profile photo's address, as Telegram signed it (https only)


@dataclass(frozen=True, slots=True)
class Links:
    """Where a game's page opens: from a hand (a ``web_app`` button, private chats only) and from the group's
    table (a direct link to the Mini App: ``web_app`` buttons are refused in groups)."""

    url: str                 # WEBAPP_URL
    short_name: str | None   # WEBAPP_SHORT_NAME
    bot_token: str

    def hand(self, game_id: int) -> str:
        return f"{self.url}{'&' if '?' in self.url else '?'}g={game_token(game_id, self.bot_token)}"

    def table(self, game_id: int, bot_username: str) -> str | None:
        if not self.short_name or not bot_username:
            return None
        return f"https://t.me/{bot_username}/{self.short_name}?startapp={game_token(game_id, self.bot_token)}"

    def card(self, game_id: int) -> str:
        """A finished game's result card, served beside the page (``bot.webapp.server``: /app/card/)."""
        base = self.url.split("?", 1)[0]
        return f"{base if base.endswith('/') else base + '/'}card/{game_token(game_id, self.bot_token)}.png"


class Refused(Exception):
    """initData or a token that proves nothing; the message says why (for the page and the log)."""


def _key(bot_token: str, purpose: bytes) -> bytes:
    return hmac.new(purpose, bot_token.encode(), hashlib.sha256).digest()


def check_init_data(init_data: str, bot_token: str, max_age: float, now: float) -> PageUser:
    """The user ``init_data`` was signed for; Refused if it is unsigned, forged or older than ``max_age`` s."""
    if not init_data or len(init_data) > 4096:
        raise Refused("no initData")
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        raise Refused("initData is malformed") from None
    given = fields.pop("hash", "")
    checked = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    expected = hmac.new(_key(bot_token, b"WebAppData"), checked.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, given.lower()):
        raise Refused("initData signature is wrong")
    try:
        signed_at = int(fields["auth_date"])
        user = json.loads(fields["user"])
        user_id = int(user["id"])
    except (KeyError, ValueError, TypeError):
        raise Refused("initData carries no user or auth_date") from None
    if now - signed_at > max_age:
        raise Refused("initData is too old: open the table again")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip() or str(user_id)
    language = user.get("language_code")
    photo = user.get("photo_url")
    return PageUser(user_id, name[:64], language if isinstance(language, str) else None,
                    fields.get("start_param") or None,
                    photo if isinstance(photo, str) and photo.startswith("https://") and len(photo) <= 512 else None)


def game_token(game_id: int, bot_token: str) -> str:
    """The opaque name of a game for links to its table (URL-safe, 24 characters)."""
    body = struct.pack(">q", game_id)
    mac = hmac.new(_key(bot_token, b"durak-game"), body, hashlib.sha256).digest()[:GAME_MAC]
    return base64.urlsafe_b64encode(body + mac).decode().rstrip("=")


def game_of(token: str, bot_token: str) -> int | None:
    """The game a token names, or None for a token the bot did not sign."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    except (ValueError, TypeError):
        return None
    if len(raw) != 8 + GAME_MAC:
        return None
    game_id = struct.unpack(">q", raw[:8])[0]
    return game_id if hmac.compare_digest(game_token(game_id, bot_token), token) else None


def session_token(user: PageUser, game_id: int, bot_token: str, now: float) -> str:
    """A token that lets this user's page reconnect to this game for SESSION_SECONDS."""
    body = json.dumps([user.id, game_id, int(now) + SESSION_SECONDS, user.name, user.language],
                      separators=(",", ":")).encode()
    mac = hmac.new(_key(bot_token, b"durak-session"), body, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(mac + body).decode().rstrip("=")


def check_session(token: str, bot_token: str, now: float) -> tuple[PageUser, int]:
    """The user and game of a session token; Refused if it was forged or has expired."""
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        mac, body = raw[:16], raw[16:]
        expected = hmac.new(_key(bot_token, b"durak-session"), body, hashlib.sha256).digest()[:16]
        if not hmac.compare_digest(mac, expected):
            raise Refused("session token is forged")
        user_id, game_id, until, name, language = json.loads(body)
    except (ValueError, TypeError):
        raise Refused("session token is malformed") from None
    if now > until:
        raise Refused("session has expired: open the table again")
    return PageUser(int(user_id), str(name), language, None), int(game_id)
