"""The fixed texts of the printed rulebook, in Russian and English, written for players.

Counts of the box come in as format fields (computed, never typed in); the words of the
software — the catalog, the referee, house-rule switches — stay out of the printed book.
"""

from __future__ import annotations

from typing import Final

from mhp_cards.rules.numbers import Lang

__all__ = ["EXAMPLE_TITLES", "GLOSSARY", "T", "tr"]

T: Final[dict[str, dict[Lang, str]]] = {
    "title": {"ru": "Правила игры", "en": "Rules of play"},
    "head": {"ru": "МАРСХИМПРОМ · Правила", "en": "MARSCHEMPROM · Rules"},
    "players": {"ru": "Игроков: от {low} до {high}.", "en": "Players: {low} to {high}."},
    "players_exactly": {"ru": "Игроков: {low}.", "en": "Players: {low}."},
    "page": {"ru": "с. {page}", "en": "p. {page}"},
    "components": {"ru": "Состав игры", "en": "Components"},
    "also_need": {"ru": "Понадобится ещё", "en": "You also need"},
    "die": {
        "ru": "Один шестигранный кубик (d{sides}) — для нападений на уровнях 1 и 3. "
        "Если кубика нет, склейте его из развёртки на листе фишек.",
        "en": "One six-sided die (d{sides}) for attacks at levels 1 and 3. If you have "
        "none, fold one from the net on the token sheet.",
    },
    "table": {
        "ru": "Стол, на котором поместится поле примерно {w} × {h} см.",
        "en": "A table that holds a field of about {w} × {h} cm.",
    },
    "levels": {"ru": "Уровни", "en": "Levels"},
    "setup": {"ru": "Подготовка", "en": "Setup"},
    "turn": {"ru": "Ход", "en": "The turn"},
    "end": {"ru": "Конец игры", "en": "End of the game"},
    "scoring": {"ru": "Подсчёт очков", "en": "Scoring"},
    "mission": {"ru": "Миссии", "en": "Missions"},
    "rules_of_level": {"ru": "Правила уровня", "en": "Rules of the level"},
    "house": {"ru": "Домашние правила", "en": "House rules"},
    "varies": {"ru": "изменяет {rule}", "en": "varies {rule}"},
    "replaces": {"ru": "вместо {rule}", "en": "instead of {rule}"},
    "default": {"ru": "действует по умолчанию", "en": "in force by default"},
    # Setup steps, counted for this box.
    "s_remove": {
        "ru": "Отложите от {low} до {high} карт Судьбы (в наборе {fate}): на поле останется от "
        "{field_low} до {field_high} карт.",
        "en": "Put aside {low} to {high} Fate cards (the box has {fate}): {field_low} to "
        "{field_high} cards stay for the field.",
    },
    "s_remove_one": {
        "ru": "Отложите {low_fate} (в наборе {fate}): на поле останется {field_low_cards}.",
        "en": "Put aside {low} Fate cards (the box has {fate}): {field_low} cards stay for the "
        "field.",
    },
    "s_remove_none": {
        "ru": "С этим набором карточек уровень не собрать: ни одно число от {low} до {high} не "
        "даёт поля из {min_field} карт и Склада нужного размера.",
        "en": "This box cannot set up the level: no number from {low} to {high} leaves a field "
        "of {min_field} cards and a Warehouse of the right size.",
    },
    "s_options": {
        "ru": "Отложено {removed}: поле {field}, Склад {warehouse}",
        "en": "{removed} put aside: field {field}, Warehouse {warehouse}",
    },
    "s_field": {
        "ru": "Перемешайте оставшиеся карты Судьбы и выложите поле поверхностью Марса вверх; "
        "базу — примерно в центр (рисунок).",
        "en": "Shuffle the remaining Fate cards and lay the field Mars side up, the Base roughly "
        "in the middle (see the picture).",
    },
    "s_raw": {
        "ru": "Перемешайте {raw_cards} сырья и положите по одной рубашкой вверх на каждую "
        "карту поля; остальные {warehouse} — Склад.",
        "en": "Shuffle the {raw} raw cards and put one face down on every field card; the "
        "{warehouse} left over are the Warehouse.",
    },
    "s_combines": {
        "ru": "Каждый игрок ставит комбайн своего цвета на базу (комбайнов {combines}).",
        "en": "Each player stands a combine of their colour on the Base ({combines} in the box).",
    },
    "s_bank": {
        "ru": "Все {coins} монет — Банк.",
        "en": "All {coins} coins are the Bank.",
    },
    "s_tokens": {
        "ru": "Каждому игроку — {tokens} фишек химиков своего цвета.",
        "en": "Each player takes {tokens} chemist tokens of their colour.",
    },
    "s_tokens_two": {
        "ru": "Каждому игроку — {tokens} фишек химиков своего цвета, а если играют двое — "
        "по {two}.",
        "en": "Each player takes {tokens} chemist tokens of their colour; {two} each when two "
        "play.",
    },
    "s_deal": {
        "ru": "Раздайте наугад по одной основной карте (с красным кружком) из {mains}: у кого "
        "карта, тот владеет установкой. Установки без владельца — общие.",
        "en": "Deal one of the {mains} main-part cards (red circle) at random to each player; "
        "the holder owns that installation. Installations nobody holds are shared.",
    },
    "s_shared": {
        "ru": "Общих установок: {table}.",
        "en": "Shared installations: {table}.",
    },
    "s_shared_row": {
        "ru": "{shared} при {n} игроках",
        "en": "{shared} with {n} players",
    },
    "s_assemble": {
        "ru": "Соберите установки из их карт (схема каждой установки — в конце набора). "
        "Электролизёров {electrolysers}, они одинаковые.",
        "en": "Assemble the installations from their cards (each has a guide page at the end "
        "of the kit). The {electrolysers} electrolysers are identical.",
    },
    "s_piles": {
        "ru": "Перемешайте {raw_cards} сырья и разложите в {piles} стопки лицом вверх.",
        "en": "Shuffle the {raw} raw cards into {piles} piles, face up.",
    },
    "s_piles_down": {
        "ru": "Перемешайте {raw_cards} сырья и разложите в {piles} стопки рубашкой вверх.",
        "en": "Shuffle the {raw} raw cards into {piles} piles, face down.",
    },
    "s_money": {
        "ru": "Каждому по {each} мР; в Банк — {bank} мР; остальные монеты — в коробку: {table}.",
        "en": "Each player gets {each} mR; the Bank gets {bank} mR; the other coins stay in the "
        "box: {table}.",
    },
    "s_money_row": {"ru": "при {n} игроках — {left}", "en": "{n} players — {left}"},
    "s_money_fifth": {
        "ru": "Когда играют пятеро, пятый берёт ещё {extra} мР из монет Банка.",
        "en": "When five play, the fifth player takes {extra} mR more out of the Bank's.",
    },
    "s_alone": {
        "ru": "Установки, которые работают на одном сырье ({numbers}), раздают в открытую, "
        "по {each} каждому. В свой первый ход, до того как взять сырьё, игрок оставляет себе "
        "одну из своих установок, остальные убирают в коробку.",
        "en": "The installations that run from raw cards alone ({numbers}) are dealt face up, "
        "{each} to each player. On their first turn, before drawing, a player keeps one of "
        "theirs; the others go back in the box.",
    },
    "s_two": {"ru": "Играют двое.", "en": "For two players."},
    "s_l3_shared": {
        "ru": "Общие установки ставят на базу.",
        "en": "Shared installations stand at the Base.",
    },
    "fig_field": {
        "ru": "Поле из {cells} карт Судьбы с базой (синяя) в середине; на каждой карте — "
        "карточка сырья.",
        "en": "A field of {cells} Fate cards with the Base (blue) in the middle; a raw card lies "
        "on every one.",
    },
    "fig_installation": {
        "ru": "Собранная установка {number} «{name}»: ёмкости соединены трубопроводами, "
        "масштаб 1:{ratio}.",
        "en": "Installation {number} “{name}” assembled: pipes meet pipes; scale 1:{ratio}.",
    },
    "ruling": {"ru": "Разъяснение", "en": "Ruling"},
    "contents": {"ru": "Содержание", "en": "Contents"},
    "intro": {
        "ru": "МАРСХИМПРОМ — игра о химическом производстве на Марсе. Вы добываете настоящие "
        "марсианские минералы, складываете атомы их формул в миссии, а на установках из карт "
        "превращаете сырьё в продукты. Правила идут уровнями: начните с быстрого старта "
        "(с. {quick}) и уровня 1, а когда освоитесь, переходите к следующим.",
        "en": "MARSCHEMPROM is a game of chemical industry on Mars. You mine real Martian "
        "minerals, add up the atoms of their formulas to complete missions, and turn raw "
        "materials into products on installations built from cards. The rules come in levels: "
        "start with the quick start (p. {quick}) and level 1, and move on once it feels easy.",
    },
    "legend": {"ru": "Номера правил", "en": "Rule numbers"},
    "legend_text": {
        "ru": "Рядом с каждым правилом мелко напечатан его номер (L1.T4): L1, L2, L3 — уровень, "
        "V1 — «один на один»; S — подготовка, T — ход, M — миссии, E — конец игры, P — очки. "
        "Номер с добавкой (L1.T1.R1, L2.T4-portion) — уточнение к правилу. По номеру правило "
        "находят в этой книге (указатель — на последней странице) и на памятке.",
        "en": "Each rule has its number printed small beside it (L1.T4): L1, L2, L3 are the "
        "levels, V1 is head to head; S setup, T turn, M missions, E end, P scoring. A number "
        "with an addition (L1.T1.R1, L2.T4-portion) clarifies that rule. The number finds the "
        "rule in this book (the index is on the last page) and on the player aid.",
    },
    "house_intro": {
        "ru": "Варианты, о которых стол договаривается до начала партии. Без них играют по "
        "правилам этой книги. Каждый вариант заменяет одно правило; многие из них — буквальное "
        "прочтение правил 2019 года там, где эта книга их уточняет.",
        "en": "Variants a table agrees on before the game. Without them the rules of this book "
        "apply. Each replaces one rule; several are the literal reading of the 2019 rules "
        "where this book settles a point.",
    },
    "house_instead": {"ru": "вместо: «{rule}»", "en": "instead of: “{rule}”"},
    "quick": {"ru": "Быстрый старт", "en": "Quick start"},
    "quick_sub": {"ru": "Уровень 1 за десять минут", "en": "Level 1 in ten minutes"},
    "q_goal": {"ru": "Цель", "en": "The goal"},
    "q_setup": {"ru": "Подготовка", "en": "Setting up"},
    "q_turn": {"ru": "Ваш ход", "en": "Your turn"},
    "q_win": {"ru": "Победа", "en": "Winning"},
    "q_next": {"ru": "Дальше", "en": "What next"},
    "q_setup_1": {
        "ru": "Отложите {removed} карт Судьбы, из остальных выложите поле поверхностью Марса "
        "вверх, базу — в середину.",
        "en": "Put aside {removed} Fate cards; lay the rest out Mars side up as the field, the "
        "Base in the middle.",
    },
    "q_setup_2": {
        "ru": "Перемешайте карточки сырья и положите по одной рубашкой вверх на каждую карту "
        "поля; остальные ({warehouse}) — стопкой рядом: это Склад.",
        "en": "Shuffle the raw cards and put one face down on every field card; the rest "
        "({warehouse}) are the Warehouse, a pile beside the field.",
    },
    "q_setup_3": {
        "ru": "Каждый ставит комбайн своего цвета на базу. Все {coins} монет — Банк. Положите "
        "на стол карту Миссий.",
        "en": "Everyone stands a combine of their colour on the Base. All {coins} coins are "
        "the Bank. Put the Mission card on the table.",
    },
    "q_turn_1": {
        "ru": "Сдвиньте комбайн на соседнюю клетку (по стороне, не по диагонали) и возьмите "
        "себе карточку сырья, что там лежит. Первым ходом с базы — две клетки, две карточки.",
        "en": "Move your combine to a neighbouring cell (across a side, not a corner) and take "
        "the raw card lying there. Your first move off the Base goes two cells, two cards.",
    },
    "q_turn_2": {
        "ru": "Можно продать Банку карточку за 1 мР, купить карточку со Склада за 4 мР, "
        "купить солнечную батарею или броню за 4 мР, меняться с другими игроками.",
        "en": "You may sell a card to the Bank for 1 mR, buy one from the Warehouse for 4 mR, "
        "buy a solar battery or armour for 4 mR, and trade with other players.",
    },
    "q_turn_3": {
        "ru": "Можно напасть: въехать на клетку чужого комбайна. Бросайте кубик; победитель "
        "забирает до трёх карточек проигравшего.",
        "en": "You may attack: drive onto another combine's cell. Roll the die; the winner "
        "takes up to three of the loser's cards.",
    },
    "q_win_1": {
        "ru": "Считайте атомы: на каждой карточке сырья они напечатаны под названием "
        "(H 2 · O 1). Кто выложит карточки, в которых вместе ровно столько атомов каждого "
        "элемента, сколько требует миссия на карте Миссий, — выиграл.",
        "en": "Count atoms: each raw card prints them under its name (H 2 · O 1). Whoever lays "
        "out cards whose atoms add up exactly to one mission of the Mission card wins.",
    },
    "q_win_2": {
        "ru": "Если поле опустело, а миссию никто не выполнил, побеждает тот, у кого больше "
        "карточек сырья и мР вместе.",
        "en": "If the field runs out and nobody completed a mission, the most raw cards plus "
        "mR wins.",
    },
    "q_next_1": {
        "ru": "Уровень 2 (с. {l2}): установки из карт, реакции и фишки химиков. Уровень 3 "
        "(с. {l3}): всё вместе. Карты объяснены на с. {anatomy}, слова — на с. {glossary}.",
        "en": "Level 2 (p. {l2}): installations, reactions and chemist tokens. Level 3 "
        "(p. {l3}): everything together. The cards are explained on p. {anatomy}, the words "
        "on p. {glossary}.",
    },
    "anatomy": {"ru": "Из чего состоят карты", "en": "Reading the cards"},
    "anatomy_raw": {"ru": "Карточка сырья", "en": "A raw-material card"},
    "anatomy_reactor": {"ru": "Карта установки", "en": "An installation card"},
    "anatomy_mission": {"ru": "Карта Миссий", "en": "The Mission card"},
    "a_raw": {
        "ru": "Формула минерала: индексы — сколько атомов каждого элемента.|Название.|Атомы по "
        "элементам: их складывают, проверяя миссию уровня 1.|Где его нашли на Марсе.|Где "
        "карточка нужна: номера установок, которые её берут, и миссии уровня 1.",
        "en": "The mineral's formula: subscripts count the atoms of each element.|Its name.|"
        "Its atoms by element: these are added up for a level-1 mission.|Where it was found "
        "on Mars.|Where the card is used: the installations that take it and the level-1 "
        "missions.",
    },
    "a_reactor": {
        "ru": "Номер карты: число — установка, буква — карта в ней.|Ёмкость для сырья: сюда "
        "кладут одну карточку (одна карточка — одна порция).|Реакция этой карты.|Ёмкость с "
        "продуктом: места для фишек химиков и цена продукта.|Труба: стрелки показывают, куда "
        "течёт вещество; у соседней карты труба должна сойтись.|Красный кружок — основная карта "
        "(её раздают игроку); фиолетовый квадрат — электролизёр.",
        "en": "The card's number: the figure is the installation, the letter the card in it.|"
        "A raw-input container: one card is laid here (one card is one portion).|This card's "
        "reaction.|A product container: places for chemist tokens and the product's price.|"
        "A pipe: arrows show where the substance flows; it must meet a pipe of the next card."
        "|A red circle marks a main-part card (dealt to a player); a purple square an "
        "electrolyser.",
    },
    "a_mission": {
        "ru": "Миссия.|Атомы для уровня 1 — в той же записи, что на карточках сырья.|Места для "
        "фишек на уровнях 2 и 3: миссия выполнена, когда заняты все её места.",
        "en": "A mission.|Its atoms for level 1, written as on the raw cards.|Places for tokens "
        "at levels 2 and 3: the mission is complete when all its places are taken.",
    },
    "goal": {"ru": "Цель", "en": "The goal"},
    "goal_1": {
        "ru": "Соберите комбайном с поля карточки сырья, в которых вместе ровно столько атомов "
        "каждого элемента, сколько требует одна из миссий. Кто первым выложит такой набор, тот "
        "выиграл; если поле опустеет раньше, побеждает больше всех карточек и денег.",
        "en": "Collect raw cards from the field whose atoms add up exactly to one of the "
        "missions. The first to lay out such a set wins; if the field runs out first, the most "
        "cards and money wins.",
    },
    "goal_2": {
        "ru": "Превращайте сырьё в продукты на химических установках и ставьте на них своих "
        "химиков; продукты, нужные миссиям, идут на карту Миссий. Когда выполнена миссия или "
        "кончилось сырьё, побеждает больше всех очков: цена продуктов под вашими фишками (на "
        "выполненной миссии — вдвое) плюс деньги.",
        "en": "Turn raw materials into products on chemical installations and put your "
        "chemists on them; products the missions need go to the Mission card. When a mission "
        "is complete or the raw cards run out, the most points wins: the price of the "
        "products under your tokens (double on a completed mission) plus your money.",
    },
    "goal_1v1": {
        "ru": "Двое, у каждого своя установка, сырьё берут вслепую. Набирайте очки продуктами: "
        "всё, что стоит на карте Миссий, считается вдвое.",
        "en": "Two players, one installation each, drawing raw cards blind. Score with "
        "products: whatever stands on the Mission card counts double.",
    },
    "goal_3": {
        "ru": "Добывайте сырьё комбайном, как на уровне 1, и перерабатывайте его, как на уровне "
        "2: свои установки едут на комбайне, общие стоят на базе. Игра кончается выполненной "
        "миссией; очки — как на уровне 2.",
        "en": "Mine raw cards with your combine as at level 1 and process them as at level 2: "
        "your own installations ride on your combine, the shared ones stand at the Base. A "
        "completed mission ends the game; points as at level 2.",
    },
    "how_runs": {"ru": "Как работает установка", "en": "How an installation runs"},
    "how_runs_text": {
        "ru": "Установка — это карты с одним номером (3А, 3Б…), сложенные так, что трубы "
        "сходятся. Реакция проходит через всю установку сразу: вещество, вышедшее из карты по "
        "трубе, само попадает в следующую.|Правило порции: на каждую ёмкость для сырья кладут "
        "ОДНУ карточку сырья (или одно своё вещество того же состава). Карточка — это порция: "
        "коэффициенты уравнения на карте — химия, а не число карточек («2 CaCO₃» — всё равно "
        "одна карточка).|На каждую ёмкость с продуктом, которую заполняет реакция, ставят ОДНУ "
        "свою фишку химика; на это нужны свободные фишки. Вещество, ушедшее по трубе на "
        "следующую карту той же установки, там и расходуется: фишку на него не ставят.|Если "
        "продукт нужен миссии и для него есть свободное место на карте Миссий, фишку ставят "
        "туда. Использованные карточки сырья сбрасывают.",
        "en": "An installation is the cards of one number (3A, 3B…) laid so that their pipes "
        "meet. A reaction runs through the whole installation at once: what leaves a card by "
        "a pipe flows into the next by itself.|The portion rule: lay ONE raw card (or one of "
        "your substances of the same formula) beside each raw-input container. A card is a "
        "portion: the coefficients printed on the card are the chemistry, not a count of "
        "cards (“2 CaCO₃” is still one card).|Put ONE of your chemist tokens on each product "
        "container the run fills; you need that many free tokens. A substance piped on to the "
        "next card of the same installation is used up there: it takes no token.|If a product "
        "is wanted by a mission with a free place on the Mission card, the token goes there. "
        "The raw cards used are discarded.",
    },
    "example": {"ru": "Пример", "en": "Example"},
    "figure_below": {
        "ru": " — рассказ о нём ниже, после подготовки.",
        "en": " — told below, after the setup.",
    },
    "figure_at": {
        "ru": "Рисунок — вверху с. {page}: карточки лежат у своих ёмкостей, фишки — на местах.",
        "en": "The picture is at the top of p. {page}: the cards lie by their containers, the "
        "tokens stand on their places.",
    },
    "ex_from": {
        "ru": "Из настоящей партии на {players} игроков (раздача № {seed}).",
        "en": "From a real game of {players} players (deal no. {seed}).",
    },
    "setup_picture": {"ru": "Так выглядит стол", "en": "The table, set up"},
    "fig_deal_field": {
        "ru": "Раздача для {players} игроков: поле из {cells} карт Судьбы, на каждой — карточка "
        "сырья рубашкой вверх; комбайны на базе; на Складе {warehouse}.",
        "en": "A deal for {players} players: a field of {cells} Fate cards, a raw card face down "
        "on each; the combines on the Base; {warehouse} cards in the Warehouse.",
    },
    "glossary": {"ru": "Словарь", "en": "Glossary"},
    "index": {"ru": "Указатель правил", "en": "Index of rules"},
}


#: The worked examples' titles, by example key (:data:`mhp_cards.pdf.examples.EXAMPLES`).
EXAMPLE_TITLES: Final[dict[str, dict[Lang, str]]] = {
    "l1-turn": {"ru": "ход уровня 1", "en": "a level-1 turn"},
    "l1-mission": {"ru": "проверка миссии", "en": "checking a mission"},
    "fight": {"ru": "нападение", "en": "a fight"},
    "l2-reaction": {"ru": "реакция на установке", "en": "a reaction run"},
    "trade": {"ru": "сделка", "en": "a trade"},
    "l3-base": {"ru": "ход уровня 3 на базе", "en": "a level-3 turn at the Base"},
}

#: The glossary: (term, its explanation), each in Russian and English, in Russian order.
GLOSSARY: Final[tuple[tuple[dict[Lang, str], dict[Lang, str]], ...]] = (
    (
        {"ru": "База", "en": "Base"},
        {
            "ru": "карточка в середине поля: старт комбайнов; на уровне 3 здесь стоят общие "
            "установки. На базе не нападают.",
            "en": "the card in the middle of the field: the combines start there; at level 3 "
            "the shared installations stand there. No fights on it.",
        },
    ),
    (
        {"ru": "Банк", "en": "Bank"},
        {
            "ru": "монеты МАРСХИМПРОМА: платит за проданное сырьё и вещества, получает плату "
            "за покупки и штрафы. Платит только тем, что у него есть.",
            "en": "MARSCHEMPROM's coins: pays for raw cards and substances sold to it, takes "
            "payments and fines. Pays only what it has.",
        },
    ),
    (
        {"ru": "Броня", "en": "Armour"},
        {
            "ru": "улучшение комбайна за 4 мР: когда на вас нападают, вы бросаете кубик дважды.",
            "en": "a combine upgrade for 4 mR: when you are attacked, you roll twice.",
        },
    ),
    (
        {"ru": "Ёмкость", "en": "Container"},
        {
            "ru": "рамка на карте установки. К ёмкости для сырья кладут карточку; у ёмкости "
            "с продуктом — места для фишек и цена.",
            "en": "a box on an installation card. A card is laid beside a raw-input "
            "container; a product container has token places and a price.",
        },
    ),
    (
        {"ru": "Карта Миссий", "en": "Mission card"},
        {
            "ru": "четыре миссии: на уровне 1 — сколько атомов собрать, на уровнях 2–3 — места "
            "для продуктов.",
            "en": "four missions: at level 1 the atoms to collect, at levels 2–3 places for "
            "products.",
        },
    ),
    (
        {"ru": "Карта Судьбы", "en": "Fate card"},
        {
            "ru": "клетка поля, поверхность Марса. На уровнях 1–3 её не переворачивают.",
            "en": "a cell of the field, the surface of Mars. Never turned over at levels 1–3.",
        },
    ),
    (
        {"ru": "Карточка сырья", "en": "Raw card"},
        {
            "ru": "минерал, лёд или газ Марса с формулой. Лежит на поле рубашкой вверх, пока её "
            "не заберёт комбайн.",
            "en": "a Martian mineral, ice or gas with its formula. Lies face down on the field "
            "until a combine collects it.",
        },
    ),
    (
        {"ru": "Комбайн", "en": "Combine"},
        {
            "ru": "ваша машина на поле; собирает сырьё ковшом.",
            "en": "your vehicle on the field; it collects raw cards with its bucket.",
        },
    ),
    (
        {"ru": "мР", "en": "mR"},
        {"ru": "марсианский рубль, монета игры.", "en": "the Martian rouble, the game's coin."},
    ),
    (
        {"ru": "Общая установка", "en": "Shared installation"},
        {
            "ru": "установка, которой никто не владеет: на ней может работать каждый (на "
            "уровне 3 — только с базы).",
            "en": "an installation nobody owns: anyone may run it (at level 3 only from the Base).",
        },
    ),
    (
        {"ru": "Освободить фишку", "en": "Free a token"},
        {
            "ru": "снять свою фишку с вещества: продать его игроку или Банку или выбросить, "
            "заплатив штраф.",
            "en": "take your token off a substance by selling it to a player or the Bank, or "
            "by dumping it for a fine.",
        },
    ),
    (
        {"ru": "Порция", "en": "Portion"},
        {
            "ru": "одна карточка сырья на одну ёмкость за реакцию, какие бы коэффициенты ни "
            "стояли в уравнении.",
            "en": "one raw card per container per run, whatever the coefficients of the equation.",
        },
    ),
    (
        {"ru": "Склад", "en": "Warehouse"},
        {
            "ru": "стопка сырья рядом с полем: туда уходит проданное Банку, оттуда покупают "
            "за 4 мР.",
            "en": "a pile of raw cards beside the field: cards sold to the Bank go there; you "
            "buy from it for 4 mR.",
        },
    ),
    (
        {"ru": "Солнечная батарея", "en": "Solar battery"},
        {
            "ru": "улучшение комбайна за 4 мР: до двух клеток за ход.",
            "en": "a combine upgrade for 4 mR: up to two cells a turn.",
        },
    ),
    (
        {"ru": "Труба", "en": "Pipe"},
        {
            "ru": "полоса со стрелками у края карты установки; у соседних карт трубы сходятся, "
            "и вещество течёт по ним само.",
            "en": "a band with arrows at the edge of an installation card; the pipes of "
            "neighbouring cards meet, and the substance flows by itself.",
        },
    ),
    (
        {"ru": "Установка", "en": "Installation"},
        {
            "ru": "карты с одним номером, сложенные трубами друг к другу; за ход на ней "
            "проводят одну реакцию.",
            "en": "the cards of one number laid pipe to pipe; one reaction a turn runs on it.",
        },
    ),
    (
        {"ru": "Фишка химика", "en": "Chemist token"},
        {
            "ru": "ваш химик: стоит на полученном вами продукте и приносит его цену в очки.",
            "en": "your chemist: stands on a product you made and scores its price.",
        },
    ),
    (
        {"ru": "Электролизёр", "en": "Electrolyser"},
        {
            "ru": "карта с фиолетовым квадратом: разлагает воду; водород по трубе идёт в "
            "установку, кислород остаётся продуктом.",
            "en": "the card with a purple square: splits water; its hydrogen flows by pipe "
            "into an installation, its oxygen stays a product.",
        },
    ),
)


def tr(key: str, lang: Lang, **values: object) -> str:
    """A fixed text of the rulebook in ``lang``, with its counts filled in."""
    return T[key][lang].format(**values)
