"""The game situation the shot advisor is told of (``shuffle-sim advise --score``), and what it assumes.

The advisor is told the score (the shooter's, the opponent's), whether the shooter has the hammer
(the last shot of the frame; horse collar: throws second in each pair of frames; ricochet: the
opponent started the round) and, optionally, the shots left in the frame after this one, the frames
left after it and the game's length. What it is not told it reads from the board and the score, and
says so: ``advice_situation`` returns the situation (``situations``) with the values it assumed,
each in players' words, keyed by the argument that would have given it.

- Shots left (deck and crokinole, whose frames are rolled out): the shots alternate, the lead's on
  odd numbers and the hammer's on even ones, and every disc on the board (crokinole: and every 20
  set aside this round) was shot once: so at least that many shots were played, and the shot is
  the first of the shooter's after them. A count given is checked against both.
- Rounds left (crokinole): a round gives 2 round points (2 and 0, or 1 each), so the score says how
  many rounds were played. A count given must agree with it.
- Frames left (a deck game of a number of frames): the score does not say it; it must be given.
- Horse collar and ricochet are valued as the frame stands after the shot: neither count applies,
  and giving one is an error.
"""

from __future__ import annotations

from shuffle_sim.playing.players.context import PlayerError, ShotContext
from shuffle_sim.playing.search.situations import (
    DECK_DISCS,
    CrokinoleSituation,
    DeckSituation,
    FrameValueSituation,
    Situation,
)

#: Game points (deck, horse collar, ricochet) or rounds (crokinole) when the advisor is told none.
DEFAULT_LENGTHS = {"deck": 75, "crokinole": 4, "horse-collar": 51, "ricochet": 15}


def advice_situation(
    game: str,
    ctx: ShotContext,
    score: tuple[int, int],
    hammer: bool,
    frames_left: int | None = None,
    shots_left: int | None = None,
    game_length: int | None = None,
    frames: int | None = None,
    championship: bool = False,
) -> tuple[Situation, dict[str, str]]:
    """The situation of ``game`` the advisor is told of (module docstring), and what it assumed: by
    argument name (``shots_left``, ``frames_left``), the value read from the board or the score.

    ``frames``: a deck game of that many frames (MSA C-1) instead of a game point; ``frames_left``
    (the frames after this one) is then needed. ``championship``: a crokinole championship game,
    which plays another round while level after its rounds."""
    if game not in DEFAULT_LENGTHS:
        raise PlayerError(f"advise: no win tables for game {game!r}")
    if frames is not None and game != "deck":
        raise PlayerError(f"advise: frames: only deck is played to a number of frames (got frames={frames!r})")
    if championship and game != "crokinole":
        raise PlayerError(f"advise: championship: only crokinole has a championship game (got {game})")
    mine, theirs = score
    length = game_length or DEFAULT_LENGTHS[game]
    if game in ("horse-collar", "ricochet"):
        for name, given in (("shots_left", shots_left), ("frames_left", frames_left)):
            if given is not None:
                raise PlayerError(
                    f"advise: {name}: {game} is valued as the frame stands after the shot, "
                    f"without a count of shots or frames (got {given!r})"
                )
        return FrameValueSituation(game, mine, theirs, length, not hammer), {}
    assumed: dict[str, str] = {}
    if game == "deck":
        shot, note = _shot_number(DECK_DISCS, ctx.n_discs, 0, hammer, shots_left)
        if note:
            assumed["shots_left"] = note
        if frames is None:
            if frames_left is not None:
                raise PlayerError(
                    f"advise: frames_left: a deck game to a game point has no count of frames (got {frames_left!r})"
                )
            return DeckSituation(mine, theirs, not hammer, shot, length, 0), assumed
        return _frames_game(mine, theirs, hammer, shot, frames, frames_left, game_length), assumed
    from shuffle_sim.playing.crokinole import twenties_of
    from shuffle_sim.rules.crokinole import category

    twenties = twenties_of(ctx)
    shots = 2 * category("singles").discs_per_player
    shot, note = _shot_number(shots, ctx.n_discs, sum(twenties), hammer, shots_left)
    if note:
        assumed["shots_left"] = note
    rounds_left, note = _rounds_left(mine, theirs, length, frames_left, championship)
    if note:
        assumed["frames_left"] = note
    situation = CrokinoleSituation(mine, theirs, *twenties, hammer, shots - shot, rounds_left, length, championship)
    return situation, assumed


def _frames_game(
    mine: int, theirs: int, hammer: bool, shot: int, frames: int, frames_left: int | None, game_length: int | None
) -> DeckSituation:
    """A deck game of ``frames`` frames (MSA C-1), ``frames_left`` after this one: the sides switch
    colours at half way in the games C-1 names (``DeckOptions.switches_colours``)."""
    from shuffle_sim.rules.deck_game import DeckOptions

    if isinstance(frames, bool) or not isinstance(frames, int) or frames < 1:
        raise PlayerError(f"advise: frames must be a positive whole number (got {frames!r})")
    if game_length is not None:
        raise PlayerError(
            f"advise: game_length: a deck game of {frames} frames has no game point (got {game_length!r})"
        )
    if frames_left is None:
        raise PlayerError(f"advise: frames_left: a deck game of {frames} frames needs the frames after this one")
    if isinstance(frames_left, bool) or not isinstance(frames_left, int) or not 0 <= frames_left < frames:
        raise PlayerError(f"advise: frames_left must be a whole number from 0 to {frames - 1} (got {frames_left!r})")
    switch = DeckOptions(frames=frames).switches_colours
    return DeckSituation(mine, theirs, not hammer, shot, frames=frames, played=frames - frames_left - 1, switch=switch)


def _shot_number(shots: int, discs: int, twenties: int, hammer: bool, shots_left: int | None) -> tuple[int, str]:
    """The shot's number (1 to ``shots``) in a frame of alternating shots, the hammer's even, with
    ``discs`` on the board and ``twenties`` set aside already shot; and, without ``shots_left``, what
    was assumed."""
    role = "the hammer" if hammer else "the lead"
    shot_so_far = discs + twenties
    played = f"{discs} disc{'' if discs == 1 else 's'} on the board" + (
        f" and {twenties} 20{'' if twenties == 1 else 's'} set aside" if twenties else ""
    )
    if shots_left is not None:
        if isinstance(shots_left, bool) or not isinstance(shots_left, int) or not 0 <= shots_left < shots:
            raise PlayerError(f"advise: shots_left must be a whole number from 0 to {shots - 1} (got {shots_left!r})")
        shot = shots - shots_left
        if (shot % 2 == 0) != hammer:
            raise PlayerError(
                f"advise: shots_left: {role} shoots the {'even' if hammer else 'odd'}-numbered shots, so an "
                f"{'even' if hammer else 'odd'} number follow its shot (got {shots_left})"
            )
        if shot - 1 < shot_so_far:
            raise PlayerError(
                f"advise: shots_left: {shots_left} shots after this one leave {shot - 1} before it, fewer than "
                f"the {played} (got {shots_left})"
            )
        return shot, ""
    shot = shot_so_far + 1
    if (shot % 2 == 0) != hammer:
        shot += 1
    if shot > shots:
        raise PlayerError(f"advise: the {played} leave no shot for {role} (the frame has {shots})")
    return shot, (
        f"the shots before this one are the fewest the board allows ({played}, each shot once, none "
        f"removed), this one the next of {role}'s: shot {shot} of {shots}"
    )


def _rounds_left(mine: int, theirs: int, rounds: int, frames_left: int | None, championship: bool) -> tuple[int, str]:
    """Crokinole rounds after this one, from the score (2 round points a round; a championship game
    level after its rounds plays on, its extra rounds with none after them); and, without
    ``frames_left``, what was assumed."""
    played, odd = divmod(mine + theirs, 2)
    if mine < 0 or theirs < 0 or odd:
        raise PlayerError(
            f"advise: score: a crokinole round gives 2 round points (2 and 0, or 1 each), so the two "
            f"scores add up to an even number of 0 or more (got {mine}-{theirs})"
        )
    if played >= rounds and not (championship and mine == theirs):
        over = (
            f"a whole game of {rounds} rounds" if not championship else f"past {rounds} and not level: the game is over"
        )
        raise PlayerError(f"advise: score: {mine}-{theirs} is {played} rounds played, {over}")
    left = max(rounds - played - 1, 0)
    if frames_left is None:
        extra = f", level after {rounds}: an extra round" if played >= rounds else ""
        return (
            left,
            f"{left} round{'' if left == 1 else 's'} after this one: {mine}-{theirs} is {played} rounds played{extra}",
        )
    if frames_left != left:
        raise PlayerError(
            f"advise: frames_left: {mine}-{theirs} is {played} rounds played of {rounds}, so {left} "
            f"after this one (got {frames_left!r})"
        )
    return left, ""
