import json

from mhp_cards.cli import app


def test_formula_human(cli) -> None:
    result = cli("formula", "CaSO4·2H2O")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "CaSO4·2H2O"
    assert "  unicode  CaSO₄·2H₂O" in lines
    assert "  hill     CaH4O6S" in lines
    assert "  mass     172.1640 g/mol" in lines
    assert "  parts    CaSO4 + 2 × H2O" in lines


def test_formula_json_lines(cli) -> None:
    result = cli("formula", "--json", "Fe2O3", "NH4+")
    assert result.exit_code == 0
    documents = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["elements"] for d in documents] == [{"Fe": 2, "O": 3}, {"N": 1, "H": 4}]
    assert documents[1]["charge"] == 1
    assert documents[1]["unicode"] == "NH₄⁺"


def test_formula_invalid_exits_1_with_caret_on_stderr(cli) -> None:
    result = cli("formula", "H2O", "Н2О")
    assert result.exit_code == 1
    assert result.stdout.startswith("H2O\n")
    assert result.stderr.splitlines() == [
        "error: Cyrillic 'Н' at 1, did you mean Latin 'H'?",
        "  Н2О",
        "  ^",
    ]


def test_formula_invalid_json(cli) -> None:
    result = cli("formula", "--json", "CuSO4.5H2O")
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert document["valid"] is False
    assert document["error"]["position"] == 5
    assert "CuSO4·5H2O" in document["error"]["message"]


def test_formula_from_stdin(cli) -> None:
    result = cli("formula", "--json", "-", input="H2O\n\nCO2\n")
    assert result.exit_code == 0
    assert [json.loads(line)["hill"] for line in result.stdout.splitlines()] == ["H2O", "CO2"]


def test_reaction_balance(cli) -> None:
    result = cli("reaction", "FeS2 + O2 -> Fe2O3 + SO2", "--balance")
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "4 FeS2 + 11 O2 -> 2 Fe2O3 + 8 SO2",
        "  element    left   right",
        "  Fe            4       4",
        "  S             8       8",
        "  O            22      22",
        "  balanced",
    ]


def test_reaction_unbalanced_tally_and_check(cli) -> None:
    result = cli("reaction", "H2 + O2 -> H2O")
    assert result.exit_code == 0
    assert "  O             2       1   ≠ (-1)" in result.stdout.splitlines()
    assert "  NOT balanced" in result.stdout.splitlines()
    assert cli("reaction", "--check", "H2 + O2 -> H2O").exit_code == 1
    assert cli("reaction", "--check", "2 H2 + O2 -> 2 H2O").exit_code == 0


def test_reaction_json(cli) -> None:
    result = cli("reaction", "--json", "--balance", "Fe+3 + e- -> Fe+2")
    document = json.loads(result.stdout)
    assert document["balanced"] is True
    assert document["tally"]["charge"] == {"left": 2, "right": 2}
    assert document["reactants"][1] == {
        "coefficient": 1,
        "formula": "e-",
        "elements": {},
        "charge": -1,
    }


def test_reaction_errors(cli) -> None:
    result = cli("reaction", "H2 -> O2", "--balance")
    assert result.exit_code == 1
    assert result.stderr.startswith("error: cannot be balanced: H appears only on the left side")
    assert cli("reaction").exit_code == 2


def test_usage_error_exits_2(cli) -> None:
    assert cli("formula").exit_code == 2
    assert cli("no-such-command").exit_code == 2


def test_every_command_has_help_with_an_example(cli) -> None:
    import typer.main

    group = typer.main.get_command(app)
    names = []

    def walk(command, path):
        subcommands = getattr(command, "commands", None)
        if subcommands:
            for name, sub in subcommands.items():
                walk(sub, [*path, name])
        else:
            names.append(path)

    walk(group, [])
    assert names
    for path in names:
        result = cli(*path, "--help")
        assert result.exit_code == 0, path
        assert "Example:" in result.stdout, path
