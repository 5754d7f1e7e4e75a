"""Texts and keyboards: the lobby, the table message, each player's hand, the result.

Everything a user reads is built here, through the translator ``tr`` of the reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.ui import fit, hand, variants
from bot.ui.callbacks import Verb, encode
from bot.ui.i18n import N_, Translator
from bot.ui.labels import card_text, cards_text, lettered, lettered_rows, rank_text, ranks_text, suit_text
from bot.ui.places import places_of
from bot.ui.seat_view import NOTHING, SeatView
from durak import Illegal, Reason, Rules, View, parse_card, view
from durak.ai import LEVELS
from durak.engine import awaited, trump_of
from durak.events import PASS_LEAD_ALONE, PASS_LET_TAKE, Ev
from durak.rules import CLASSIC_PRESETS, PogonyRule, Ranking, Teams, ThrowIn
from durak.scoring import ranks
from storage.models import Aim, Away, Game, Goal

WARN_SECONDS = 10  # the messages are refreshed this long before a turn times out, to show the seconds left
MAX_NAME = 24
SHOWN_MOVES = 5    # moves in the table's log
PRIVATE_MOVES = 3  # moves in a private message: enough to follow the game from there


def _button(text: str, verb: Verb, game: Game, seq: int, arg: str = "") -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=encode(verb, game.id, seq, arg))


def _label(button: InlineKeyboardButton) -> str:
    return button.text


def name_of(game: Game, seat: int) -> str:
    for s in game.seats:
        if s.seat == seat:
            name = s.user.name.strip() or "?"
            return name if len(name) <= MAX_NAME else name[: MAX_NAME - 1] + "…"
    return f"#{seat + 1}"


# ------------------------------------------------------------------ rules

def preset_name(tr: Translator, preset: str) -> str:
    return variants.variant_name(tr, preset)


# The lobby's three buttons share a row: a level's word alone fits a third of a phone (bot.ui.fit).
ADD_COMPUTER = {"easy": N_("🤖+ easy"), "normal": N_("🤖+ normal"), "hard": N_("🤖+ hard")}


def level_name(tr: Translator, level: str) -> str:
    return {"easy": tr.gettext("easy ★"), "normal": tr.gettext("normal ★★"), "hard": tr.gettext("hard ★★★")}[level]


def throw_in_name(tr: Translator, mode: ThrowIn) -> str:
    return {
        ThrowIn.ALL: tr.gettext("everyone"),
        ThrowIn.NEIGHBOURS: tr.gettext("neighbours"),
        ThrowIn.ATTACKER: tr.gettext("attacker only"),
        ThrowIn.OFF: tr.gettext("nobody"),
    }[mode]


def on_off(tr: Translator, value: bool) -> str:
    return tr.gettext("on") if value else tr.gettext("off")


def teams_name(tr: Translator, teams: Teams) -> str:
    return tr.gettext("no teams") if teams is Teams.NONE else tr.gettext("teams {teams}").format(teams=teams.value)


def timer_name(tr: Translator, seconds: int) -> str:
    return tr.gettext("off") if not seconds else tr.gettext("{n} s").format(n=seconds)


def rules_line(tr: Translator, rules: Rules, max_players: int | None = None, players: int | None = None) -> str:
    """The rules in one line; ``players``: how many play, once the game runs (two: only the attacker throws in,
    whatever the rule says, so the line does not say «throw-in: everyone»)."""
    parts = [variants.game_name(tr, rules),
             tr.ngettext("{n} card", "{n} cards", rules.deck_size).format(n=rules.deck_size)]
    if max_players is not None:
        parts.append(tr.ngettext("up to {n} player", "up to {n} players", max_players).format(n=max_players))
    if players != 2:
        parts.append(tr.gettext("throw-in: {who}").format(who=throw_in_name(tr, rules.throw_in)))
    if rules.transfer:
        parts.append(tr.gettext("transfer"))
    if rules.teams is not Teams.NONE:
        parts.append(teams_name(tr, rules.teams))
    if rules.cheating:
        parts.append(tr.gettext("cheating allowed"))
    if not rules.draw:
        parts.append(tr.gettext("no draws"))
    return " · ".join(parts)


def rules_text(tr: Translator, rules: Rules, open_table: bool = True) -> str:
    """The table's rules in plain words, for /rules; ``open_table`` False: no game is open, these are the rules a
    /newgame would open with."""
    head = (tr.gettext("Rules of this table: {line}") if open_table
            else tr.gettext("No table is open here; /newgame would open this one: {line}"))
    lines = [head.format(line=rules_line(tr, rules)), ""]
    different = variants.differences(tr, rules)
    if rules.preset not in CLASSIC_PRESETS:
        lines.append(tr.gettext("{name}: {line}.").format(name=preset_name(tr, rules.preset),
                                                          line=variants.variant_line(tr, rules.preset)))
    if different:
        lines.append(tr.gettext("What differs from podkidnoy:"))
        lines += [f"• {line}" for line in different]
        lines.append("")
    lines.append(tr.ngettext("Each player gets {n} card; the card under the stock names the trump.",
                             "Each player gets {n} cards; the card under the stock names the trump.",
                             rules.hand_size).format(n=rules.hand_size))
    lines.append(tr.gettext("The attacker leads cards of one rank; the defender covers each with a higher card "
                            "of its suit or with a trump, or takes them all."))
    if rules.lead_max is not None:
        lines.append(tr.ngettext("A lead holds at most {n} card.", "A lead holds at most {n} cards.",
                                 rules.lead_max).format(n=rules.lead_max))
    lines.append({
        ThrowIn.OFF: tr.gettext("Nobody throws in: the lead is the whole attack."),
        ThrowIn.ALL: tr.gettext("Anyone may throw in cards of a rank already on the table."),
        ThrowIn.NEIGHBOURS: tr.gettext("The defender's neighbours may throw in cards of a rank already on the "
                                       "table."),
        ThrowIn.ATTACKER: tr.gettext("Only the attacker may throw in cards of a rank already on the table."),
    }[rules.throw_in])
    lines.append(tr.ngettext("At most {first} card in the first bout, {later} later, and never more than the "
                             "defender holds.", "At most {first} cards in the first bout, {later} later, and never "
                             "more than the defender holds.", rules.first_bout_limit)
                 .format(first=rules.first_bout_limit, later=rules.bout_limit))
    if rules.after_take_unlimited:
        lines.append(tr.gettext("After a take any number of cards may be thrown in."))
    if rules.transfer:
        lines.append(tr.gettext("The defender may transfer the attack with a card of the same rank "
                                "while nothing is covered."))
        if rules.transfer_show_trump:
            lines.append(tr.gettext("Showing the trump of that rank transfers too; the card stays in hand."))
    if rules.teams is not Teams.NONE:
        lines.append(tr.gettext("Partners sit alternately and never attack each other; a team loses together."))
    if rules.cheating:
        lines.append(tr.gettext("Cheating is allowed: anyone may accuse a cheat before the bout ends; "
                                "a caught cheat takes the table."))
    lines.append(tr.gettext("The last player holding cards is the durak.") + " " +
                 (tr.gettext("If the last cover empties every hand, it is a draw.") if rules.draw
                  else tr.gettext("If the last cover empties every hand, the defender loses.")))
    return "\n".join(lines)


# ------------------------------------------------------------------ lobby

def goal_text(tr: Translator, goal: Goal) -> str:
    if goal.aim is Aim.GAMES:
        return tr.ngettext("{n} game", "{n} games", goal.n).format(n=goal.n)
    return tr.ngettext("until someone is the durak {n} time", "until someone is the durak {n} times",
                       goal.n).format(n=goal.n)



def lobby(tr: Translator, game: Game, list_players: bool = True) -> tuple[str, InlineKeyboardMarkup]:
    """The lobby message; ``list_players`` False: without the players' names (the Mini App draws their seats)."""
    lines = [tr.gettext("🃏 Durak: a new game"), rules_line(tr, game.rules, game.max_players),
             tr.gettext("Turn timer: {timer}").format(timer=timer_name(tr, game.turn_timeout))]
    if (goal := Goal.parse(game.goal)) is not None:
        lines.append(tr.gettext("🌙 The evening is played to: {goal}").format(goal=goal_text(tr, goal)))
    lines.append("")
    if list_players:
        lines.append(tr.gettext("Players ({n}/{max}):").format(n=len(game.seats), max=game.max_players))
        lines += [f"{s.seat + 1}. {name_of(game, s.seat)}" for s in game.seats]
    solo = game.chat_id > 0  # a table in the creator's private chat: he plays alone against computers
    lines += ["", tr.gettext("Add computers below (★ easy, ★★ normal, ★★★ hard), then press Start.") if solo else
              tr.gettext("Press Join to play. The creator starts the game."),
              *(() if solo else (tr.gettext("🤖 Computers: ★ easy, ★★ normal, ★★★ hard; the creator adds them below "
                                            "and removes them in Settings."),))]
    seq = game.version
    keyboard = [
        *(() if solo else ([_button(tr.gettext("Join"), Verb.JOIN, game, seq),
                            _button(tr.gettext("Leave"), Verb.LEAVE, game, seq)],)),
        [_button(tr.gettext(ADD_COMPUTER[level]), Verb.COMPUTER, game, seq, level) for level in LEVELS],
        [_button(tr.gettext("Settings"), Verb.SETTINGS, game, seq),
         _button(tr.gettext("Start"), Verb.START, game, seq)],
        [_button(tr.gettext("Cancel"), Verb.CANCEL, game, seq)],
    ]
    return "\n".join(lines), InlineKeyboardMarkup(keyboard)




def settings(tr: Translator, game: Game) -> tuple[str, InlineKeyboardMarkup]:
    r = game.rules
    values = {
        "preset": (tr.gettext("Game"), variants.game_name(tr, r)),  # the game these rules play, as the summary
        "deck": (tr.gettext("Deck"), str(r.deck_size)),
        "players": (tr.gettext("Players"), tr.gettext("up to {n}").format(n=game.max_players)),
        "throw_in": (tr.gettext("Throw-in"), throw_in_name(tr, r.throw_in)),
        "transfer": (tr.gettext("Transfer"), on_off(tr, r.transfer)),
        "draw": (tr.gettext("Draw"), on_off(tr, r.draw)),
        "cheating": (tr.gettext("Cheating"), on_off(tr, r.cheating)),
        "teams": (tr.gettext("Teams"), tr.gettext("off") if r.teams is Teams.NONE else r.teams.value),
        "redeal": (tr.gettext("Redeal"), tr.gettext("off") if r.redeal_same_suit is None
                   else tr.gettext("{n} of a suit").format(n=r.redeal_same_suit)),
        "pogony": (tr.gettext("Pogony"), {PogonyRule.SIXES: tr.gettext("sixes"), PogonyRule.TWO_SIXES:
                   tr.gettext("two sixes"), PogonyRule.OFF: tr.gettext("off")}[r.pogony_rule]),
    }
    values["timer"] = (tr.gettext("Turn timer"), timer_name(tr, game.turn_timeout))
    seq = game.version
    rows = [[_button(f"{label}: {value}", Verb.VARIANTS if option == "preset" else Verb.OPTION, game, seq,
                     str(variants.page_with(r.preset)) if option == "preset" else option)]
            for option, (label, value) in values.items()]
    kick = [_button(tr.gettext("➖ {name}").format(name=name_of(game, s.seat)), Verb.KICK, game, seq, str(s.user.id))
            for s in game.seats if s.user.id != game.creator_id]
    rows += fit.rows(kick, _label)
    rows.append([_button(tr.gettext("« Back"), Verb.BACK, game, seq)])
    text = "\n".join([tr.gettext("⚙️ Settings (the creator changes them; each press picks the next value)"),
                      rules_line(tr, r, game.max_players)])
    return text, InlineKeyboardMarkup(rows)


def variant_picker(tr: Translator, game: Game, page: int) -> tuple[str, InlineKeyboardMarkup]:
    """Settings → Game: a page of games, each with its line; a press on one sets it."""
    seq = game.version
    page = variants.clamped(page)
    shown = variants.page_of(page)
    lines = [tr.gettext("🎲 Choose the game ({page}/{pages}):").format(page=page + 1, pages=variants.pages()), ""]
    lines += [f"{'✅ ' if p == game.rules.preset else ''}{preset_name(tr, p)}: {variants.variant_line(tr, p)}"
              for p in shown]
    buttons = [_button(("✅ " if p == game.rules.preset else "") + preset_name(tr, p), Verb.VARIANT, game, seq, p)
               for p in shown]
    rows = fit.rows(buttons, _label, most=2)
    rows.append([_button("‹", Verb.VARIANTS, game, seq, str((page - 1) % variants.pages())),
                 _button("›", Verb.VARIANTS, game, seq, str((page + 1) % variants.pages()))])
    rows.append([_button(tr.gettext("« Back"), Verb.SETTINGS, game, seq)])
    return "\n".join(lines), InlineKeyboardMarkup(rows)


# ------------------------------------------------------------------ events

# A move in words, translated only when shown: every private message shows the last moves, so a move log
# translated whole for each event was a tenth of the bot's rendering under load.
_EVENT_TEXTS = {
    Ev.LEAD: N_("{who} leads {cards}"),
    Ev.THROW_IN: N_("{who} throws in {cards}"),
    Ev.TRANSFER: N_("{who} transfers {cards} to {other}"),
    Ev.SHOW: N_("{who} shows {cards}: transfer to {other}"),
    Ev.TAKE: N_("{who} takes"),
    Ev.BEATEN: N_("{who} beats off the attack"),
    Ev.PICKED_UP: N_("{who} picks up {cards}"),
    Ev.CAUGHT: N_("Cheat caught: {who} (by {other})"),
    Ev.WRONG_ACCUSE: N_("{who} accuses {other}, who plays fair"),
    Ev.OUT: N_("{who} has no cards left: place {n}"),
    Ev.POGON: N_("{who} hangs a pogon on {other}"),
    Ev.HANDS_ROTATED: N_("Every hand passes to the left"),
    Ev.RECYCLED: N_("{cards} go back into the stock"),
    Ev.TRUMP_SWAPPED: N_("The trump changes: {cards}"),
    Ev.STOCK_LEAD: N_("{who} leads {cards} from the stock"),
    Ev.DREW_CARD: N_("{who} draws a card to cover"),
    Ev.SWAPPED: N_("{who} swaps two cards with the stock"),
    Ev.THROW_SELF: N_("{who} adds {cards} to beat"),
    Ev.SECRET_TRUMP: N_("The secret card is turned: {cards}, the new trump"),
    Ev.FACE_SHOWN: N_("The last card of the stock is turned up: {cards}"),
}


def event_line(tr: Translator, game: Game, event: dict[str, Any]) -> str | None:
    """One move of the log in words, in the present tense (Russian has no gender there), with every
    name in the nominative; None for events not worth a line."""
    kind = Ev(event["k"])
    who = name_of(game, event["s"]) if event.get("s") is not None else ""
    if kind is Ev.COVER:
        target, card = event["c"]
        line: str | None = tr.gettext("{who} covers {target} with {card}").format(
            who=who, target=card_text(parse_card(target)), card=card_text(parse_card(card)))
    elif kind is Ev.OUT and event.get("s") is not None:  # places are counted without the players who left
        place = places_of(game).get(event["s"])
        line = (tr.gettext("{who} has no cards left: place {n}").format(who=who, n=place) if place is not None
                else tr.gettext("{who} has no cards left").format(who=who))
    elif kind is Ev.PASS:  # what he pressed: Done («бито»), Pass while the defender takes, or a lead left alone
        line = (tr.gettext("{who}: pass") if event.get("n") == PASS_LET_TAKE
                else tr.gettext("{who} leads it alone") if event.get("n") == PASS_LEAD_ALONE
                else tr.gettext("{who}: done")).format(who=who)
    elif kind is Ev.COUNTER:
        target, *laid = event["c"]
        line = tr.gettext("{who} beats {target} and strikes back at {other} with {cards}").format(
            who=who, target=card_text(parse_card(target)), other=name_of(game, event["o"]),
            cards=cards_text([parse_card(c) for c in laid]))
    else:
        text = _EVENT_TEXTS.get(kind)
        other = name_of(game, event["o"]) if event.get("o") is not None else ""
        cards = cards_text([parse_card(c) for c in event.get("c", [])])
        line = None if text is None else tr.gettext(text).format(who=who, other=other, cards=cards,
                                                                 n=event.get("n", ""))
    if line is not None and event.get("by") == "timeout":
        line = "⏰ " + line
    elif line is not None and event.get("by") == "computer":
        line = "🤖 " + line
    return line


# ------------------------------------------------------------------ the table

def _table_cards(tr: Translator, seen: View) -> str:
    if not seen.table:
        return tr.gettext("Table: empty")
    pairs = [f"{card_text(a)}→{card_text(c)}" if c is not None
             else f"{card_text(a)}→–" if i in seen.bypassed else f"{card_text(a)}→?"  # переводной-3: passed over
             for i, (a, c) in enumerate(seen.table)]
    return tr.gettext("Table: {pairs}").format(pairs="  ".join(pairs))


def _header(tr: Translator, seen: View, game: Game) -> list[str]:
    trump = tr.gettext("no trump") if seen.trump is None else suit_text(seen.trump)
    line = tr.gettext("Trump: {trump}").format(trump=trump)
    if seen.trumps is not None:  # двухкозырной: each player his own
        line = tr.gettext("Trumps: {trumps}").format(trumps=", ".join(
            f"{name_of(game, p)} {suit_text(t)}" for p, t in enumerate(seen.trumps)))
    if seen.trump_card is not None:
        shown = card_text(seen.trump_card)
        if seen.second_card is not None:
            shown += " " + card_text(seen.second_card)
        line += " " + tr.gettext("(under the stock: {card})").format(card=shown)
    if seen.secret:
        line += " " + tr.gettext("· a secret card lies face down under it")
    return [line, tr.gettext("Stock: {stock} · discard: {discard}").format(stock=seen.stock, discard=seen.discard)]


def _seat_lines(tr: Translator, game: Game, seen: View) -> list[str]:
    lines = []
    places = places_of(game) if seen.out else {}
    for seat, count in enumerate(seen.counts):
        name = name_of(game, seat)
        if seat in seen.out:
            lines.append(tr.gettext("🏁 {name}: place {place}").format(name=name, place=places[seat])
                         if seat in places else tr.gettext("🚪 {name}: left the game").format(name=name))
            continue
        mark = "⚔️" if seat == seen.attacker else "🛡" if seat == seen.defender else "▫️"
        text = tr.ngettext("{mark} {name}: {n} card", "{mark} {name}: {n} cards", count).format(
            mark=mark, name=name, n=count)
        if seat in seen.passed:
            text += " " + (tr.gettext("(pass)") if seen.taking else tr.gettext("(done)"))
        away = game.seats[seat].away if seat < len(game.seats) else Away.PLAYING
        if away is Away.LEFT:
            text += " " + tr.gettext("🚪 left the game, 🤖 plays")
        elif away is not Away.PLAYING:
            text += " " + tr.gettext("💤 away, 🤖 plays")
        lines.append(text)
    return lines


def recent_moves(tr: Translator, game: Game, shown: int = SHOWN_MOVES) -> list[str]:
    """The last ``shown`` moves worth a line, oldest first: read from the end of the log, and no further
    back than needed (a move's write renders the table and every hand, each with its moves)."""
    lines: list[str] = []
    for event in reversed(game.log[-4 * shown:]):
        line = event_line(tr, game, event)
        if line:
            lines.append(f"• {line}")
            if len(lines) == shown:
                break
    if not lines:
        return []
    return [tr.gettext("Last moves:"), *reversed(lines)]


def timer_note(tr: Translator, game: Game, now: float | None) -> str:
    """The turn timer, true for as long as it is shown: the budget per move, then (from the one
    refresh WARN_SECONDS before the end) the seconds left."""
    if game.deadline is None or now is None or not game.turn_timeout:
        return ""
    left = max(0, round(game.deadline - now))
    if left > WARN_SECONDS:
        return tr.gettext("⏰ {n} s per move").format(n=game.turn_timeout)
    return tr.ngettext("⏰ only {n} second left!", "⏰ only {n} seconds left!", left).format(n=left)


def waiting_line(tr: Translator, game: Game, now: float | None = None) -> str:
    assert game.state is not None
    seats = awaited(game.state)
    if not seats:
        return ""
    line = tr.gettext("⏳ Waiting for: {names}").format(names=", ".join(name_of(game, s) for s in seats))
    note = timer_note(tr, game, now)
    return f"{line} ({note})" if note else line


def table(tr: Translator, game: Game, now: float | None = None) -> str:
    """The group's table message: public information only."""
    assert game.state is not None
    seen = view(game.state, None)
    lines = [f"🃏 {rules_line(tr, game.rules, players=len(game.seats))}", *_header(tr, seen, game), "",
             *_seat_lines(tr, game, seen), "", _table_cards(tr, seen)]
    if seen.taking:
        lines.append(tr.gettext("{name} takes the cards.").format(name=name_of(game, seen.defender or 0)))
    moves = recent_moves(tr, game)
    if moves:
        lines += ["", *moves]
    if not seen.over:
        lines += ["", waiting_line(tr, game, now)]
    return lettered("\n".join(lines), tr)


# ------------------------------------------------------------------ a player's hand

Common = dict[Translator, tuple[View, list[str], list[str]]]


def _common(tr: Translator, game: Game, common: Common | None) -> tuple[View, list[str], list[str]]:
    """What every seat's private message shows alike in ``tr``'s language: the public view, the table's
    lines and the last moves; worked out once per language for all the private messages of a write."""
    if common is not None and tr in common:
        return common[tr]
    assert game.state is not None
    seen = view(game.state, None)
    shared = (seen, [*_header(tr, seen, game), "", *_seat_lines(tr, game, seen), "", _table_cards(tr, seen)],
              recent_moves(tr, game, PRIVATE_MOVES))
    if common is not None:
        common[tr] = shared
    return shared


def private(tr: Translator, game: Game, seat: int, now: float | None = None, view: SeatView = NOTHING,
            change: tuple[int, int] | None = None,
            common: Common | None = None) -> tuple[str, list[list[hand.Button]] | None]:
    """One player's private message: the table as he sees it, the last moves, and his hand as button
    rows (plain Bot API data). ``view``: what his hand shows beyond the game (a card chosen to cover with, cards
    picked, a cheat armed, a swap begun, the leave question). ``change``: his rating before and after, once the
    game is over.
    ``common``: what the private messages of one write share, kept there by language (``_common``)."""
    text, rows = _private(tr, game, seat, now, view, change, common)
    return lettered(text, tr), rows and lettered_rows(rows, tr)


def _private(tr: Translator, game: Game, seat: int, now: float | None, view: SeatView,
             change: tuple[int, int] | None, common: Common | None) -> tuple[str, list[list[hand.Button]] | None]:
    state = game.state
    assert state is not None
    seen, table_lines, moves = _common(tr, game, common)
    lines = [tr.gettext("🃏 Durak · you are {name}").format(name=name_of(game, seat))]
    if state.over:
        return "\n".join([*lines, *final_lines(tr, game, seat, change), "", *moves]), None
    lines += table_lines
    away = game.seats[seat].away if seat < len(game.seats) else Away.PLAYING
    opts = hand.options(state, seat, view.picked, view.armed, view.swapping)
    if seen.room is not None and (opts.role in (hand.Role.THROW, hand.Role.COVER)
                                  or (seen.room <= 0 and seat != state.defender)):  # why an attacker waits
        lines.append(tr.gettext("The table is full: no more cards fit.") if seen.room <= 0 else
                     tr.ngettext("{n} more card fits.", "{n} more cards fit.", seen.room).format(n=seen.room))
    if moves:
        lines += ["", *moves]
    if seat in state.out:
        if away is not Away.LEFT:
            lines += ["", tr.gettext("You have no cards left: place {place}. Well played!").format(
                place=places_of(game)[seat])]
    else:
        lines += ["", hand.prompt(tr, state, seat, opts, name_of(game, state.defender or 0), view.selected,
                                  lambda p: name_of(game, p))]
    if seat in awaited(state):
        note = timer_note(tr, game, now)
        if note:
            lines.append(note)
    if away is Away.LEFT:
        lines.append(tr.gettext("You left this game: the computer plays your cards."))
        return "\n".join(lines), None
    if away is not Away.PLAYING:
        lines.append(tr.gettext("You are away: the computer plays for you. Press I'm back to play again."))
    if view.leaving:
        lines += ["", tr.gettext("Leave the game? The computer plays your cards to the end, and it counts as a "
                                 "loss.")]
    rows = hand.keyboard(tr, game.id, state, seat, lambda p: name_of(game, p), opts=opts, view=view,
                         cheating=game.rules.cheating, away=away is not Away.PLAYING)
    return "\n".join(lines), rows or None


def position(tr: Translator, game: Game, seat: int) -> str:
    """A position as ``seat`` saw it, without buttons (a puzzle): the trump and the stock, the seats, the table,
    his cards."""
    state = game.state
    assert state is not None
    seen = view(state, None)
    order = hand.suits_in_order(trump_of(state, seat))
    mine = sorted(state.hands[seat], key=lambda c: (order.index(c & 3), c))
    lines = [*_header(tr, seen, game), "", *_seat_lines(tr, game, seen), "", _table_cards(tr, seen),
             tr.gettext("Your cards: {cards}").format(cards=cards_text(mine))]
    return lettered("\n".join(lines), tr)


def _left(game: Game) -> set[int]:
    """The seats whose players left: the computer played them out, but the game counts as lost for them."""
    return {seat.seat for seat in game.seats if seat.away is Away.LEFT}


_ORDINALS = (N_("{n}th"), N_("{n}st"), N_("{n}nd"), N_("{n}rd"))  # English's; each language writes its own form


def ordinal(tr: Translator, n: int) -> str:
    """A place as an ordinal: 1st, 2nd, 3rd, 4th, 11th in English; every other language of ours writes all its
    ordinals one way in our sentences (as a plain number) and translates the four alike."""
    last = n % 10 if n % 100 not in (11, 12, 13) else 0
    return tr.gettext(_ORDINALS[last if last <= 3 else 0]).format(n=n)


def final_lines(tr: Translator, game: Game, seat: int, change: tuple[int, int] | None) -> list[str]:
    """How the game ended for this seat: his place, the durak, his rating change."""
    state = game.state
    assert state is not None
    lines = [tr.gettext("🏁 Game over!")]
    if seat in _left(game):  # whatever the computer made of his seat after he left, a draw of the others included
        lines.append(tr.gettext("You left the game: it counts as a loss."))
    elif state.draw:
        lines.append(tr.gettext("🤝 A draw: nobody is the durak."))
    elif seat in state.losers:
        lines.append(tr.gettext("🃏 You are the durak this time.") if len(state.losers) == 1
                     else tr.gettext("🃏 Your team lost."))
    elif seat in state.out:
        lines.append(tr.gettext("You finished {place} of {n}.").format(place=ordinal(tr, places_of(game)[seat]),
                                                                      n=len(game.seats) - len(_left(game))))
    if not state.draw and seat not in state.losers:
        names = ", ".join(name_of(game, p) for p in state.losers)
        lines.append(tr.gettext("🃏 Durak: {names}").format(names=names))
    if change is not None:
        before, after = change
        lines.append(tr.gettext("Rating: {after} ({delta:+d})").format(after=after, delta=after - before))
    return lines


# ------------------------------------------------------------------ the end

def result(tr: Translator, game: Game, evening: Sequence[str] = ()) -> tuple[str, InlineKeyboardMarkup]:
    """The group's result message; ``evening``: the running score of the evening it counts in."""
    assert game.state is not None
    s = game.state
    lines = [tr.gettext("🏁 Game over!")]
    places, left = places_of(game), _left(game)
    for seat in s.out:
        name = name_of(game, seat)
        lines.append(tr.gettext("🚪 {name}: left the game").format(name=name) if seat in left
                     else tr.gettext("{place}. {name}").format(place=places[seat], name=name))
    if s.draw:
        lines.append(tr.gettext("🤝 A draw: nobody is the durak."))
    elif len(s.losers) == 1:
        lines.append(tr.gettext("🃏 Durak: {name}").format(name=name_of(game, s.losers[0])))
    else:
        lines.append(tr.gettext("🃏 The losing team: {names}").format(
            names=", ".join(name_of(game, p) for p in s.losers)))
    if s.pogony:
        lines.append(tr.gettext("🎖 In pogony: the last card out was a six!"))
    lines += _scores(tr, game)
    lines += evening
    markup = InlineKeyboardMarkup([] if game.tournament is not None else  # the tournament seats its next table
                                  [[_button(tr.gettext("🔁 Play again"), Verb.REPLAY, game, game.version)]])
    return lettered("\n".join(lines), tr), markup


def _scores(tr: Translator, game: Game) -> list[str]:
    """A score ranking's table (docs/variants.md §2.8): the places it gives, each with its score."""
    s = game.state
    assert s is not None
    if not s.scores and not s.pogons:
        return []
    rank_of = ranks(s)
    title = {Ranking.BEATEN: tr.gettext("Ranking by the cards beaten:"),
             Ranking.FIGURES: tr.gettext("Ranking by the 10s to aces beaten:"),
             Ranking.POGONY: tr.gettext("Ranking by pogony:")}[s.rules.ranking]
    lines = ["", title]
    for seat in sorted(range(s.players), key=lambda p: (rank_of[p], p)):
        score = (", ".join(rank_text(r * 4) for r in sorted(s.pogons[seat], reverse=True)) or "–") if s.pogons \
            else str(s.scores[seat])
        lines.append(f"{rank_of[seat]}. {name_of(game, seat)}: {score}")
    return lines


def stop_vote(tr: Translator, game: Game, votes: int, needed: int, starter: str) -> tuple[str, InlineKeyboardMarkup]:
    text = tr.gettext("Stop the game? {name} asks; the seated players vote: {votes} of {needed} needed, within a "
                      "minute.").format(name=starter, votes=votes, needed=needed)
    return text, InlineKeyboardMarkup([[_button(tr.gettext("✋ Stop the game"), Verb.VOTE, game, 0)]])


# ------------------------------------------------------------------ refusals

def reason(tr: Translator, refused: Illegal) -> str:
    """A short toast saying why an action was refused."""
    p = refused.params
    card = card_text(p["card"]) if isinstance(p.get("card"), int) else ""
    target = card_text(p["target"]) if isinstance(p.get("target"), int) else ""
    ranks = ranks_text(tr, p["card"], "none") if isinstance(p.get("card"), int) else ""

    def number(key: str) -> int:  # a count the refusal carries, for the plural form of its noun
        value = p.get(key)
        return value if isinstance(value, int) else 0

    texts = {
        Reason.GAME_OVER: tr.gettext("The game is over."),
        Reason.NO_SUCH_SEAT: tr.gettext("No such player."),
        Reason.OUT: tr.gettext("You are out of this game."),
        Reason.NOT_YOUR_TURN: tr.gettext("Not your turn."),
        Reason.NO_CARDS: tr.gettext("Choose a card."),
        Reason.DUPLICATE_CARD: tr.gettext("A card was chosen twice."),
        Reason.NOT_IN_HAND: tr.gettext("{card} is not in your hand.").format(card=card),
        Reason.ONLY_ATTACKER_LEADS: tr.gettext("Only the attacker leads."),
        Reason.MIXED_RANKS: tr.gettext("Lead cards of one rank."),
        Reason.LEAD_MAX: tr.ngettext("Lead at most {n} card.", "Lead at most {n} cards.", number("limit"))
        .format(n=p.get("limit")),
        Reason.LIMIT: tr.gettext("The table is full: no more cards fit.") if number("room") <= 0 else
        tr.ngettext("Only {n} more card fits.", "Only {n} more cards fit.", number("room"))
        .format(n=p.get("room")),
        Reason.NO_THROW_IN: tr.gettext("You may not throw in now."),
        Reason.RANK_NOT_ON_TABLE: tr.gettext("No {ranks} on the table.").format(ranks=ranks),
        Reason.NOT_ON_TABLE: tr.gettext("That card is not on the table."),
        Reason.ALREADY_COVERED: tr.gettext("{card} is already covered.").format(card=card),
        Reason.CANNOT_COVER: tr.gettext("{card} can't cover {target}.").format(card=card, target=target),
        Reason.TAKING: tr.gettext("You are taking the cards."),
        Reason.NOTHING_TO_TAKE: tr.gettext("Everything is covered."),
        Reason.PASS_NOT_NOW: tr.gettext("Wait until every card is covered."),
        Reason.ALREADY_PASSED: tr.gettext("You have already passed."),
        Reason.TRANSFER_OFF: tr.gettext("No transfers at this table."),
        Reason.TRANSFER_FIRST_BOUT: tr.gettext("No transfer in the first bout."),
        Reason.TRANSFER_AFTER_COVER: tr.gettext("No transfer after a cover."),
        Reason.TRANSFER_NOTHING_TO_BEAT: tr.gettext("Nothing to transfer: every card is covered."),
        Reason.TRANSFER_RANK: tr.gettext("Transfer with a card of the attack rank."),
        Reason.TRANSFER_LAST_CARD: tr.gettext("You can't go out by transferring."),
        Reason.SHOW_OFF: tr.gettext("Showing the trump is off at this table."),
        Reason.SHOW_USED: tr.gettext("You already showed a trump this bout."),
        Reason.SHOW_NOT_TRUMP: tr.gettext("Show the trump of the attack rank."),
        Reason.CHEATING_OFF: tr.gettext("Cheating is off at this table."),
        Reason.ACCUSE_SELF: tr.gettext("You can't accuse yourself."),
        Reason.ACCUSE_USED: tr.gettext("You already accused someone this bout."),
        Reason.NOTHING_TO_ACCUSE: tr.gettext("Nobody to accuse yet."),
        Reason.LEAD_SHAPE: tr.ngettext("Lead exactly {n} card.", "Lead exactly {n} cards.", number("size"))
        .format(n=p.get("size")) if "size" in p
        else tr.gettext("Lead a shape this game allows: see /rules."),
        Reason.LEAD_NOT_HIGHEST: tr.gettext("Lead your highest rank."),
        Reason.LEAD_NOT_WHOLE_RANK: tr.ngettext("Lead all {n} card of that rank.", "Lead all {n} cards of that rank.",
                                                  number("count")).format(n=p.get("count")),
        Reason.TRANSFER_TRUMP_ON_TABLE: tr.gettext("No transfer while a trump lies on the table."),
        Reason.STOCK_LEAD_OFF: tr.gettext("Leading from the stock is off at this table."),
        Reason.STOCK_EMPTY: tr.gettext("The stock is empty."),
        Reason.LEAD_OPEN: tr.gettext("Wait: the lead from the stock is not complete yet."),
        Reason.NOT_TO_BEAT: tr.gettext("{card} was passed over: beat only the new cards.").format(card=card),
        Reason.TRANSFER_AFTER_DRAW: tr.gettext("No transfer after drawing a card."),
        Reason.DRAW_OFF: tr.gettext("Drawing to cover is off at this table."),
        Reason.DRAW_USED: tr.gettext("You already drew a card this bout."),
        Reason.SWAP_OFF: tr.gettext("Swapping is off at this table."),
        Reason.SWAP_USED: tr.gettext("You already swapped this bout."),
        Reason.SWAP_AFTER_COVER: tr.gettext("No swap after your first cover."),
        Reason.SWAP_HAND: tr.ngettext("Swap only with {n} card or fewer.", "Swap only with {n} cards or fewer.",
                                        number("size")).format(n=p.get("size")),
        Reason.SWAP_STOCK: tr.gettext("The stock is too small to swap."),
        Reason.COUNTER_OFF: tr.gettext("Striking back is off at this table."),
        Reason.COUNTER_NOT_NOW: tr.gettext("Strike back only against a lone card."),
        Reason.COUNTER_RANK: tr.gettext("Strike back with cards of the covering card's rank."),
        Reason.SELF_THROW_OFF: tr.gettext("Throwing in on yourself is off at this table."),
        Reason.SELF_THROW_NOT_NOW: tr.gettext("Throw in on yourself only once everything is covered."),
        Reason.SELF_THROW_LAST_CARD: tr.gettext("Keep at least one card."),
    }
    return lettered(texts[refused.reason], tr)
