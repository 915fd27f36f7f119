"""The look of the kit in one place: its colours, its fixed texts and its titles.

Faces, pages and the setup sheet take every colour and every fixed string from here, so a
change of wording or of a colour is one edit. Numbers of the game in the texts come from
:mod:`mhp_cards.rules.numbers`.
"""

from __future__ import annotations

from typing import Final

from mhp_cards.rules.numbers import WAREHOUSE_PRICE

__all__ = [
    "BASE",
    "CUT",
    "CUT_CONTOUR",
    "EMPTY",
    "INK",
    "LEVEL_TITLES",
    "MARS",
    "MUTED",
    "PLAYER_SHAPES",
    "PURPLE",
    "RED",
    "SAND",
    "SECTION_TITLES",
    "STRIPE",
    "TEXT",
    "WHITE",
    "t",
]

# Colours of the kit, as sRGB hex.
CUT: Final = "#9A9A9A"
#: The cut path for a cutting plotter: a spot colour by the name RIPs look for (not a #RRGGBB);
#: the renderer writes it as a Separation colour space with a magenta alternate.
CUT_CONTOUR: Final = "spot:CutContour"
INK: Final = "#231F20"
#: The rulebook's grey: running heads, captions of examples, folios, what a ruling replaces.
MUTED: Final = "#6B6B6B"
WHITE: Final = "#FFFFFF"
RED: Final = "#C62828"
PURPLE: Final = "#6A1B9A"
MARS: Final = "#B5462E"
STRIPE: Final = "#F6F1EA"
SAND: Final = "#E8C9A0"
EMPTY: Final = "#F4ECE0"
BASE: Final = "#1F5F8B"

#: The shape on the pieces of each player colour (by colour id), so that players whose colours
#: look alike to them still tell their chemists and combines apart.
PLAYER_SHAPES: Final = {
    "red": "circle",
    "blue": "triangle",
    "green": "square",
    "yellow": "diamond",
    "black": "star",
}

#: Every fixed text of the kit, in Russian and English.
TEXT: Final[dict[str, dict[str, str]]] = {
    "raw": {"ru": "СЫРЬЁ", "en": "RAW MATERIAL"},
    "raw_back": {"ru": "СЫРЬЁ", "en": "RAW MATERIAL"},
    "raw_use_installation": {"ru": "Установка", "en": "Installation"},
    "raw_use_installations": {"ru": "Установки", "en": "Installations"},
    "raw_use_level1": {"ru": "уровень 1:", "en": "level 1:"},
    "raw_use_none": {"ru": "Для продажи и обмена", "en": "For sale and trade"},
    "company": {"ru": "МАРСХИМПРОМ", "en": "MARSCHEMPROM"},
    "fate": {"ru": "КАРТА СУДЬБЫ", "en": "FATE CARD"},
    "base": {"ru": "БАЗА МАРСХИМПРОМА", "en": "MARSCHEMPROM BASE"},
    "base_note": {
        "ru": "Старт комбайнов. Уровень 3: здесь стоят общие установки.",
        "en": "Combines start here. Level 3: shared installations stand here.",
    },
    "warehouse": {"ru": "СКЛАД", "en": "WAREHOUSE"},
    "warehouse_note": {
        "ru": f"Сырьё, проданное Банку. Купить карту — {WAREHOUSE_PRICE} мР.",
        "en": f"Raw cards sold to the Bank. Buy one for {WAREHOUSE_PRICE} mR.",
    },
    "installation": {"ru": "УСТАНОВКА", "en": "INSTALLATION"},
    "electrolyser": {"ru": "ЭЛЕКТРОЛИЗЁР", "en": "ELECTROLYSER"},
    "missions": {"ru": "КАРТА МИССИЙ", "en": "MISSION CARD"},
    "aid_back": {"ru": "ПАМЯТКА ИГРОКА", "en": "PLAYER AID"},
    "aid_item": {"ru": "Памятка игрока (по одной на игрока)", "en": "Player aid (one per player)"},
    "raw-input": {"ru": "сырьё", "en": "input"},
    "product": {"ru": "продукт", "en": "product"},
    "transit": {"ru": "транзит", "en": "transit"},
    "coin_unit": {"ru": "мР", "en": "mR"},
    "from_raw_card": {"ru": "1 карточка сырья", "en": "1 raw card"},
    "from_installation": {"ru": "из установки {numbers}", "en": "from installation {numbers}"},
    "from_installations": {"ru": "из установок {numbers}", "en": "from installations {numbers}"},
    "place_legend": {"ru": "место для фишки химика", "en": "a place for a chemist token"},
    "run_legend": {
        "ru": "место для фишки; за реакцию — 1 фишка на ёмкость",
        "en": "token place; a reaction puts 1 token on each",
    },
    "piped_hydrogen": {
        "ru": "водород ушёл по трубе в установку — фишку на него не ставят",
        "en": "hydrogen piped into an installation takes no token",
    },
    "mission_level1": {"ru": "Уровень 1:", "en": "Level 1:"},
    "transit_note": {
        "ru": "Вещество идёт по трубе дальше; фишки здесь не ставят.",
        "en": "The substance flows on through the pipe; no tokens here.",
    },
    "coin": {"ru": "Монета 1 мР", "en": "Coin, 1 mR"},
    "chemist_tokens": {
        "ru": "Фишки химиков ({per} × {colours} цветов)",
        "en": "Chemist tokens ({per} × {colours} colours)",
    },
    "combines": {"ru": "Комбайны", "en": "Combines"},
    "base_item": {"ru": "Карточка «База МАРСХИМПРОМА»", "en": "Base card"},
    "warehouse_item": {"ru": "Карточка «Склад»", "en": "Warehouse marker"},
    "rulebook_item": {
        "ru": "Правила игры ({pages} стр., не вырезать)",
        "en": "Rules of play ({pages} pages, not cut)",
    },
    "die_item": {"ru": "Развёртка кубика", "en": "Die net"},
    "fate_item": {"ru": "Карта Судьбы (клетка поля)", "en": "Fate card (a field tile)"},
    "missions_item": {"ru": "Карта Миссий", "en": "Mission card"},
    "electrolyser_item": {"ru": "Электролизёр", "en": "Electrolyser"},
    "kit_subtitle": {
        "ru": "Набор для печати и игры: карты, фишки, памятки, схемы сборки",
        "en": "Print-and-play kit: cards, tokens, player aids, assembly guides",
    },
    "how_to_print": {
        "ru": "Печатайте в масштабе 100 % («фактический размер»), с двух сторон, с переворотом "
        "по длинному краю. Начните с листа калибровки. Режьте по серым линиям и меткам на полях.",
        "en": "Print at 100 % (“actual size”), double-sided, flipping on the long edge. Start "
        "with the calibration sheet. Cut along the grey lines and the marks in the margins.",
    },
    "contents_header": {
        "ru": "Раздел / что вырезать|страницы в mhp-kit.pdf|штук",
        "en": "Section / what to cut|pages in mhp-kit.pdf|count",
    },
    "calibration": {
        "ru": "Калибровка двусторонней печати. Напечатайте этот лист с двух сторон ({flip}) на той "
        "же бумаге и с теми же настройками, что и набор, масштаб 100 %. Посмотрите на просвет со "
        "стороны оборота: у каждого креста A, B, C там линейки в миллиметрах от −20 до +20.",
        "en": "Duplex calibration. Print this sheet double-sided ({flip}) on the paper and with "
        "the settings you will use for the kit, at 100 % scale. Hold it against the light, back "
        "side towards you: behind each cross A, B, C the back has rulers in millimetres from −20 "
        "to +20.",
    },
    "calibration_back": {
        "ru": "Оборот калибровки. На просвет прочтите, где вертикальная линия креста пересекает "
        "горизонтальную линейку (это x), а горизонтальная линия — вертикальную (это y). Плюс — "
        "вправо и вниз, как вы смотрите на эту сторону. Соберите набор снова, прибавив "
        "прочитанное к нынешнему сдвигу (сейчас x: {x}, y: {y}): mhp build --back-offset X,Y. "
        "Крест на нуле: ничего менять не нужно.",
        "en": "Calibration back. Against the light, read where the cross's vertical line meets the "
        "horizontal ruler (that is x) and where its horizontal line meets the vertical ruler "
        "(that is y). Plus is to the right and down, as you look at this side. Build the kit "
        "again with the readings added to the present offset (now x: {x}, y: {y}): "
        "mhp build --back-offset X,Y. A cross on zero: nothing to change.",
    },
    "flip_long-edge": {"ru": "переворот по длинному краю", "en": "flip on the long edge"},
    "flip_short-edge": {"ru": "переворот по короткому краю", "en": "flip on the short edge"},
    "flip_none": {"ru": "без переворота", "en": "no flip"},
    "chemist": {"ru": "химик", "en": "chemist"},
    "pipes_only": {"ru": "трубопровод", "en": "pipework"},
}

LEVEL_TITLES: Final = {
    "1": {"ru": "Уровень 1 «Комбайнёры»", "en": "Level 1 “Combiners”"},
    "2": {"ru": "Уровень 2 «Химики»", "en": "Level 2 “Chemists”"},
    "1v1": {"ru": "«Химики — один на один»", "en": "“Chemists — head to head”"},
    "3": {"ru": "Уровень 3 «Профи»", "en": "Level 3 “Pros”"},
}
SECTION_TITLES: Final = {
    "cover": {"ru": "Обложка и состав набора", "en": "Cover and contents"},
    "rules": {"ru": "Правила игры", "en": "Rules of play"},
    "calibration": {"ru": "Калибровка двусторонней печати", "en": "Duplex calibration"},
    "cutting": {"ru": "Как вырезать и собрать", "en": "Cutting and assembling"},
    "raw": {"ru": "Карточки сырья", "en": "Raw-material cards"},
    "fate": {"ru": "Карты Судьбы (поле)", "en": "Fate cards (the field)"},
    "field": {"ru": "База и Склад", "en": "Base and Warehouse"},
    "reactors": {
        "ru": "Карты установок и электролизёры",
        "en": "Installation and electrolyser cards",
    },
    "mission": {"ru": "Карта Миссий", "en": "Mission card"},
    "tokens": {
        "ru": "Монеты, фишки, комбайны, улучшения",
        "en": "Coins, tokens, combines, upgrades",
    },
    "aids": {"ru": "Памятки игрока", "en": "Player aids"},
    "guides": {"ru": "Схемы сборки установок", "en": "Installation assembly guides"},
}


def t(key: str, lang: str) -> str:
    """A fixed text of the kit in ``lang``."""
    return TEXT[key][lang]
