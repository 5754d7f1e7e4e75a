"""Settings from the environment and ``.env`` (pydantic-settings). See ``.env.example``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TOKEN_PATTERN = re.compile(r"\d{3,20}:[A-Za-z0-9_-]{30,64}")
HOW_TO_GET_A_TOKEN = (
    "Create a bot with @BotFather in Telegram (send /newbot), copy the token it gives you "
    "(it looks like 123456789:AAE...), and put it in .env as BOT_TOKEN=<token> "
    "(or set the BOT_TOKEN environment variable)."
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    bot_token: SecretStr
    database_path: Path = Path("durak.sqlite3")
    database_url: str | None = None              # postgresql://…: PostgreSQL instead of the SQLite file
    telegram_api_url: str = "https://api.telegram.org"
    default_language: Literal["ru", "en", "uk", "de"] = "ru"
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    webhook_url: str | None = None          # set to use a webhook instead of long polling
    webhook_listen: str = "0.0.0.0"
    webhook_port: int = 8443
    webhook_secret: SecretStr | None = None
    group_edits_per_minute: int = Field(20, ge=1)
    sends_per_second: int = Field(30, ge=1)      # the bot's overall budget (Telegram allows about 30)
    private_sends_per_second: float = Field(1, gt=0)  # one private chat's, after a short burst (about 1)
    lobby_timeout: float = Field(15 * 60, gt=0)  # seconds an idle lobby stays open
    ping_delay: float = Field(5, ge=0)           # seconds a player may take to act before his turn is pinged
    computer_pause: float = Field(1, ge=0)       # seconds before a computer seat answers a move
    computer_budget_ms: float = Field(300, ge=0, le=5000)  # the hard computer's thinking time per move
    review_deals: int = Field(2048, ge=0)        # the most deals a review weighs one move on; 0: no reviews
    think_on_idle_cpu: bool = True               # thinking and reviews only on CPU the bot leaves idle
    poll_timeout: float = Field(30, ge=0)        # long polling: seconds a getUpdates call may wait
    startup_retries: int = Field(5, ge=0)        # network errors at start: retries, with a doubling wait
    health_file: Path | None = None              # rewritten while the bot runs, for durak-health
    metrics_file: Path | None = None             # handler times and SQL counts, written at stop (load tests)
    # the Mini App (docs/mini-app.md): its web server starts only with a port
    webapp_port: int | None = Field(None, ge=1, le=65535)
    webapp_host: str = "127.0.0.1"
    webapp_url: str | None = None                # the page's public HTTPS address: no Mini App button without it
    webapp_short_name: str | None = None         # BotFather's short name of the app, for the group's direct link
    # several processes sharing the games: this one's path under /app/ws/, where the proxy sends to it alone; a
    # page of a game another process leads is sent to that one's (docs/operating.md, "Several processes")
    webapp_route: str = Field("", pattern=r"^[A-Za-z0-9_-]{0,40}$")
    webapp_max_age: float = Field(24 * 3600, gt=0)  # seconds a page's signed initData stays valid
    webapp_max_frame: int = Field(4096, ge=256)  # bytes a page's frame may hold
    webapp_frames_per_second: float = Field(5, gt=0)  # a page's frames, after a burst of 20
    webapp_ack_seconds: float = Field(3, gt=0)  # a page silent this long after a frame is away: its hand catches up

    @field_validator("database_url")
    @classmethod
    def _postgres(cls, value: str | None) -> str | None:
        if value and not value.startswith(("postgresql://", "postgres://")):  # empty: not set
            raise ValueError("DATABASE_URL must be a postgresql:// URL (leave it out to use the SQLite file "
                             "DATABASE_PATH)")
        return value or None

    @property
    def database(self) -> str | Path:
        """The database the bot keeps its games in: DATABASE_URL's server, or else the file DATABASE_PATH."""
        return self.database_url or self.database_path

    @field_validator("webapp_url")
    @classmethod
    def _page_address(cls, value: str | None) -> str | None:
        """Telegram opens Mini Apps over HTTPS only; a plain http address works only for local tests."""
        if value is not None and not value.startswith(("https://", "http://127.0.0.1", "http://localhost")):
            raise ValueError("WEBAPP_URL must be the page's public https:// address (its path ends in /app/)")
        return value

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("missing")
        if not TOKEN_PATTERN.fullmatch(value.get_secret_value().strip()):
            raise ValueError("BOT_TOKEN does not look like a bot token")
        if "replace-with-your-own" in value.get_secret_value():
            raise ValueError("placeholder")
        return SecretStr(value.get_secret_value().strip())

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        """Telegram sends the secret back in a header and takes only these characters: a secret it would refuse
        (a comment copied along, a space) must stop the start, not every update."""
        if value is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", value.get_secret_value()):
            raise ValueError("WEBHOOK_SECRET may hold only the characters A-Z a-z 0-9 _ - (1 to 256 of them)")
        return value

    @model_validator(mode="after")
    def _webhook_needs_a_secret(self) -> Settings:
        if self.webhook_url and not (self.webhook_secret and self.webhook_secret.get_secret_value().strip()):
            raise ValueError("WEBHOOK_SECRET is required with WEBHOOK_URL: without it anyone could post forged "
                             "updates to the webhook. Set it to a random string of 1-256 characters A-Z a-z 0-9 _ -")
        return self

    @field_validator("telegram_api_url")
    @classmethod
    def _api_root(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("TELEGRAM_API_URL must start with http:// or https://")
        return value.rstrip("/")


class SettingsError(Exception):
    """Settings that cannot start the bot; the message says how to fix them."""


def load_settings(**overrides: object) -> Settings:
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as e:
        problems = []
        for err in e.errors():
            field = ".".join(str(p) for p in err["loc"]).upper()
            if field == "BOT_TOKEN":
                missing = err["type"] == "missing" or "missing" in str(err.get("msg", ""))
                what = ("is missing" if missing else "is still the example's placeholder"
                        if "placeholder" in str(err.get("msg", "")) else "is malformed")
                problems.append(f"BOT_TOKEN {what}. {HOW_TO_GET_A_TOKEN}")
            elif field:
                problems.append(f"{field}: {err['msg']}")
            else:
                problems.append(str(err["msg"]).removeprefix("Value error, "))
        raise SettingsError("\n".join(problems)) from None
