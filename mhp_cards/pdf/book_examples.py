"""The worked examples as the rulebook sets them: a picture of the real position, then the words.

Each function takes an :class:`~mhp_cards.pdf.examples.Example` (found in a seeded game and
checked by the referee) and sets it in the book: a heading, the position drawn with the kit's
own faces (:mod:`mhp_cards.pdf.pictures`), and what happens, told from the example's facts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from mhp_cards.assembly.played import played_installation
from mhp_cards.catalog.models import Catalog
from mhp_cards.game.state import GameState, InstallationState, Position
from mhp_cards.pdf.book_texts import EXAMPLE_TITLES, tr
from mhp_cards.pdf.bookflow import CAPTION_SIZE, Book
from mhp_cards.pdf.diagrams import DrawFace
from mhp_cards.pdf.examples import Example
from mhp_cards.pdf.faces import tally
from mhp_cards.pdf.layout import SheetProfile
from mhp_cards.pdf.pictures import (
    arrow,
    centre,
    draw_die,
    draw_field_state,
    draw_hand,
    draw_mission_tokens,
    draw_run,
)
from mhp_cards.pdf.style import INK, MUTED
from mhp_cards.pdf.typeset import Run, formula_runs, text_runs
from mhp_cards.referee.actions import Move, React, ResolveFight, Retreat, TakeSpoils, Trade
from mhp_cards.rules.numbers import Lang

__all__ = ["EXAMPLE_SETTERS", "HEROES", "ExampleContext", "example_figure", "set_example"]


@dataclass(frozen=True, slots=True)
class ExampleContext:
    """What an example needs to be set: the book, the catalog, the sheet, the face drawer."""

    book: Book
    catalog: Catalog
    profile: SheetProfile
    draw_face: DrawFace
    lang: Lang


def _colour_name(ctx: ExampleContext, player: str) -> str:
    for colour in ctx.catalog.components.colours:
        if colour.id == player:
            return colour.name.get(ctx.lang).lower()
    return player


def _name(ctx: ExampleContext, player: str, capital: bool = True) -> str:
    """A player by their colour: «Синий игрок», "Blue"."""
    name = _colour_name(ctx, player)
    text = f"{name} игрок" if ctx.lang == "ru" else name
    return text[:1].upper() + text[1:] if capital or ctx.lang == "en" else text


def _whose(ctx: ExampleContext, player: str) -> str:
    """A player in the genitive: «красного игрока», "Red's"."""
    name = _colour_name(ctx, player)
    if ctx.lang != "ru":
        return name[:1].upper() + name[1:] + "'s"
    return ru_genitive_adjective(name) + " игрока"


def ru_genitive_adjective(adjective: str) -> str:
    """The genitive singular masculine of a Russian adjective: красный → красного.

    Enough for the kit's colour names (синий → синего); a shared Russian declension helper is
    the lead's to choose (see the report).
    """
    for ending, genitive in (("ый", "ого"), ("ой", "ого"), ("ий", "его")):
        if adjective.endswith(ending):
            return adjective[: -len(ending)] + genitive
    return adjective


def _card(ctx: ExampleContext, instance: str) -> list[Run]:
    """A raw card in words: its name and its formula («сидерит FeCO₃»)."""
    raw = ctx.catalog.raw_material(instance.split("#", maxsplit=1)[0])
    return [*text_runs(raw.name.get(ctx.lang).lower() + " "), *formula_runs(raw.formula)]


def _cards(ctx: ExampleContext, instances: tuple[str, ...] | list[str]) -> list[Run]:
    runs: list[Run] = []
    for index, instance in enumerate(instances):
        if index:
            runs += text_runs(", ")
        runs += _card(ctx, instance)
    return runs


def _formulas(substances: tuple[str, ...] | list[str], lang: Lang) -> list[Run]:
    runs: list[Run] = []
    counted = Counter(substances)
    for index, (substance, count) in enumerate(counted.items()):
        if index:
            runs += text_runs(", ")
        if count > 1:
            runs += text_runs(f"{count} × ")
        runs += formula_runs(substance)
    return runs


def _heading(ctx: ExampleContext, example: Example, keep: float = 0.0) -> None:
    title = f"{tr('example', ctx.lang)}: {EXAMPLE_TITLES[example.key][ctx.lang]}"
    ctx.book.heading(title, size=10.5, keep=keep)
    players = len(example.before.players)
    ctx.book.paragraph(
        text_runs(tr("ex_from", ctx.lang, players=players, seed=example.seed), colour=MUTED),
        size=CAPTION_SIZE,
        after=0.8,
    )


def _say(ctx: ExampleContext, runs: list[Run]) -> None:
    ctx.book.paragraph(runs, size=9.0, after=1.2)


def _window(cells: list[Position], state: GameState, margin: int = 2) -> tuple[int, int, int, int]:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return (min(xs) - margin, min(ys) - margin, max(xs) + margin, max(ys) + margin)


def _direction(start: Position, end: Position, lang: Lang) -> str:
    dx, dy = end[0] - start[0], end[1] - start[1]
    words = {
        (1, 0): ("вправо", "to the right"),
        (-1, 0): ("влево", "to the left"),
        (0, 1): ("вниз", "down"),
        (0, -1): ("вверх", "up"),
    }
    ru, en = words.get((dx, dy), ("", ""))
    return ru if lang == "ru" else en


def _l1_turn(ctx: ExampleContext, example: Example) -> None:
    book, lang = ctx.book, ctx.lang
    before = example.before
    player = before.current
    assert player.combine is not None
    assert before.field is not None
    start = player.combine.position
    assert isinstance(example.action, Move)
    path = list(example.action.path)
    collected = list(example.names("collected"))

    def picture(x: float, y: float, width: float) -> None:
        drawn = draw_field_state(
            book.sketch,
            ctx.catalog,
            ctx.profile,
            before,
            x,
            y,
            width * 0.66,
            44,
            ctx.draw_face,
            window=_window([start, *path], before),
            cell_max=9.0,
        )
        arrow(book.sketch, [centre(drawn, start), *(centre(drawn, p) for p in path)])
        draw_hand(
            book.sketch,
            ctx.catalog,
            ctx.profile,
            collected,
            x + width * 0.7,
            y + 8,
            width * 0.3,
            ctx.draw_face,
        )

    book.block(46, picture)
    name = _name(ctx, player.id)
    direction = _direction(start, path[-1], lang)
    held = len(player.raw_cards) + len(collected)
    if lang == "ru":
        runs = [
            *text_runs(
                f"{name} сдвигает комбайн на одну клетку {direction} (стрелка) и "
                "забирает карточку, которая там лежала рубашкой вверх: "
            ),
            *_cards(ctx, collected),
            *text_runs(
                f". Теперь у него {held} карточек сырья. Больше за ход клеток нет: "
                "батареи у комбайна нет (L1.T1, L1.T3)."
            ),
        ]
    else:
        runs = [
            *text_runs(
                f"{name} moves the combine one cell {direction} (the arrow) and takes "
                "the card lying there face down: "
            ),
            *_cards(ctx, collected),
            *text_runs(
                f". {name} now holds {held} raw cards. No more cells this turn: the "
                "combine has no battery (L1.T1, L1.T3)."
            ),
        ]
    _say(ctx, runs)


def _l1_mission(ctx: ExampleContext, example: Example) -> None:
    book, lang = ctx.book, ctx.lang
    cards = list(example.names("cards"))
    mission = ctx.catalog.mission(str(example.facts["mission"]))
    player = example.before.current

    def picture(x: float, y: float, width: float) -> None:
        draw_hand(book.sketch, ctx.catalog, ctx.profile, cards, x, y, width, ctx.draw_face, 21)

    book.block(22, picture)
    name = _name(ctx, player.id)
    others = len(player.raw_cards) - len(cards)
    total: Counter[str] = Counter()
    lines: list[list[Run]] = []
    for instance in cards:
        raw = ctx.catalog.raw_material(instance.split("#")[0])
        total.update(raw.parsed.elements)
        lines.append([*formula_runs(raw.formula), *text_runs(f"  {tally(raw.parsed.elements)}")])
    want = tally(mission.elements)
    mission_name = mission.name.get(lang)
    if lang == "ru":
        intro = (
            text_runs(
                f"У игрока {name} на руках {len(player.raw_cards)} карточек. Миссия {mission.id} "
                f"«{mission_name}» требует {want}. {name} выбирает четыре карточки и складывает "
                "атомы по элементам:"
            )
            if len(cards) == 4
            else text_runs(
                f"У игрока {name} на руках {len(player.raw_cards)} карточек. Миссия {mission.id} "
                f"«{mission_name}» требует {want}. {name} выбирает {len(cards)} и складывает "
                "атомы по элементам:"
            )
        )
        result = text_runs(
            f"Вместе: {tally(dict(total))} — ровно как в миссии. {name} выкладывает эти "
            f"карточки и побеждает; остальные ({others}) в руке не мешают (L1.E1, L1.E2). "
            "Круг доигрывают: кто ходит после и тоже выложит миссию, делит победу."
        )
    else:
        intro = text_runs(
            f"{name} holds {len(player.raw_cards)} raw cards. Mission {mission.id} "
            f"“{mission_name}” asks for {want}. {name} picks {len(cards)} of them and adds up "
            "the atoms element by element:"
        )
        result = text_runs(
            f"Together: {tally(dict(total))}, exactly the mission's. {name} lays these cards "
            f"out and wins; the other {others} in hand do not matter (L1.E1, L1.E2). The round "
            "is played out: a player after who also lays out a mission shares the win."
        )
    _say(ctx, intro)
    for line in lines:
        book.paragraph(line, size=CAPTION_SIZE, indent=4, after=0.2)
    book.space(1)
    _say(ctx, result)


def _fight(ctx: ExampleContext, example: Example) -> None:
    book, lang = ctx.book, ctx.lang
    before = example.before
    action = example.action
    assert isinstance(action, ResolveFight)
    assert before.fight is not None
    fight = before.fight
    spoils, retreating = example.more
    assert isinstance(spoils, TakeSpoils)
    assert isinstance(retreating, Retreat)
    retreat = retreating.cell
    assert retreat is not None
    take = list(spoils.cards)
    rolls = action.rounds[0]

    def picture(x: float, y: float, width: float) -> None:
        drawn = draw_field_state(
            book.sketch,
            ctx.catalog,
            ctx.profile,
            before,
            x,
            y,
            width * 0.55,
            40,
            ctx.draw_face,
            window=_window([fight.cell, retreat], before),
            cell_max=10.0,
        )
        arrow(book.sketch, [centre(drawn, fight.cell), centre(drawn, retreat)], colour=INK)
        die = 9.0
        left = x + width * 0.6
        colours = {c.id: c.rgb for c in ctx.catalog.components.colours}
        for k, value in enumerate(rolls):
            owner = fight.attacker if k == 0 else fight.defender
            draw_die(book.sketch, left + k * (die + 2), y + 2, die, value, colours[owner])
        draw_hand(
            book.sketch,
            ctx.catalog,
            ctx.profile,
            take,
            left,
            y + die + 6,
            width * 0.4,
            ctx.draw_face,
            16,
        )

    book.block(42, picture)
    attacker, defender = _name(ctx, fight.attacker), _name(ctx, fight.defender)
    defender_lower = _name(ctx, fight.defender, capital=False)
    armour = len(rolls) > 2
    if lang == "ru":
        dice = (
            f"{attacker} бросает {rolls[0]}, {defender_lower} — с бронёй дважды: {rolls[1]} и "
            f"{rolls[2]}, берёт больший, {max(rolls[1:])}."
            if armour
            else f"{attacker} бросает {rolls[0]}, {defender_lower} — {rolls[1]}."
        )
        runs = [
            *text_runs(
                f"{attacker} въезжает на клетку, где стоит комбайн {_whose(ctx, fight.defender)},"
                " и "
                f"объявляет «Напал!». Кубики: {dice} Больше у нападающего — он побеждает и "
                "забирает по своему выбору до трёх карточек сырья: "
            ),
            *_cards(ctx, take),
            *text_runs(
                f". {defender} отступает на соседнюю свободную клетку (стрелка). На следующем "
                "ходу ни один из них не нападает: ремонт (L1.T4, L1.T5)."
            ),
        ]
    else:
        dice = (
            f"{attacker} rolls {rolls[0]}; {defender}, armoured, rolls twice, {rolls[1]} and "
            f"{rolls[2]}, and keeps the higher, {max(rolls[1:])}."
            if armour
            else f"{attacker} rolls {rolls[0]}, {defender} {rolls[1]}."
        )
        runs = [
            *text_runs(
                f"{attacker} drives onto the cell of {defender}'s combine and calls out “I "
                f"attack!”. The dice: {dice} The attacker rolled higher and wins, taking up to "
                "three raw cards of their choice: "
            ),
            *_cards(ctx, take),
            *text_runs(
                f". {defender} retreats to a free neighbouring cell (the arrow). On their next "
                "turns neither may attack: repairs (L1.T4, L1.T5)."
            ),
        ]
    _say(ctx, runs)


def _installation(state: GameState, number: int) -> InstallationState:
    return next(i for i in state.installations if i.number == number)


def _run_size(ctx: ExampleContext, number: int, width: float) -> tuple[float, float]:
    """(scale, height) of an installation drawn ``width`` mm wide at most (cards ≤ 62 %)."""
    rows = played_installation(ctx.catalog, number).arrangement.grid()
    card = ctx.profile.card_sizes["reactor"].width
    scale = min(0.62, width / (len(rows[0]) * card), 75 / (len(rows) * card))
    return scale, len(rows) * card * scale


def _run_height(ctx: ExampleContext, number: int) -> float:
    """The height of an example's picture across the page: the installation, the Mission card."""
    book = ctx.book
    full = book.width - book.left - book.right
    mission = ctx.profile.card_sizes["mission"]
    _, height = _run_size(ctx, number, full * 0.56)
    return max(height, mission.height * (full * 0.4) / mission.width) + 1


def _draw_run(
    ctx: ExampleContext,
    example: Example,
    number: int,
    cards: list[str],
    box: tuple[float, float, float, float],
) -> None:
    """Installation ``number`` before → after the example, its cards laid, in ``box``."""
    before, after = _installation(example.before, number), _installation(example.after, number)
    x, y, width, height = box
    draw_run(
        ctx.book.sketch,
        ctx.catalog,
        ctx.profile,
        before,
        after,
        cards,
        example.player,
        x,
        y,
        width,
        height,
        ctx.draw_face,
    )


def _draw_missions(ctx: ExampleContext, example: Example, x: float, y: float, width: float) -> None:
    """The Mission card with the tokens the example put on it."""
    draw_mission_tokens(
        ctx.book.sketch,
        ctx.catalog,
        ctx.profile,
        example.before,
        example.after,
        example.player,
        x,
        y,
        width,
        ctx.draw_face,
    )


def _run_picture(ctx: ExampleContext, example: Example, number: int, cards: list[str]) -> None:
    """The installation of a run with its cards and tokens, and the Mission card beside it."""
    book = ctx.book
    height = _run_height(ctx, number)

    def picture(x: float, y: float, width: float) -> None:
        room = width * 0.56
        _, drawn_h = _run_size(ctx, number, room)
        _draw_run(ctx, example, number, cards, (x, y, room, drawn_h + 0.5))
        _draw_missions(ctx, example, x + width * 0.6, y, width * 0.4)

    book.wide_block(height, picture)


def _reaction(ctx: ExampleContext, example: Example) -> None:
    lang = ctx.lang
    action = example.action
    assert isinstance(action, React)
    number = action.installation
    installation = ctx.catalog.installation(number)
    cards = list(action.cards)
    _see_figure(ctx, example)
    name = _name(ctx, example.player)
    lays = list(example.names("lays"))
    makes = list(example.names("makes"))
    piped = list(example.names("piped"))
    shared = _installation(example.before, number).owner is None
    moved = sum(
        1
        for old, new in zip(example.before.missions, example.after.missions, strict=True)
        for (_, a), (_, b) in zip(old.places, new.places, strict=True)
        for x, y in zip(a, b, strict=True)
        if x is None and y == example.player
    )
    if lang == "ru":
        whose = "общей установке" if shared else "своей установке"
        runs = [
            *text_runs(
                f"{name} проводит реакцию на {whose} {number} «{installation.name.ru}». "
                f"У неё {len(lays)} ёмкост{'ь' if len(lays) == 1 else 'и'} для сырья, и "
                "к каждой кладут по одной карточке: "
            ),
            *_cards(ctx, cards),
            *text_runs(". Реакция проходит через все карты установки сразу"),
        ]
        if piped:
            runs += [
                *text_runs("; "),
                *_formulas(piped, lang),
                *text_runs(" уходит по трубе на следующую карту и фишки не получает"),
            ]
        runs += [
            *text_runs(". Фишки игрока — по одной на каждую ёмкость с продуктом: "),
            *_formulas(makes, lang),
            *text_runs("."),
        ]
        if moved:
            runs += text_runs(
                f" {moved} из них нужны миссиям, и эти фишки сразу встают на карту Миссий (L2.M1)."
            )
        runs += text_runs(" Карточки сырья уходят в сброс (L2.T4, L2.T4-portion).")
    else:
        whose = "the shared installation" if shared else f"{name}'s own installation"
        runs = [
            *text_runs(
                f"{name} runs {whose} {number}, “{installation.name.en}”. It has "
                f"{len(lays)} raw-input container{'s' if len(lays) != 1 else ''}, and "
                "one card is laid beside each: "
            ),
            *_cards(ctx, cards),
            *text_runs(". The reaction runs through every card of the installation at once"),
        ]
        if piped:
            runs += [
                *text_runs("; "),
                *_formulas(piped, lang),
                *text_runs(" flows on by pipe to the next card and takes no token"),
            ]
        runs += [
            *text_runs(". The player's tokens, one on each product container: "),
            *_formulas(makes, lang),
            *text_runs("."),
        ]
        if moved:
            runs += text_runs(
                f" {moved} of them are wanted by missions, so those tokens go "
                "straight onto the Mission card (L2.M1)."
            )
        runs += text_runs(" The raw cards are discarded (L2.T4, L2.T4-portion).")
    _say(ctx, runs)


def _trade(ctx: ExampleContext, example: Example) -> None:
    lang = ctx.lang
    action = example.action
    assert isinstance(action, Trade)
    assert action.get_product is not None
    number = action.get_product.installation
    _trade_picture(ctx, example, number)
    buyer, seller = _name(ctx, example.player), _name(ctx, action.partner)
    price = example.number("price")
    substance = str(example.facts["substance"])
    to_mission = example.before.missions != example.after.missions
    if lang == "ru":
        runs = [
            *text_runs(f"{buyer} покупает у {_whose(ctx, action.partner)} продукт "),
            *formula_runs(substance),
            *text_runs(
                f" с установки {number} за {price} мР — цену назначают сами игроки. "
                f"{seller} снимает свою фишку, {buyer} ставит свою"
            ),
            *text_runs(
                " — сразу на карту Миссий, раз там есть место для этого продукта (L2.M1)"
                if to_mission
                else " на ту же ёмкость"
            ),
            *text_runs(
                ". Это единственная сделка хода; покупателю нужна ёмкость для этого "
                "вещества на своей или общей установке (L2.T2, L2.T3)."
            ),
        ]
    else:
        runs = [
            *text_runs(f"{buyer} buys the product "),
            *formula_runs(substance),
            *text_runs(
                f" on installation {number} from {seller} for {price} mR, a price the "
                f"two agree on. {seller} lifts their token and {buyer} puts one down"
            ),
            *text_runs(
                " — on the Mission card at once, since it has a free place for that product (L2.M1)"
                if to_mission
                else " on the same container"
            ),
            *text_runs(
                ". That is the turn's one trade; the buyer needs a container for the "
                "substance on their own or a shared installation (L2.T2, L2.T3)."
            ),
        ]
    _say(ctx, runs)


def _l3_base(ctx: ExampleContext, example: Example) -> None:
    book, lang = ctx.book, ctx.lang
    before = example.before
    assert before.field is not None
    base = before.field.base

    def picture(x: float, y: float, width: float) -> None:
        draw_field_state(
            book.sketch,
            ctx.catalog,
            ctx.profile,
            before,
            x,
            y,
            width,
            30,
            ctx.draw_face,
            window=(base[0] - 2, base[1] - 1, base[0] + 2, base[1] + 1),
            cell_max=10.0,
        )

    book.block(32, picture)
    name = _name(ctx, example.player)
    if lang == "ru":
        lead = (
            f"Комбайн игрока {name} стоит на базе — значит, ему доступны общие установки: "
            "они стоят на базе. С соседней клетки эту реакцию провести было бы нельзя "
            "(L3.S5). Свои установки едут на комбайне и работают где угодно."
        )
    else:
        lead = (
            f"{name}'s combine stands on the Base, so the shared installations, which stand "
            "there, are open to it. From a neighbouring cell this reaction could not be run "
            "(L3.S5). A player's own installations ride on the combine and work anywhere."
        )
    _say(ctx, text_runs(lead))
    _reaction(ctx, example)


EXAMPLE_SETTERS: dict[str, Callable[[ExampleContext, Example], None]] = {
    "l1-turn": _l1_turn,
    "l1-mission": _l1_mission,
    "fight": _fight,
    "l2-reaction": _reaction,
    "trade": _trade,
    "l3-base": _l3_base,
}


#: The height each example's first picture keeps its heading company with, in mm.
_KEEP: dict[str, float] = {
    "l1-turn": 50,
    "l1-mission": 30,
    "fight": 46,
    "l3-base": 36,
    "trade": 60,
}


#: The examples whose picture heads their level's chapter, across both columns.
HEROES: Final = {"2": "l2-reaction", "3": "l3-base"}


def example_figure(ctx: ExampleContext, example: Example) -> None:
    """The picture of a reaction example across the page, under its level's chapter band.

    The installation with the cards laid and the tokens placed, and the Mission card.
    """
    action = example.action
    assert isinstance(action, React)
    ctx.book.starts[f"figure:{example.key}"] = len(ctx.book.pages)
    _run_picture(ctx, example, action.installation, list(action.cards))
    title = f"{tr('example', ctx.lang)}: {EXAMPLE_TITLES[example.key][ctx.lang]}"
    ctx.book.paragraph(
        text_runs(title + tr("figure_below", ctx.lang), colour=MUTED), size=CAPTION_SIZE, after=1.5
    )


def _see_figure(ctx: ExampleContext, example: Example) -> None:
    page = ctx.book.starts.get(f"figure:{example.key}", len(ctx.book.pages))
    _say(ctx, text_runs(tr("figure_at", ctx.lang, page=page), colour=MUTED))


def _trade_picture(ctx: ExampleContext, example: Example, number: int) -> None:
    """Where the bought product's token stands now: on the Mission card, or on its container."""
    book = ctx.book
    before, after = example.before, example.after
    if before.missions != after.missions:
        mission = ctx.profile.card_sizes["mission"]
        height = mission.height * book.column_width / mission.width

        def on_mission(x: float, y: float, width: float) -> None:
            _draw_missions(ctx, example, x, y, width)

        book.block(height + 1, on_mission)
        return
    _, height = _run_size(ctx, number, book.column_width)

    def on_installation(x: float, y: float, width: float) -> None:
        _draw_run(ctx, example, number, [], (x, y, width, height + 0.5))

    book.block(height + 1, on_installation)


def set_example(ctx: ExampleContext, example: Example) -> None:
    """Set one worked example in the book: heading, picture, words."""
    _heading(ctx, example, _KEEP.get(example.key, 0.0))
    EXAMPLE_SETTERS[example.key](ctx, example)
    ctx.book.space(2)


def _ru_cards(number: int, accusative: bool = False) -> str:
    """``number`` карточек with the noun in its form (1 карточка/карточку, 2 карточки, 5 карточек).

    The Russian plural of the book's examples; the rulebook's ``_ru_count`` does the same for
    its setup steps (one helper for the kit is a task for the lead: see the report).
    """
    if number % 10 == 1 and number % 100 != 11:
        form = "карточку" if accusative else "карточка"
    elif 2 <= number % 10 <= 4 and not 12 <= number % 100 <= 14:
        form = "карточки"
    else:
        form = "карточек"
    return f"{number} {form}"
