"""The result of one simulated game: a small value, cheap to send back from a worker process."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["GameResult"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """How one simulated game went."""

    index: int
    seed: int
    steps: int
    rounds: int
    ended_by: str
    """``state.end_code``, or ``step-cap`` when the cap stopped the game."""
    mission: str | None
    """The mission completed, if any."""
    winners: tuple[int, ...]
    """The winning seats (0 for the first player); several on a tie."""
    reactions: tuple[tuple[int, int], ...]
    """(installation number, reactions it ran), by installation number."""
    first_completion_turn: int | None
    """The turn (``turn_number``) on which a mission was first completed, if one was."""
    round_scores: tuple[tuple[int, ...], ...] = ()
    """Each seat's score (the level's rule) at the end of each round: item ``r - 1`` is round
    ``r``; the last item is the position at the game's end, maybe within its last round."""
    round_missions: tuple[int, ...] = ()
    """Missions completed by the end of each round (the same rounds as ``round_scores``)."""
    mission_turns: tuple[tuple[str, int], ...] = ()
    """(mission ID, the turn it was first completed) for each mission completed, by turn."""
    attacks: int = 0
    """Attacks declared (L1.T4): moves that started a fight."""
    armour: int = 0
    """Armour bought (L1.T6)."""
