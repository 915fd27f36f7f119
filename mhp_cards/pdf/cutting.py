"""The cutting guide: one page that says in what order to cut the kit, with what, and what to glue.

Its sizes come from the sheet profile (the tokens' diameters for a circle punch, the cards'
sizes for sleeves are on the cover), so a profile of one's own gets a guide of its own.
"""

from __future__ import annotations

from typing import Final

from mhp_cards.errors import TypesetError
from mhp_cards.pdf.layout import Region, SheetProfile
from mhp_cards.pdf.sketch import PageSketch, Sketch
from mhp_cards.pdf.style import INK, MARS
from mhp_cards.pdf.typeset import Run, fit_lines, place_line, text_runs

__all__ = ["plan_cutting"]

_T: Final[dict[str, dict[str, str]]] = {
    "title": {"ru": "Как вырезать и собрать набор", "en": "Cutting and assembling the kit"},
    "tools": {"ru": "Инструменты", "en": "Tools"},
    "tools_text": {
        "ru": "Стальная линейка, макетный нож и коврик для резки (ножницами ровно не выйдет). "
        "Для жетонов — дырокол-кругорез на {coin} мм (монеты), {chemist} мм (фишки химиков) и "
        "{combine} мм (комбайны) или ножницы. Клей-карандаш. По желанию — уголкорез на 3 мм и "
        "ламинатор для памяток и карты Миссий.",
        "en": "A steel ruler, a craft knife and a cutting mat (scissors will not cut straight). "
        "For the tokens a circle punch of {coin} mm (coins), {chemist} mm (chemist tokens) and "
        "{combine} mm (combines), or scissors. A glue stick. If you like, a 3 mm corner rounder "
        "and a laminator for the aids and the Mission card.",
    },
    "order": {"ru": "Порядок", "en": "In this order"},
    "order_text": {
        "ru": "Сначала лист калибровки: напечатайте его с двух сторон и, если оборот сдвинут, "
        "соберите набор снова с --back-offset.|Картон: печатайте раздел за разделом и сразу "
        "подписывайте стопки.|Режьте лист по меткам на полях: сначала все длинные прямые резы "
        "поперёк листа, потом короткие. Каждая карта режется по своей серой линии; узкая полоса "
        "между картами — отход.|Карты установок режьте точно по линии: их трубы должны "
        "сходиться встык.|Жетоны — последними: кругорезом по серому кругу.",
        "en": "The calibration sheet first: print it double-sided and, if the back is shifted, "
        "build the kit again with --back-offset.|Card stock: print section by section and label "
        "the piles at once.|Cut each sheet along the marks in its margins: first all the long "
        "straight cuts across the sheet, then the short ones. Each card is cut on its own grey "
        "line; the narrow strip between two cards is waste.|Cut the installation cards exactly "
        "on the line: their pipes must meet edge to edge.|The tokens last: punch along the grey "
        "circle.",
    },
    "glue": {"ru": "Что склеить", "en": "What to glue"},
    "glue_text": {
        "ru": "Кубик: вырежьте развёртку по контуру, согните по пунктиру, серые клапаны "
        "приклейте внутрь.|Если принтер не печатает с двух сторон: напечатайте лица и обороты "
        "на отдельных листах и склейте их спинками, совместив на просвет до того, как клей "
        "схватится; потом режьте.|Комбайн удобнее брать, если наклеить его на крышку от "
        "бутылки.|Карты Судьбы печатаются с одной стороны: это клетки поля, их не склеивают.",
        "en": "The die: cut the net along its outline, fold on the dashes, glue the grey flaps "
        "inside.|If your printer cannot print double-sided: print the fronts and the backs on "
        "separate sheets and glue them back to back, lining them up against the light before the "
        "glue sets; then cut.|A combine is easier to pick up glued onto a bottle cap.|The Fate "
        "cards are printed on one side: they are the field's tiles, nothing to glue.",
    },
}


def _tr(key: str, lang: str) -> str:
    return _T[key]["en" if lang == "en" else "ru"]


def plan_cutting(
    profile: SheetProfile, lang: str, problems: list[TypesetError]
) -> list[PageSketch]:
    """The one-page cutting guide (typesetting problems go to ``problems``)."""
    width, height = profile.page.dimensions
    m = profile.margins
    left, usable = max(m.left, 14.0), width - 2 * max(m.left, 14.0)
    sketch = Sketch()
    page = sketch.new_page(width, height, "cutting")
    sizes = profile.card_sizes
    values = {
        "coin": f"{sizes['coin'].width:g}",
        "chemist": f"{sizes['chemist'].width:g}",
        "combine": f"{sizes['combine'].width:g}",
    }
    title = Region.text_block(left, max(m.top, 16.0), usable, 12, 18, min_size=12)
    try:
        place_line(
            sketch, text_runs(_tr("title", lang), bold=True), title, "cutting guide", "title", MARS
        )
    except TypesetError as problem:
        problems.append(problem)
    paragraphs: list[list[Run]] = []
    for key in ("tools", "order", "glue"):
        paragraphs.append(text_runs(_tr(key, lang), bold=True, colour=MARS))
        body = _tr(f"{key}_text", lang).format(**values)
        for number, text in enumerate(body.split("|"), start=1):
            lead = f"{number}. " if "|" in body else ""
            paragraphs.append([Run(lead, bold=True), *text_runs(text)])
    top = title.y + title.height + 4
    region = Region.text_block(
        left, top, usable, height - top - max(m.bottom, 16.0), 11.5, min_size=9
    )
    region = region.model_copy(update={"paragraph_gap": 0.5})
    try:
        fit_lines(sketch, paragraphs, region, "cutting guide", "body", INK)
    except TypesetError as problem:
        problems.append(problem)
    return [page]
