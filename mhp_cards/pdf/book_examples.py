"""The worked examples as the rulebook sets them: a picture of the real position, then the words.

Each function takes an :class:`~mhp_cards.pdf.examples.Example` (found in a seeded game and
checked by the referee) and sets it in the book: a heading, the position drawn with the kit's
own faces (:mod:`mhp_cards.pdf.pictures`), and what happens, told from the example's facts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mhp_cards.assembly.played import played_installation
from mhp_cards.game.state import GameState, InstallationState
from mhp_cards.pdf.book_field_examples import l1_fight, l1_mission, l1_turn
from mhp_cards.pdf.book_texts import EXAMPLE_TITLES, tr
from mhp_cards.pdf.book_words import (
    ExampleContext,
    cards_runs,
    example_heading,
    formula_list_runs,
    player_name,
    player_whose,
    say,
)
from mhp_cards.pdf.bookflow import CAPTION_SIZE
from mhp_cards.pdf.examples import Example
from mhp_cards.pdf.pictures import (
    draw_field_state,
    draw_mission_tokens,
    draw_run,
)
from mhp_cards.pdf.style import MUTED
from mhp_cards.pdf.typeset import formula_runs, text_runs
from mhp_cards.referee.actions import React, Trade

__all__ = ["EXAMPLE_SETTERS", "HEROES", "ExampleContext", "example_figure", "set_example"]


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
    name = player_name(ctx, example.player)
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
            *cards_runs(ctx, cards),
            *text_runs(". Реакция проходит через все карты установки сразу"),
        ]
        if piped:
            runs += [
                *text_runs("; "),
                *formula_list_runs(piped, lang),
                *text_runs(" уходит по трубе на следующую карту и фишки не получает"),
            ]
        runs += [
            *text_runs(". Фишки игрока — по одной на каждую ёмкость с продуктом: "),
            *formula_list_runs(makes, lang),
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
            *cards_runs(ctx, cards),
            *text_runs(". The reaction runs through every card of the installation at once"),
        ]
        if piped:
            runs += [
                *text_runs("; "),
                *formula_list_runs(piped, lang),
                *text_runs(" flows on by pipe to the next card and takes no token"),
            ]
        runs += [
            *text_runs(". The player's tokens, one on each product container: "),
            *formula_list_runs(makes, lang),
            *text_runs("."),
        ]
        if moved:
            runs += text_runs(
                f" {moved} of them are wanted by missions, so those tokens go "
                "straight onto the Mission card (L2.M1)."
            )
        runs += text_runs(" The raw cards are discarded (L2.T4, L2.T4-portion).")
    say(ctx, runs)


def _trade(ctx: ExampleContext, example: Example) -> None:
    lang = ctx.lang
    action = example.action
    assert isinstance(action, Trade)
    assert action.get_product is not None
    number = action.get_product.installation
    _trade_picture(ctx, example, number)
    buyer, seller = player_name(ctx, example.player), player_name(ctx, action.partner)
    price = example.number("price")
    substance = str(example.facts["substance"])
    to_mission = example.before.missions != example.after.missions
    if lang == "ru":
        runs = [
            *text_runs(f"{buyer} покупает у {player_whose(ctx, action.partner)} продукт "),
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
    say(ctx, runs)


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
    name = player_name(ctx, example.player)
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
    say(ctx, text_runs(lead))
    _reaction(ctx, example)


EXAMPLE_SETTERS: dict[str, Callable[[ExampleContext, Example], None]] = {
    "l1-turn": l1_turn,
    "l1-mission": l1_mission,
    "fight": l1_fight,
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
    say(ctx, text_runs(tr("figure_at", ctx.lang, page=page), colour=MUTED))


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
    example_heading(ctx, example, _KEEP.get(example.key, 0.0))
    EXAMPLE_SETTERS[example.key](ctx, example)
    ctx.book.space(2)
