"""``mhp formula`` and ``mhp reaction``: the chemistry core from the command line."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from mhp_cards.cli.app import app, echo_json, fail, read_inputs
from mhp_cards.errors import FormulaError, ReactionError

if TYPE_CHECKING:  # each command imports the chemistry it uses when it runs
    from mhp_cards.chem.formula import Formula
    from mhp_cards.chem.reaction import Reaction

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON (one object per input).")]


def formula_document(formula: "Formula") -> dict[str, Any]:
    """The JSON form of a formula."""
    return {
        "text": formula.text,
        "valid": True,
        "elements": dict(formula.elements),
        "charge": formula.charge,
        "hill": formula.hill(),
        "unicode": formula.unicode(),
        "mass": round(formula.mass, 6),
        "parts": [
            {"coefficient": part.coefficient, "text": part.text, "elements": dict(part.elements)}
            for part in formula.parts
        ],
    }


def error_document(text: str, error: FormulaError | ReactionError) -> dict[str, Any]:
    """The JSON form of an input that could not be read."""
    return {
        "text": text,
        "valid": False,
        "error": {"message": error.message, "position": error.position, "column": error.column},
    }


def formula_report(formula: "Formula") -> str:
    """The human form of a formula: forms, mass and a per-element table."""
    from mhp_cards.chem.elements import ELEMENTS

    lines = [
        formula.text.strip(),
        f"  unicode  {formula.unicode()}",
        f"  hill     {formula.hill()}",
        f"  charge   {formula.charge:+d}" if formula.charge else "  charge   0",
        f"  mass     {formula.mass:.4f} g/mol",
        "  element  count    mass %",
    ]
    mass = formula.mass or 1.0
    for symbol, count in formula.elements.items():
        share = 100 * ELEMENTS[symbol].atomic_weight * count / mass
        lines.append(f"  {symbol:<7}  {count:>5}  {share:8.2f}")
    if len(formula.parts) > 1:
        parts = " + ".join(
            (f"{part.coefficient} × " if part.coefficient != 1 else "") + part.text
            for part in formula.parts
        )
        lines.append(f"  parts    {parts}")
    return "\n".join(lines)


@app.command()
def formula(
    texts: Annotated[
        list[str], typer.Argument(help="Formulas to read, or '-' to read one per line from stdin.")
    ],
    as_json: JsonOption = False,
) -> None:
    """Read chemical formulas: element counts, Hill and Unicode forms, molar mass.

    Example: mhp formula "CaSO4·2H2O" "[Fe(CN)6]-4"
    """
    from mhp_cards.chem.formula import parse_formula

    failed = False
    for text in read_inputs(texts):
        try:
            parsed = parse_formula(text)
        except FormulaError as error:
            failed = True
            if as_json:
                echo_json(error_document(text, error))
            else:
                typer.echo(f"error: {error}", err=True)
            continue
        if as_json:
            echo_json(formula_document(parsed))
        else:
            typer.echo(formula_report(parsed))
    if failed:
        raise typer.Exit(1)


def reaction_document(reaction: "Reaction", balanced: "Reaction | None") -> dict[str, Any]:
    """The JSON form of a reaction (and of its balanced form when asked for)."""

    def terms(side: "tuple[tuple[int, Formula], ...]") -> list[dict[str, Any]]:
        return [
            {"coefficient": c, "formula": str(f), "elements": dict(f.elements), "charge": f.charge}
            for c, f in side
        ]

    document: dict[str, Any] = {
        "text": reaction.text,
        "valid": True,
        "equation": str(reaction),
        "reactants": terms(reaction.reactants),
        "products": terms(reaction.products),
        "balanced": reaction.is_balanced,
        "imbalance": reaction.imbalance,
        "tally": {
            key: {"left": left, "right": right} for key, (left, right) in reaction.tally().items()
        },
    }
    if balanced is not None:
        document["balanced_equation"] = str(balanced)
    return document


def reaction_report(reaction: "Reaction", balanced: "Reaction | None") -> str:
    """The human form of a reaction: the equation and the tally of both sides."""
    shown = balanced if balanced is not None else reaction
    lines = [str(shown), "  element    left   right"]
    for key, (left, right) in shown.tally().items():
        mark = "" if left == right else f"   ≠ ({right - left:+d})"
        lines.append(f"  {key:<8} {left:>6}  {right:>6}{mark}")
    lines.append("  balanced" if shown.is_balanced else "  NOT balanced")
    return "\n".join(lines)


@app.command()
def reaction(
    text: Annotated[str, typer.Argument(help="The equation, e.g. 'CO2 + 4 H2 -> CH4 + 2 H2O'.")],
    balance: Annotated[
        bool, typer.Option("--balance", help="Find the smallest integer coefficients.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Exit with 1 when the equation is not balanced.")
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Read a reaction, tally both sides, and balance it on request.

    Example: mhp reaction "FeS2 + O2 -> Fe2O3 + SO2" --balance
    """
    from mhp_cards.chem.reaction import parse_reaction

    try:
        parsed = parse_reaction(text)
        balanced = parsed.balance() if balance else None
    except ReactionError as error:
        if as_json:
            echo_json(error_document(text, error))
            raise typer.Exit(1) from None
        fail(str(error))
    if as_json:
        echo_json(reaction_document(parsed, balanced))
    else:
        typer.echo(reaction_report(parsed, balanced))
    if check and not (balanced or parsed).is_balanced:
        raise typer.Exit(1)
