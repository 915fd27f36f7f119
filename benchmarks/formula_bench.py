"""Formula-parsing speed of mhp_cards against molmass (and chempy, pymatgen when installed).

Run ``python benchmarks/formula_bench.py`` (about 20 s; a minute with chempy and pymatgen) or
``--quick`` (about 2 s, for the CI smoke test); ``--profile`` adds a cProfile listing of our
parser. molmass comes with ``pip install -e '.[bench]'``; without it only our parser is timed.
Nothing here asserts on timings: the script prints figures for people to read.

What is measured
----------------
The job is "text in, element counts out", the least each library must do to get them:

* mhp_cards: ``parse_formula(text).elements``.
* molmass, four ways, slowest to fastest:

  - ``Formula(text).composition()``: the public call for counts. It parses, then sorts the
    symbols in Hill order, computes the mass and mass fractions and builds a Composition;
  - ``Formula(text)._elements``: the parse alone, ``{symbol: {mass number: count}}``; the
    attribute is documented (``:meta public:`` in molmass) and composition() reads it;
  - ``Formula(text, parse_groups=False, parse_oligos=False, parse_fractions=False)._elements``:
    the same without the preprocessing our grammar does not have anyway (117 ``str.replace``
    calls for abbreviations such as ``Et``, peptide and DNA sequences, mass fractions);
  - the same with ``parse_arithmetic=False`` too: molmass' parse-only route, its tokenizer
    and counter and nothing else, against ours, which also does nothing else (the mass, the
    Hill and Unicode forms are computed only when asked for). This is the cheapest molmass
    route to element counts, so the headline ratio uses it; the second headline is against
    the public ``composition()``, which also computes masses and fractions.

* chempy ``formula_to_composition(text)`` and pymatgen ``Composition(text)`` if importable.

Corpus
------
``benchmarks/formulas.txt``: several hundred distinct real formulas (minerals, hydrates,
coordination compounds with ``[]`` and ``{}``, ions, molecules) in our own spelling. Each is
checked with ``parse_formula``. The grammars differ, so the head-to-head runs on a *common
spelling* that both libraries read as the same composition and charge:

* a hydrate ``A·nB`` becomes ``A(B)n`` (molmass refuses ``·``; we refuse ``CuSO4.5H2O``,
  where ``.`` could be a decimal point: chempy 0.10 and pymatgen 2026.10 do read it as
  CuSO(4.5)H2O, 5.5 oxygens);
* a charge ``^2+`` / ``²⁺`` becomes ``+2`` and ``^-`` a bare ``-`` (molmass knows neither).

A formula whose common spelling molmass refuses or reads differently is left out and
listed. A second table times each library on its own idiom: ours as written in the corpus,
molmass with ``.`` for hydrates (its documented ``CuSO4.5H2O``). The optional libraries run
on the subset of the common spelling they read correctly; ours is timed on the same subset.

Caching
-------
molmass has no formula-level cache: no ``functools.lru_cache`` anywhere in the package, only
``cached_property`` on each ``Formula`` instance, and every call here makes a new instance.
mhp_cards has no cache either. pymatgen has one: ``lru_cache(maxsize=512)`` on its formula
parser, keyed by the string's value, which would turn every pass after the first into dict
lookups (it measured 2 µs a "parse" that way, 10 µs without).

So before timing a library the script collects the ``functools.lru_cache``/``cache``
wrappers in the loaded modules of the benchmarked packages, clears them, runs one pass over
the (distinct) formulas and looks at each cache's size. A cache that now holds an entry per
formula memoizes formulas: it is cleared before every timed pass, outside the timed region.
A smaller one holds lookups shared by all formulas (pymatgen's element table ``get_el_sp``),
warm in any real use just like our own ELEMENTS dict: it stays warm. The script prints both
lists. A pass holds each formula once, so no cache can hit within a pass. Every pass also
gets fresh ``str`` objects (``text.encode().decode()``, made before its timing starts),
against caches keyed by identity or a cached hash. Nothing is appended to the formulas: the
texts timed are exactly the ones checked.

Timing
------
``time.perf_counter`` around each pass over the whole list; a repeat is ``loops`` passes,
enough to last about 0.2 s (0.02 s with ``--quick``); the garbage collector is off inside a
repeat, as in ``timeit``. Libraries alternate within each round (the order rotates), so that
a slow spell of the machine hits all of them. A sample is the mean time per parse over one
repeat; the table gives the best sample (least disturbed: the cost itself) and the median
(typical), and parses/second from each. The loop and call overhead (about 0.04 µs) is in
every figure alike.

Reading the figures
-------------------
``mhp/this`` is the time ratio mhp_cards / that library on the same formulas (the same
strings, except in the "own idioms" table): 0.50 means we take half the time (twice as
fast), 3.0 means three times slower. Trust the best column; the median shows how noisy the
machine was, and differences under about 10 % are noise.

The last table times our parser on generated ~100 to 1000-character worst cases (1000 is the
length limit): a flat chain of elements, 32-level nested groups repeated, and one 32-level
nest around a long chain of distinct elements (each closing bracket merges every element
inside it). Time per character is printed with its ratio to the 100-character case: linear
time keeps the ratio near 1 (a quadratic parser would show about 10 at 1000 characters). The
third case rises to about 1.5-2 around 200-400 characters and falls back towards 1 at 1000:
on top of the linear scan, its 32 closing brackets each merge the distinct elements inside,
at most 32 x 118 dict updates whatever the length, a bounded cost that longer texts dilute.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import importlib.metadata
import itertools
import platform
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from mhp_cards import ELEMENTS, Formula, FormulaError, __version__, parse_formula

CORPUS = Path(__file__).with_name("formulas.txt")
LENGTHS = (100, 200, 400, 800, 1000)
MAX_DEPTH = 32

Counts = tuple[dict[str, float], int]  # element counts, charge: for checking agreement
SYMBOL_OF = {element.number: symbol for symbol, element in ELEMENTS.items()}
FROM_SUBSCRIPT = str.maketrans("₀₁₂₃₄₅₆₇₈₉", "0123456789")


# --- corpus --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One corpus formula in the spellings the libraries read."""

    text: str  # as written in the corpus: mhp_cards' own spelling
    name: str
    common: str  # a spelling molmass and mhp_cards both read
    dotted: str  # molmass' own idiom: '.' before a hydrate's water
    counts: Counts  # what mhp_cards reads from text


def charge_suffix(charge: int) -> str:
    """The charge as molmass and we both read it: ``+``, ``-``, ``+2``, ``-3``."""
    if charge == 0:
        return ""
    sign = "+" if charge > 0 else "-"
    return sign if abs(charge) == 1 else f"{sign}{abs(charge)}"


def respell(formula: Formula, joiner: str) -> str:
    """The formula with its adducts joined by ``joiner`` and a sign-first charge.

    ``joiner=""`` gives the common spelling (``CuSO4(H2O)5``), ``"."`` molmass' own
    (``CuSO4.5H2O``).
    """
    first, *adducts = formula.parts
    out = [first.text.translate(FROM_SUBSCRIPT)]
    for part in adducts:
        text = part.text.translate(FROM_SUBSCRIPT)
        count = str(part.coefficient) if part.coefficient != 1 else ""
        out.append(f".{count}{text}" if joiner == "." else f"({text}){count}")
    return "".join(out) + charge_suffix(formula.charge)


def load_corpus(path: Path) -> list[Entry]:
    entries: list[Entry] = []
    seen: set[str] = set()
    problems: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text, _, name = line.partition("#")
        text = text.strip()
        if not text:
            continue
        if text in seen:
            problems.append(f"{path.name}:{number}: duplicate {text!r}")
            continue
        seen.add(text)
        try:
            formula = parse_formula(text)
        except FormulaError as error:
            problems.append(f"{path.name}:{number}: {error}")
            continue
        counts = ({s: float(n) for s, n in formula.elements.items()}, formula.charge)
        common, dotted = respell(formula, ""), respell(formula, ".")
        entries.append(Entry(text, name.strip(), common, dotted, counts))
    if problems:
        sys.exit("corpus errors:\n" + "\n".join(problems))
    return entries


# --- the libraries ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Engine:
    """A library's cheapest route from text to element counts, and a checker for it."""

    label: str
    call: Callable[[str], object]  # what is timed
    counts: Callable[[str], Counts]  # the same call, read back as counts (setup only)


def _ours_counts(text: str) -> Counts:
    formula = parse_formula(text)
    return {s: float(n) for s, n in formula.elements.items()}, formula.charge


OURS = Engine(
    "mhp_cards parse_formula(t).elements", lambda t: parse_formula(t).elements, _ours_counts
)


def molmass_engines() -> list[Engine]:
    """molmass' routes to element counts, slowest first; ImportError without molmass."""
    from molmass import Formula as MolmassFormula  # noqa: PLC0415  (optional dependency)

    def elements(formula: MolmassFormula) -> Counts:
        counts = {s: float(sum(isotopes.values())) for s, isotopes in formula._elements.items()}
        return counts, formula.charge

    def composition(text: str) -> Counts:
        items = list(MolmassFormula(text).composition().values())
        counts = {item.symbol: float(item.count) for item in items if item.symbol != "e-"}
        charge = -sum(int(item.count) for item in items if item.symbol == "e-")
        return counts, charge

    def bare(text: str) -> MolmassFormula:
        return MolmassFormula(text, parse_groups=False, parse_oligos=False, parse_fractions=False)

    def parse_only(text: str) -> MolmassFormula:
        return MolmassFormula(
            text,
            parse_groups=False,
            parse_oligos=False,
            parse_fractions=False,
            parse_arithmetic=False,
        )

    return [
        Engine(
            "molmass Formula(t).composition()",
            lambda t: MolmassFormula(t).composition(),
            composition,
        ),
        Engine(
            "molmass Formula(t)._elements",
            lambda t: MolmassFormula(t)._elements,
            lambda t: elements(MolmassFormula(t)),
        ),
        Engine(
            "molmass Formula(t, no preproc.)._elements",
            lambda t: bare(t)._elements,
            lambda t: elements(bare(t)),
        ),
        Engine(
            "molmass parse-only (no arithmetic)._elements",
            lambda t: parse_only(t)._elements,
            lambda t: elements(parse_only(t)),
        ),
    ]


def optional_engine(name: str) -> Engine | str:
    """chempy or pymatgen as an Engine, or the reason it is unavailable."""
    try:
        if name == "chempy":
            parsing = importlib.import_module("chempy.util.parsing")
            to_composition: Callable[[str], dict[int, float]] = parsing.formula_to_composition

            def chempy_counts(text: str) -> Counts:
                composition = to_composition(text)
                counts = {SYMBOL_OF[z]: float(n) for z, n in composition.items() if z != 0}
                return counts, int(composition.get(0, 0))

            label = "chempy formula_to_composition(t)"
            return Engine(label, to_composition, chempy_counts)
        core = importlib.import_module("pymatgen.core")
        composition_class: Callable[[str], dict[object, float]] = core.Composition

        def pymatgen_counts(text: str) -> Counts:
            return {str(el): float(n) for el, n in composition_class(text).items()}, 0

        return Engine("pymatgen Composition(t)", composition_class, pymatgen_counts)
    except ImportError:
        return "not installed"


def accepted(
    engine: Engine, entries: Iterable[Entry], spelling: str
) -> tuple[list[Entry], list[str]]:
    """The entries ``engine`` reads right in ``spelling``, and why the others are left out."""
    kept: list[Entry] = []
    dropped: list[str] = []
    for entry in entries:
        text = getattr(entry, spelling)
        try:
            counts = engine.counts(text)
        except Exception as error:  # any refusal just leaves the formula out
            reason = str(error).splitlines()[0] if str(error) else type(error).__name__
            dropped.append(f"{text!r}: refused ({reason})")
            continue
        if counts != entry.counts:
            dropped.append(f"{text!r}: read as {counts[0]} charge {counts[1]}")
            continue
        kept.append(entry)
    return kept, dropped


# --- timing ----------------------------------------------------------------------------------


PACKAGES = ("mhp_cards", "molmass", "chempy", "pymatgen")


class LruCache(Protocol):
    """What ``functools.lru_cache`` and ``functools.cache`` wrappers offer."""

    __qualname__: str

    def cache_info(self) -> Any: ...
    def cache_clear(self) -> None: ...


def find_caches(packages: Iterable[str] = PACKAGES) -> dict[str, LruCache]:
    """Every lru_cache/cache wrapper in the loaded modules of these packages, by name.

    Module-level functions and class attributes (methods, static and class methods).
    """
    found: dict[str, LruCache] = {}
    wanted = set(packages)
    modules = [m for n, m in list(sys.modules.items()) if n.partition(".")[0] in wanted]
    for module in modules:
        for obj in list(vars(module).values()):
            holders = [obj, *vars(obj).values()] if isinstance(obj, type) else [obj]
            for holder in holders:
                target = getattr(holder, "__func__", holder)  # unwrap static/class methods
                if callable(getattr(target, "cache_clear", None)) and hasattr(target, "cache_info"):
                    name = f"{getattr(target, '__module__', '?')}.{target.__qualname__}"
                    found.setdefault(name, target)
    return found


def formula_caches(
    call: Callable[[str], object], texts: Sequence[str]
) -> tuple[dict[str, LruCache], dict[str, LruCache]]:
    """The caches that memoize whole formulas for ``call``, and the others.

    After one pass over distinct texts from cleared caches, a cache holding an entry per
    formula (one per text, or full) memoizes formulas: it is cleared before every timed pass.
    A smaller one holds lookups shared by all formulas (pymatgen's element table
    ``get_el_sp``), warm in real use just like our ELEMENTS dict: it is left warm.
    """
    caches = find_caches()
    for cache in caches.values():
        cache.cache_clear()
    one_pass(call, texts)
    per_formula: dict[str, LruCache] = {}
    shared: dict[str, LruCache] = {}
    for name, cache in caches.items():
        info = cache.cache_info()
        full = len(texts) if info.maxsize is None else min(len(texts), info.maxsize)
        (per_formula if info.currsize >= full else shared)[name] = cache
    return per_formula, shared


def fresh(texts: Sequence[str]) -> list[str]:
    """New str objects with the same contents (no identity, no cached hash)."""
    return [text.encode("utf-8").decode("utf-8") for text in texts]


@dataclass(frozen=True, slots=True)
class Job:
    """One timed subject: a call over a list of texts."""

    label: str
    call: Callable[[str], object]
    texts: tuple[str, ...]
    caches: tuple[LruCache, ...]  # cleared before every pass

    @classmethod
    def of(cls, label: str, call: Callable[[str], object], texts: Iterable[str]) -> Job:
        texts = tuple(texts)
        per_formula, _ = formula_caches(call, texts)
        return cls(label, call, texts, tuple(per_formula.values()))


@dataclass(frozen=True, slots=True)
class Timing:
    """Per-parse times (seconds), one sample per repeat."""

    label: str
    samples: tuple[float, ...]

    @property
    def best(self) -> float:
        return min(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)


def one_pass(call: Callable[[str], object], texts: Sequence[str]) -> None:
    for text in texts:
        call(text)


def timed_repeat(job: Job, loops: int) -> float:
    """Seconds per parse over ``loops`` passes over fresh copies, caches cleared before each."""
    batches = [fresh(job.texts) for _ in range(loops)]
    elapsed = 0.0
    gc.collect()
    gc.disable()
    try:
        for batch in batches:
            for cache in job.caches:
                cache.cache_clear()
            start = time.perf_counter()
            one_pass(job.call, batch)
            elapsed += time.perf_counter() - start
    finally:
        gc.enable()
    return elapsed / (loops * len(job.texts))


def measure(jobs: Sequence[Job], repeats: int, target: float) -> list[Timing]:
    """Time each job ``repeats`` times, interleaved, each repeat lasting about ``target`` s."""
    loops = []
    for job in jobs:
        per_parse = timed_repeat(job, 1)  # warm-up and calibration
        loops.append(max(1, round(target / (per_parse * len(job.texts)))))
    samples: list[list[float]] = [[] for _ in jobs]
    for round_number in range(repeats):
        order = list(range(len(jobs)))
        shift = round_number % len(jobs)
        for index in order[shift:] + order[:shift]:
            samples[index].append(timed_repeat(jobs[index], loops[index]))
    return [Timing(job.label, tuple(s)) for job, s in zip(jobs, samples, strict=True)]


# --- output ----------------------------------------------------------------------------------


def rate(seconds: float) -> str:
    return f"{1 / seconds:,.0f}"


def print_table(title: str, timings: Sequence[Timing], reference: Timing) -> None:
    """One table; ``mhp/this`` compares ``reference`` (ours) with each row, best and median."""
    width = max(len(t.label) for t in timings)
    print(f"\n{title}")
    header = (
        f"  {'':{width}}  {'best µs':>8}  {'median µs':>9}  {'parses/s best':>13}  "
        f"{'parses/s median':>15}  {'mhp/this best':>13}  {'median':>6}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    for t in timings:
        print(
            f"  {t.label:{width}}  {t.best * 1e6:8.2f}  {t.median * 1e6:9.2f}  "
            f"{rate(t.best):>13}  {rate(t.median):>15}  "
            f"{reference.best / t.best:13.2f}  {reference.median / t.median:6.2f}"
        )


def verdict(ours: Timing, other: Timing) -> str:
    ratio = ours.best / other.best
    if ratio <= 1:
        return f"mhp_cards is {1 / ratio:.2f}x faster than {other.label} (best times)"
    return f"mhp_cards is {ratio:.2f}x SLOWER than {other.label} (best times)"


# --- worst cases for the linear-time check -----------------------------------------------------

OPENERS = "([{"
CLOSERS = {"(": ")", "[": "]", "{": "}"}
SYMBOLS = sorted(ELEMENTS, key=lambda s: ELEMENTS[s].number)


def chain_tokens() -> Iterator[str]:
    """Element tokens through the periodic table with counts 2..9: ``H2He3Li4...``."""
    for index in itertools.count():
        yield SYMBOLS[index % len(SYMBOLS)] + str(2 + index % 8)


def chain(length: int) -> str:
    """A flat chain of exactly ``length`` characters."""
    out: list[str] = []
    size = 0
    for token in chain_tokens():
        if size + len(token) > length:
            break
        out.append(token)
        size += len(token)
    return "".join(out) + "H" * (length - size)


def nest(inner: str, depth: int = MAX_DEPTH) -> str:
    """``inner`` wrapped in ``depth`` groups, brackets cycling ( [ {, each closer with a 2."""
    openers = [OPENERS[level % 3] for level in range(depth)]
    return "".join(openers) + inner + "".join(CLOSERS[o] + "2" for o in reversed(openers))


def worst_cases(length: int) -> dict[str, str]:
    block = nest("Fe")  # 98 characters: 32 openers, Fe, 32 closers with counts
    blocks = block * (length // len(block))
    cases = {
        "flat chain": chain(length),
        "32-deep blocks": blocks + "H" * (length - len(blocks)),
        "32-deep nest around chain": nest(chain(length - 3 * MAX_DEPTH)),
    }
    for label, text in cases.items():
        if len(text) != length:
            raise ValueError(f"{label}: built {len(text)} characters, not {length}")
    return cases


def linear_time(repeats: int, target: float) -> None:
    cases = {length: worst_cases(length) for length in LENGTHS}
    for texts in cases.values():
        for text in texts.values():
            parse_formula(text)  # each must be valid: fail loudly here, not in a timing
    jobs = [
        Job.of(f"{label}@{length}", OURS.call, (text,))
        for length, texts in cases.items()
        for label, text in texts.items()
    ]
    timings = {t.label: t for t in measure(jobs, repeats, target)}
    labels = list(cases[LENGTHS[0]])
    width = 18
    print("\nLinear time: mhp_cards on generated worst cases, best ns per character (ratio to 100)")
    print(f"  {'length':>6}" + "".join(f"  {label:>{width + 8}}" for label in labels))
    for length in LENGTHS:
        cells = []
        for label in labels:
            per_char = timings[f"{label}@{length}"].best / length
            base = timings[f"{label}@{LENGTHS[0]}"].best / LENGTHS[0]
            cells.append(f"{per_char * 1e9:{width}.1f} ({per_char / base:4.2f})")
        print(f"  {length:>6}" + "".join(f"  {cell:>{width + 8}}" for cell in cells))
    slowest = max(timings.values(), key=lambda t: t.best)
    print(f"  slowest single parse: {slowest.label} in {slowest.best * 1e6:.1f} µs")


# --- main ------------------------------------------------------------------------------------


def profile(entries: Sequence[Entry], passes: int) -> None:
    texts = [entry.text for entry in entries]
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(passes):
        one_pass(OURS.call, fresh(texts))
    profiler.disable()
    print(f"\ncProfile of mhp_cards over {passes} passes of the corpus (by own time):")
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(12)


def head_to_head(
    entries: Sequence[Entry], engines: Sequence[Engine], repeats: int, target: float
) -> list[Entry]:
    """The molmass tables; returns the common list."""
    print(f"molmass {importlib.metadata.version('molmass')}")
    caches = ", ".join(find_caches()) or "none"
    print(f"functools caches in mhp_cards and molmass: {caches}")

    # The common list: both read the common spelling as the same composition and charge.
    common = list(entries)
    left_out: list[str] = []
    for engine in engines:
        common, dropped = accepted(engine, common, "common")
        left_out += dropped
    respelled = sum(1 for e in common if e.common != e.text)
    print(
        f"common list: {len(common)} formulas ({len(common) - respelled} as written, "
        f"{respelled} respelled: hydrate '·' -> group, '^2+'/superscript -> '+2')"
    )
    print(f"left out (molmass refuses or misreads the common spelling): {len(left_out)}")
    for line in left_out:
        print(f"  {line}")

    texts = tuple(entry.common for entry in common)
    jobs = [Job.of(e.label, e.call, texts) for e in (OURS, *engines)]
    timings = measure(jobs, repeats, target)
    print_table(f"Head-to-head on the common list ({len(texts)} formulas)", timings, timings[0])
    print(f"  => {verdict(timings[0], timings[-1])}")
    print(f"  => {verdict(timings[0], timings[1])}")

    # Each library's own idiom: ours as written; molmass with '.' before hydrate water, which
    # its arithmetic reads, so the parse-only route (no arithmetic) is not in this table.
    idiom = engines[:-1]
    native, left_out = accepted(idiom[-1], entries, "dotted")
    native, dropped = accepted(idiom[0], native, "dotted")
    left_out += dropped
    jobs = [
        Job.of(OURS.label + " [as written]", OURS.call, (e.text for e in native)),
        *(Job.of(e.label + " ['.' hydrates]", e.call, (e.dotted for e in native)) for e in idiom),
    ]
    hydrates = sum(1 for e in native if e.dotted != e.common)
    timings = measure(jobs, repeats, target)
    title = f"Own idioms ({len(native)} formulas, {hydrates} of them hydrates; "
    print_table(title + f"{len(left_out)} left out)", timings, timings[0])
    for line in left_out:
        print(f"  left out: {line}")
    return common


def other_libraries(common: Sequence[Entry], repeats: int, target: float) -> None:
    print("\nOther libraries, on the part of the common list each reads correctly:")
    for name in ("chempy", "pymatgen"):
        engine = optional_engine(name)
        if isinstance(engine, str):
            print(f"  {name}: {engine}")
            continue
        subset, refused = accepted(engine, common, "common")
        if not subset:
            print(f"  {name}: reads none of the common list correctly")
            continue
        texts = tuple(entry.common for entry in subset)
        per_formula, shared = formula_caches(engine.call, texts)
        print(f"  {name}: caches cleared before every pass: {', '.join(per_formula) or 'none'}")
        print(f"  {name}: caches left warm (not per formula): {', '.join(shared) or 'none'}")
        ours, theirs = measure(
            [Job.of(OURS.label, OURS.call, texts), Job.of(engine.label, engine.call, texts)],
            repeats,
            target,
        )
        title = f"  {name}: {len(subset)} formulas ({len(refused)} left out)"
        print_table(title, [ours, theirs], ours)
        print(f"  => {verdict(ours, theirs)}")
        for line in refused[:5]:
            print(f"  left out: {line}")
        if len(refused) > 5:
            print(f"  ... and {len(refused) - 5} more")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short run (CI smoke test)")
    parser.add_argument("--profile", action="store_true", help="add a cProfile listing")
    args = parser.parse_args(argv)
    repeats, target = (5, 0.02) if args.quick else (15, 0.2)
    started = time.perf_counter()

    entries = load_corpus(CORPUS)
    print(
        f"mhp_cards {__version__}, Python {platform.python_version()} ({platform.machine()}), "
        f"{'quick' if args.quick else 'full'} run: {repeats} repeats of ~{target} s"
    )
    print(
        f"corpus: {len(entries)} distinct formulas from {CORPUS.name}, all valid for parse_formula"
    )
    try:
        engines = molmass_engines()
    except ImportError:
        engines = []
    if engines:
        common = head_to_head(entries, engines, repeats, target)
    else:
        print("molmass: not installed (pip install -e '.[bench]'); timing mhp_cards alone")
        common = list(entries)
        jobs = [Job.of(OURS.label, OURS.call, (e.text for e in entries))]
        timings = measure(jobs, repeats, target)
        print_table(f"mhp_cards on the corpus ({len(entries)} formulas)", timings, timings[0])
    other_libraries(common, repeats, target)
    linear_time(max(3, repeats // 2), target / 4)
    if args.profile:
        profile(entries, 20 if args.quick else 200)
    print(f"\ntotal {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
