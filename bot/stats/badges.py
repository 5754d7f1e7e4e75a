"""Badges: each defined here once (its mark, its name, what earns it), awarded once a player, from the stored record.

What a game tells of a seat (:class:`Facts`) is read from its result and, for games that kept their moves, from
its moves played again from the deal: so a badge added later is awarded to past games by ``durak-badges``, and a
game always gives the same badges. What it takes beyond one game (a first win, ten games in a week, an evening,
a season) is the player's record before it (:class:`Record`), oldest game first.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bot.stats.standings import durak, won
from bot.ui.i18n import N_
from durak import apply
from durak.events import Ev
from durak.rules import Teams
from storage.computers import is_computer, level_of
from storage.models import Game, PlayedGame

WEEK = 7 * 86400.0
BIG_TAKE = 20        # cards picked up in one game by a player who still got out (comeback)
WALL = 6             # cards covered in one bout
EXPLORER = 5         # different games played


@dataclass(frozen=True, slots=True)
class Facts:
    """One seat's game, as its record tells it."""

    game: PlayedGame
    preset: str
    takes: int = 0              # times he picked the table up
    taken: int = 0              # cards he picked up in all
    wall: int = 0               # most cards he covered in one bout that was beaten off
    bounced: bool = False       # he transferred the cards back to whoever had transferred them to him
    caught: bool = False        # he caught a cheat
    pinned: bool = False        # his six, the last card out, pinned pogony on the durak
    team_won: bool = False
    beat_hard: bool = False     # a strong computer at his table was the durak, not he


@dataclass
class Record:
    """A player's games before this one (oldest first) and the games (presets) he played, his evening now, and his
    badges so far."""

    games: list[PlayedGame] = field(default_factory=list)
    presets: set[str] = field(default_factory=set)
    evening: tuple[int, int] | None = None   # the evening this game counts in: (its games, his times the durak)
    season_first: bool = False               # first place in a season that just closed
    tournament_first: bool = False           # first place in a tournament that just ended
    badges: set[str] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class Badge:
    key: str
    mark: str
    name: str      # N_: translated where shown
    about: str     # N_
    earned: Callable[[Facts | None, Record], bool]


def _won(f: Facts | None) -> bool:
    return f is not None and won(f.game)


def _got_out(f: Facts | None) -> bool:
    return f is not None and not f.game.loser and not f.game.draw


def _in_week(f: Facts | None, r: Record) -> bool:
    return f is not None and sum(g.finished_at > f.game.finished_at - WEEK for g in r.games) >= 9


BADGES: tuple[Badge, ...] = (
    Badge("first_game", "🎴", N_("First game"), N_("Finish a first game."), lambda f, r: f is not None),
    Badge("first_win", "🎉", N_("First win"), N_("Come first for the first time."), lambda f, r: _won(f)),
    Badge("clean_hands", "🧤", N_("Clean hands"), N_("Come first without picking up once."),
          lambda f, r: _won(f) and f is not None and f.takes == 0),
    Badge("comeback", "🧗", N_("From under the pile"),
          N_("Pick up 20 or more cards in a game and still not be the durak."),
          lambda f, r: _got_out(f) and f is not None and f.taken >= BIG_TAKE),
    Badge("wall", "🛡", N_("Stone wall"), N_("Beat off six cards in one bout."),
          lambda f, r: f is not None and f.wall >= WALL),
    Badge("ping_pong", "🏓", N_("Ping-pong"), N_("Transfer the cards back to whoever transferred them to you."),
          lambda f, r: f is not None and f.bounced),
    Badge("pogony", "🎖", N_("Pogony"), N_("Go out last with a six and pin pogony on the durak."),
          lambda f, r: f is not None and f.pinned),
    Badge("epaulettes", "🪖", N_("In pogony"), N_("Be the durak in pogony."),
          lambda f, r: f is not None and f.game.pogony and durak(f.game)),
    Badge("hat_trick", "🤡", N_("Durak hat-trick"), N_("Be the durak three games in a row."),
          lambda f, r: f is not None and durak(f.game) and len(r.games) >= 2 and all(
              durak(g) for g in r.games[-2:])),
    Badge("clean_evening", "🌙", N_("Clean evening"), N_("Never be the durak in an evening of five games or more."),
          lambda f, r: r.evening is not None and r.evening[0] >= 5 and r.evening[1] == 0),
    Badge("week", "📆", N_("A week at the table"), N_("Play ten games within seven days."), _in_week),
    Badge("hundred", "💯", N_("A hundred games"), N_("Play a hundred games."),
          lambda f, r: f is not None and len(r.games) + 1 >= 100),
    Badge("machine", "🤖", N_("Stronger than the machine"), N_("Leave a strong computer the durak."),
          lambda f, r: _got_out(f) and f is not None and f.beat_hard),
    Badge("full_table", "👥", N_("Full table"), N_("Play a game of six."),
          lambda f, r: f is not None and f.game.players >= 6),
    Badge("explorer", "🧭", N_("Explorer"), N_("Play five different games."),
          lambda f, r: f is not None and len(r.presets | {f.preset}) >= EXPLORER),
    Badge("team", "🤝", N_("Team player"), N_("Win a team game."), lambda f, r: f is not None and f.team_won),
    Badge("sharp_eye", "🕵", N_("Sharp eye"), N_("Catch a cheat."), lambda f, r: f is not None and f.caught),
    Badge("draw", "⚖️", N_("Nobody's durak"), N_("Finish a game in a draw."),
          lambda f, r: f is not None and f.game.draw),
    Badge("ten_wins", "🔟", N_("Ten wins"), N_("Come first ten times."),
          lambda f, r: _won(f) and sum(won(g) for g in r.games) + 1 >= 10),
    Badge("season_gold", "👑", N_("Season gold"), N_("Take first place in a season."),
          lambda f, r: r.season_first),
    Badge("tournament_gold", "🏆", N_("Tournament gold"), N_("Take first place in a tournament."),
          lambda f, r: r.tournament_first),
)
BY_KEY = {badge.key: badge for badge in BADGES}


def earned(f: Facts | None, record: Record) -> list[Badge]:
    """The badges this game (``f``; None: no game, a season's close) earns that the player has not got yet."""
    return [b for b in BADGES if b.key not in record.badges and b.earned(f, record)]


def facts(game: Game, played: Sequence[tuple[int, PlayedGame]]) -> dict[int, Facts]:
    """What the finished ``game`` tells of each person at it: from its results (``played``, its rows) and, where
    it kept its moves, from playing them again from the deal."""
    rows = {user: row for user, row in played if not is_computer(user)}
    seat_of = {s.seat: s.user.id for s in game.seats}
    preset = game.rules.preset or "custom"
    takes = dict.fromkeys(seat_of, 0)
    taken = dict.fromkeys(seat_of, 0)
    wall = dict.fromkeys(seat_of, 0)
    bounced: set[int] = set()
    caught: set[int] = set()
    last_out: int | None = None
    if game.deal is not None and game.moves:
        state, covered = game.deal, dict.fromkeys(seat_of, 0)
        transfers: dict[int, int] = {}  # seat -> who transferred the bout's cards to him
        for seat, action in game.moves:
            state, events = apply(state, seat, action)
            for e in events:
                if e.kind is Ev.PICKED_UP and e.seat is not None:
                    takes[e.seat] += 1
                    taken[e.seat] += len(e.cards)
                elif e.kind is Ev.COVER and e.seat is not None:
                    covered[e.seat] += 1
                elif e.kind is Ev.BEATEN and e.seat is not None:
                    wall[e.seat] = max(wall[e.seat], covered[e.seat])
                elif e.kind is Ev.TRANSFER and e.seat is not None and e.other is not None:
                    if transfers.get(e.seat) == e.other:  # he got them from the one he sends them back to
                        bounced.add(e.seat)
                    transfers[e.other] = e.seat
                elif e.kind is Ev.CAUGHT and e.other is not None:
                    caught.add(e.other)
                elif e.kind is Ev.OUT and e.seat is not None:
                    last_out = e.seat
                if e.kind in (Ev.BEATEN, Ev.PICKED_UP):  # a new bout
                    covered = dict.fromkeys(seat_of, 0)
                    transfers = {}
    hard_durak = any(level_of(u) == "hard" and r.loser and not r.draw for u, r in played)
    out: dict[int, Facts] = {}
    for seat, user in seat_of.items():
        row = rows.get(user)
        if row is None:
            continue
        team = game.rules.team_of(seat) if game.rules.teams is not Teams.NONE else None
        fact = Facts(row, preset, takes[seat], taken[seat], wall[seat], seat in bounced, seat in caught,
                     row.pogony and seat == last_out and not row.loser,
                     team is not None and not row.loser and not row.draw, hard_durak)
        out[user] = fact
    return out
