"""The rulebook's worked examples on the field (level 1): a turn, a mission claimed, a fight.

Each sets an :class:`~mhp_cards.pdf.examples.Example` found in a seeded game: the field around
the position drawn with the kit's faces, then what happens, told from the example's facts.
"""

from __future__ import annotations

from collections import Counter

from mhp_cards.game.state import GameState, Position
from mhp_cards.pdf.book_words import ExampleContext, cards_runs, player_name, player_whose, say
from mhp_cards.pdf.bookflow import CAPTION_SIZE
from mhp_cards.pdf.examples import Example
from mhp_cards.pdf.faces import tally
from mhp_cards.pdf.pictures import arrow, centre, draw_die, draw_field_state, draw_hand
from mhp_cards.pdf.style import INK
from mhp_cards.pdf.typeset import Run, formula_runs, text_runs
from mhp_cards.referee.actions import Move, ResolveFight, Retreat, TakeSpoils
from mhp_cards.rules.numbers import Lang

__all__ = ["l1_fight", "l1_mission", "l1_turn"]


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


def l1_turn(ctx: ExampleContext, example: Example) -> None:
    """A level-1 turn: the combine's walk on the field and the cards it collects."""
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
    name = player_name(ctx, player.id)
    direction = _direction(start, path[-1], lang)
    held = len(player.raw_cards) + len(collected)
    if lang == "ru":
        runs = [
            *text_runs(
                f"{name} сдвигает комбайн на одну клетку {direction} (стрелка) и "
                "забирает карточку, которая там лежала рубашкой вверх: "
            ),
            *cards_runs(ctx, collected),
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
            *cards_runs(ctx, collected),
            *text_runs(
                f". {name} now holds {held} raw cards. No more cells this turn: the "
                "combine has no battery (L1.T1, L1.T3)."
            ),
        ]
    say(ctx, runs)


def l1_mission(ctx: ExampleContext, example: Example) -> None:
    """A level-1 mission claimed: the cards of the hand and the atoms they add up to."""
    book, lang = ctx.book, ctx.lang
    cards = list(example.names("cards"))
    mission = ctx.catalog.mission(str(example.facts["mission"]))
    player = example.before.current

    def picture(x: float, y: float, width: float) -> None:
        draw_hand(book.sketch, ctx.catalog, ctx.profile, cards, x, y, width, ctx.draw_face, 21)

    book.block(22, picture)
    name = player_name(ctx, player.id)
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
    say(ctx, intro)
    for line in lines:
        book.paragraph(line, size=CAPTION_SIZE, indent=4, after=0.2)
    book.space(1)
    say(ctx, result)


def l1_fight(ctx: ExampleContext, example: Example) -> None:
    """An attack on the field: the dice, the spoils and the loser's retreat."""
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
    attacker, defender = player_name(ctx, fight.attacker), player_name(ctx, fight.defender)
    defender_lower = player_name(ctx, fight.defender, capital=False)
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
                f"{attacker} въезжает на клетку, где стоит комбайн "
                f"{player_whose(ctx, fight.defender)},"
                " и "
                f"объявляет «Напал!». Кубики: {dice} Больше у нападающего — он побеждает и "
                "забирает по своему выбору до трёх карточек сырья: "
            ),
            *cards_runs(ctx, take),
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
            *cards_runs(ctx, take),
            *text_runs(
                f". {defender} retreats to a free neighbouring cell (the arrow). On their next "
                "turns neither may attack: repairs (L1.T4, L1.T5)."
            ),
        ]
    say(ctx, runs)
