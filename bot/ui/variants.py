"""The games a table can play (docs/rules.md §9 and docs/variants.md §5): their names, one line each, what a
table's variant changes in plain words, and the lobby's paged picker. Every text goes through the
translator; the Russian names are the seeds' own (``японский``, ``переводной``)."""

from __future__ import annotations

from functools import lru_cache

from bot.ui.i18n import N_, Translator
from bot.ui.labels import suit_text
from durak.cards import parse_suit
from durak.rules import PRESETS, Deal, Lead, PogonyRule, Ranking, Refill, Royal, Rules, StockMode, TrumpSuit

# preset id → (name, one line), in the order the picker shows them
CATALOGUE: dict[str, tuple[str, str]] = {
    "podkidnoy": (N_("Podkidnoy"), N_("Throw in cards of ranks on the table")),
    "perevodnoy": (N_("Perevodnoy"), N_("Pass the attack on with a card of its rank")),
    "simple": (N_("Simple"), N_("No throw-ins, at most two cards a lead")),
    "do_zavala": (N_("Do zavala"), N_("After a take, throw in without limit")),
    "no_trump": (N_("No trumps"), N_("No trump suit")),
    "japanese": (N_("Japanese"), N_("Spades only by spades")),
    "suitless": (N_("Suitless"), N_("Any higher card beats")),
    "royal": (N_("Royal"), N_("Lowest cards fall only to aces")),
    "piled": (N_("Piled-on"), N_("Whole deck dealt, no stock")),
    "chukchi": (N_("Chukchi"), N_("Stock removed after the deal")),
    "empty_hand": (N_("Empty-hand draw"), N_("Draw only with an empty hand")),
    "albanian": (N_("Albanian"), N_("Stock sorted, aces on top")),
    "invisible": (N_("Invisible trump"), N_("Trump card hidden till the end")),
    "threes": (N_("Threes"), N_("Lead three cards of any rank")),
    "tedious": (N_("Tedious"), N_("Lead only your highest rank")),
    "no_throw_in": (N_("No throw-in"), N_("Transfer, no throw-ins, lead sets")),
    "kind": (N_("Kind"), N_("Taking keeps your turn")),
    "circular": (N_("Circular"), N_("Hands pass left after each bout")),
    "points": (N_("Points"), N_("Most cards beaten wins")),
    "figures": (N_("Figures"), N_("Most 10s–aces beaten wins")),
    "pogony_race": (N_("Pogony race"), N_("Hang the most pairs")),
    "pairs": (N_("From pairs"), N_("5 cards, lead pairs + one")),
    "groups": (N_("From groups"), N_("5 cards, lead pairs and sets")),
    "perevodnoy_2": (N_("Perevodnoy-2"), N_("Transfer even after covering")),
    "recycled": (N_("Recycled discard"), N_("Every 2nd defence back in stock")),
    "trump_swap": (N_("Trump swap"), N_("The trump changes after defences")),
    "armenian": (N_("Armenian"), N_("You may lead the stock's top card")),
    "secret_trump": (N_("Secret trump"), N_("A hidden trump takes over late")),
    "perevodnoy_3": (N_("Perevodnoy-3"), N_("Beat only the transferred card")),
    "american": (N_("American"), N_("Throw in on yourself")),
    "second_try": (N_("Second try"), N_("Draw a card to beat")),
    "poker": (N_("Poker"), N_("Swap two cards before beating")),
    "baltic": (N_("Baltic"), N_("Beat and strike back")),
    "two_trumps": (N_("Two trumps"), N_("Each player his own trump (2 players)")),
}
PER_PAGE = 8


def variant_name(tr: Translator, preset: str) -> str:
    entry = CATALOGUE.get(preset)
    return preset if entry is None else tr.gettext(entry[0])


# what a preset is made of, less what the rules line names on its own (deck, throw-in, transfer, teams,
# cheating, draws)
_DEFINING = sorted({option for options in PRESETS.values() for option in options}
                   - {"deck_size", "throw_in", "transfer", "teams", "cheating", "draw"})


def _defining(rules: Rules) -> dict[str, object]:
    values = {option: getattr(rules, option) for option in _DEFINING}
    if not rules.transfer:  # without transfers their own options change nothing
        values = {k: v for k, v in values.items() if not k.startswith("transfer")}
    return values


@lru_cache(maxsize=256)  # the table's rules line is rendered at every move; custom rules try every game
def game_of(rules: Rules) -> str | None:
    """The game these rules play: their preset while its own options stand, else the first game of the
    catalogue they match (Perevodnoy with transfers turned off plays Podkidnoy; Podkidnoy with them,
    Perevodnoy; Japanese with them stays Japanese, "transfer" in the line); None: none of them."""
    mine = _defining(rules)
    order = (rules.preset, *CATALOGUE)
    exact = [p for p in order if PRESETS[p].get("transfer", False) == rules.transfer]
    transfer_form = [p for p in order if rules.transfer and "transfer" not in PRESETS[p]]
    for preset in (*exact, *transfer_form):
        if _defining(Rules.from_dict({"preset": preset, "transfer": rules.transfer})) == mine:
            return preset
    return None


def game_name(tr: Translator, rules: Rules) -> str:
    """The name of the game these rules play, or "custom rules" when no game of the catalogue matches."""
    preset = game_of(rules)
    return tr.gettext("Custom rules") if preset is None else variant_name(tr, preset)


def variant_line(tr: Translator, preset: str) -> str:
    entry = CATALOGUE.get(preset)
    return "" if entry is None else tr.gettext(entry[1])


def variants_text(tr: Translator) -> str:
    """/variants: every game, one line each."""
    lines = [tr.gettext("Games this bot plays (/newgame and the id or the name, e.g. /newgame japanese):"), ""]
    lines += [f"• {variant_name(tr, p)} ({p}): {variant_line(tr, p)}" for p in CATALOGUE]
    return "\n".join(lines)


def pages() -> int:
    return -(-len(CATALOGUE) // PER_PAGE)


def page_with(preset: str) -> int:
    ids = list(CATALOGUE)
    return ids.index(preset) // PER_PAGE if preset in ids else 0


def clamped(page: int) -> int:
    return max(0, min(page, pages() - 1))


def page_of(page: int) -> list[str]:
    """The games of a page (see :func:`clamped`)."""
    return list(CATALOGUE)[page * PER_PAGE:(page + 1) * PER_PAGE]


def differences(tr: Translator, rules: Rules) -> list[str]:
    """What this table's variant options change against podkidnoy, in plain words (for /rules)."""
    said: list[str] = []
    add = said.append
    if rules.deal is Deal.WHOLE_DECK:
        add(tr.gettext("The whole deck is dealt: there is no stock, and the last card dealt names the trump."))
    if rules.redeal_same_suit is not None:
        add(tr.gettext("A hand with {n} or more cards of one suit is dealt again.").format(n=rules.redeal_same_suit))
    if rules.stock_mode is StockMode.REMOVED:
        add(tr.gettext("After the deal the stock is set aside: nobody draws."))
    elif rules.stock_mode is StockMode.SORTED:
        add(tr.gettext("The stock is sorted by rank, aces on top."))
    if rules.trump_suit is TrumpSuit.NONE:
        add(tr.gettext("There is no trump: a card is covered only by a higher card of its suit."))
    elif rules.trump_suit is not TrumpSuit.TURNED:
        add(tr.gettext("The trump is always {suit}.").format(suit=_suit(rules.trump_suit.value)))
    if rules.special_suit is not None:
        add(tr.gettext("{suit} are never trump and are covered only by a higher card of their suit or by its "
                       "queen; a turned {suit} card means no trump.").format(suit=_suit(rules.special_suit)))
    if rules.trump_card_hidden:
        add(tr.gettext("The card under the stock is shown only when it is the last one; the trump suit is known."))
    if rules.suitless:
        add(tr.gettext("A plain card is covered by any higher card of any suit, or by a trump."))
    if rules.royal is Royal.ROYAL:
        add(tr.gettext("The lowest cards fall only to the ace of their suit or the trump ace, and an ace "
                       "falls to the lowest card of its suit."))
    elif rules.royal is Royal.ACES:
        add(tr.gettext("The lowest cards fall only to the ace of their suit or the trump ace."))
    lead = {
        Lead.WHOLE_RANK: tr.gettext("A lead is all your cards of one rank (as many as fit)."),
        Lead.HIGHEST: tr.gettext("A lead is of the highest rank in your hand."),
        Lead.THREE: tr.gettext("A lead is exactly three cards of any ranks (fewer if fewer fit)."),
        Lead.PAIRS: tr.gettext("A lead is one card, a pair and one card, or two pairs and one card."),
        Lead.GROUPS: tr.gettext("A lead is one card, a pair, two pairs, either with one card more, or three or "
                                "four of a rank."),
    }.get(rules.lead)
    if lead:
        add(lead)
    if rules.transfer_after_cover and rules.transfer:
        add(tr.gettext("The defender may transfer even after covering; the covered pairs stay on the table."))
    if not rules.transfer_trump_on_table and rules.transfer:
        add(tr.gettext("Nobody transfers while a trump lies on the table."))
    if rules.two_trumps:
        add(tr.gettext("Each of the two players has his own trump suit: the first card turned is the first "
                       "player's, the next of another suit the second's. A defender covers with his own trump."))
    if rules.secret_trump:
        add(tr.gettext("A second card lies face down under the trump card; when the stock runs out it is turned, "
                       "and its suit is trump from then on."))
    if rules.stock_lead:
        add(tr.gettext("The attacker may lead the stock's top card, alone or with cards of its rank from his "
                       "hand."))
    if rules.transfer_beat_only_new and rules.transfer:
        add(tr.gettext("After a transfer the new defender beats only the transferred cards; the others are "
                       "passed over and leave with the bout."))
    if rules.self_throw_in:
        add(tr.gettext("When everything is covered, the defender may throw cards in on himself before the bout "
                       "ends."))
    if rules.draw_to_cover:
        add(tr.gettext("Once a bout the defender may draw a card from the stock to cover (then he may not "
                       "transfer)."))
    if rules.poker_swap:
        add(tr.gettext("Once a bout, before his first cover, the defender may swap two cards for the stock's top "
                       "two."))
    if rules.counter_attack:
        add(tr.gettext("Against a lone card the defender may beat it and strike back with cards of the covering "
                       "card's rank: the roles swap."))
    if rules.trump_swap:
        add(tr.gettext("After each beaten bout the last cover card replaces the card under the stock, and its "
                       "suit is trump from then on."))
    if rules.recycle_discard:
        add(tr.gettext("Every second beaten bout goes back into the stock, shuffled, while the stock lasts."))
    if rules.taker_attacks:
        add(tr.gettext("Whoever takes attacks next."))
    if rules.rotate_hands:
        add(tr.gettext("After each bout every hand passes to the next player on the left."))
    if rules.refill is Refill.WHEN_EMPTY:
        add(tr.gettext("Only a player with no cards draws, up to a full hand."))
    if rules.pogony_rule is PogonyRule.TWO_SIXES:
        add(tr.gettext("Pogony need exactly two sixes laid last."))
    elif rules.pogony_rule is PogonyRule.OFF:
        add(tr.gettext("No pogony."))
    ranking = {
        Ranking.BEATEN: tr.gettext("Players are ranked by the cards they covered in beaten bouts."),
        Ranking.FIGURES: tr.gettext("Players are ranked by the 10s to aces they covered in beaten bouts."),
        Ranking.POGONY: tr.gettext("Players are ranked by pogony: a defender who takes exactly a pair gets a "
                                   "pogon from the attacker."),
    }.get(rules.ranking)
    if ranking:
        add(ranking + " " + tr.gettext("The durak is still named."))
    return said


def _suit(letter: str) -> str:
    return suit_text(parse_suit(letter))


assert set(CATALOGUE) == set(PRESETS), "every preset has a name and a line"
