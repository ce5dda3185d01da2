"""A game between people and built-in agents: decisions in, the agents' answers applied, the battle
log kept, the game saved after every decision.

:class:`PlaySession` is what the browser page (:mod:`.server`) and the text mode (:mod:`.text`)
share. It holds one :class:`~atomic_africa.game.Game`; each side is played by ``"human"`` (a person
at this screen) or by a built-in agent (:data:`atomic_africa.agents.AGENTS`). A person's decision is
checked (their turn, the game not moved on since they looked, a legal action) and applied; then the
agents play until a person must decide again or the game ends; then the game is saved, under a
temporary name renamed into place, as :meth:`Game.to_json <atomic_africa.game.Game.to_json>` writes
it, so ``atomic-africa play --load FILE`` resumes it and ``atomic-africa render FILE`` draws it.
"""
from __future__ import annotations

import os
import threading

from .._atomic_write import replaced_atomically
from .._input_limits import open_bounded
from .._text import printable
from ..agents import AGENTS, make_agent
from ..game import Game
from ..game.engine import IllegalActionError
from ..game.saved import MAX_TEXT, SavedGameError
from ..game.state import NO_CARD
from ..replay.frames import PhaseUnits
from ..replay.html import board_data, frame_data, render_html, replay_data
from ..replay.narrate import Narrator, card_words, result_line, side_tables
from .choices import legal_choices, prompt

__all__ = ["PlaySession", "PlayError", "PLAYERS", "parse_players", "FORMAT"]

#: Who may play a side: a person at this screen, or a built-in agent.
PLAYERS = ("human",) + tuple(sorted(AGENTS))
#: The format tag of :meth:`PlaySession.state`.
FORMAT = "atomic-africa-play/1"


class PlayError(ValueError):
    """A decision refused (not a person's turn, out of date, not legal, malformed); nothing changed.

    Attributes
    ----------
    status : int
        The HTTP status the play server answers with (400 malformed, 409 refused now).
    """

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


def parse_players(value) -> list:
    """Who plays each side, from ``"human,greedy"`` or a sequence of two names.

    Parameters
    ----------
    value : str or sequence of str
        Two of :data:`PLAYERS` (case and spaces ignored), the scenario's first side first; at
        least one ``"human"``.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        Naming ``players`` and the allowed values.
    """
    names = value.split(",") if isinstance(value, str) else list(value)
    names = [str(n).strip().lower() for n in names]
    if len(names) != 2:
        raise ValueError(f"players: expected two comma-separated players (the first and second side), got "
                         f"{printable(repr(value))[:60]}; allowed: {', '.join(PLAYERS)}")
    for n in names:
        if n not in PLAYERS:
            raise ValueError(f"players: unknown player {printable(repr(n))[:40]}; allowed: {', '.join(PLAYERS)}")
    if "human" not in names:
        raise ValueError("players: at least one side must be 'human' (agents against each other: "
                         "'atomic-africa battle --agents A,B')")
    return names


def read_game(path) -> Game:
    """A saved game (``Game.to_json``) from ``path``, every error naming the file.

    Parameters
    ----------
    path : str or PathLike

    Returns
    -------
    Game

    Raises
    ------
    ValueError
        If the file is not a saved game (too large, not JSON, a field wrong: the message names
        the file and the field).
    OSError
        If it cannot be read.
    """
    name = os.fspath(path)
    with open_bounded(path, MAX_TEXT, ValueError, "saved game") as fh:
        data = fh.read()
    try:
        return Game.from_json(data)
    except (SavedGameError, ValueError, TypeError) as exc:
        raise ValueError(f"{name}: not a saved game ({exc})") from None


class PlaySession:
    """A game between people and agents, its battle log, and its save file.

    Parameters
    ----------
    game : Game
        The game to play on (new, or loaded: its history is replayed once to rebuild the log).
    players : str or sequence of two str
        Who plays each side (see :func:`parse_players`).
    save : str or PathLike, optional
        Where the game is saved after every decision (nowhere if None).
    verbose : bool
        The battle log shows the dice and the reason of every result.
    search : dict, optional
        Search parameters of an ``"ismcts"`` player (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``, as :class:`~atomic_africa.agents.ISMCTSAgent` takes them);
        its defaults otherwise.

    Attributes
    ----------
    game : Game
    players : list of str
    log : list of str
        The battle log so far (:class:`~atomic_africa.replay.narrate.Narrator`'s lines).
    lock : threading.RLock
        Held by every method that reads or changes the game (the server answers requests from
        several threads).

    Notes
    -----
    The agents are built as ``atomic-africa battle`` builds them (side ``k`` seeded with the game
    seed + ``k``). A resumed game continues with new agents: the random agent's later choices
    differ from those it would have made without the pause.
    """

    def __init__(self, game: Game, players=("human", "greedy"), save=None, verbose: bool = False, search=None):
        self.players = parse_players(players)
        self.save_path = None if save is None else os.fspath(save)
        self.verbose = bool(verbose)
        self.lock = threading.RLock()
        self.agents = [None if p == "human" else make_agent(p, game.seed + k, search=search)
                       for k, p in enumerate(self.players)]
        self._replay_page = None
        self._torn = False
        self.scenario = game.scenario
        self._rebuild(game)
        self.advance()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, scenario=None, seed: int = 0, players=("human", "greedy"), rules=None, save=None,
            verbose: bool = False, search=None) -> PlaySession:
        """A new game (see :class:`~atomic_africa.game.Game` for ``scenario``, ``seed``, ``rules``),
        saved at once if ``save`` is given.

        Returns
        -------
        PlaySession
        """
        session = cls(Game(scenario, seed, rules), players, save, verbose, search)
        session.save()
        return session

    @classmethod
    def load(cls, path, players=("human", "greedy"), save=None, verbose: bool = False, search=None) -> PlaySession:
        """Resume the game saved in ``path`` (saving to ``save``, by default ``path`` itself).

        Returns
        -------
        PlaySession

        Raises
        ------
        ValueError
            If ``path`` is not a saved game (named), or ``players`` is invalid.
        OSError
            If it cannot be read.
        """
        return cls(read_game(path), players, path if save is None else save, verbose, search)

    def _rebuild(self, game: Game) -> None:
        """Take ``game``, with the battle log of its history (replayed from the start)."""
        labels = [self.who(p) for p in range(2)]
        fresh = Game(game.scenario, game.seed, game.rules)
        narrator = Narrator(fresh, verbose=self.verbose)
        log = narrator.opening(labels) + narrator.feed(fresh.events, fresh.units)
        tracker = PhaseUnits()
        try:
            for a in game.history:
                log += narrator.feed(tracker.apply(fresh, a), fresh.units)
            same = fresh.state_hash() == game.state_hash()
        except ValueError:
            same = False
        if not same:
            # Not the game its seed and history give (scripted randomness, another engine version):
            # play on from the saved state itself, its log told from its own events in one batch
            # (units named as set up and as they stand now).
            start = Game(game.scenario, game.seed, game.rules)
            fresh, tracker = game, PhaseUnits()
            narrator = Narrator(start, verbose=self.verbose)
            log = narrator.opening(labels) + narrator.feed(game.events, game.units)
            log.append(f"(resumed from the saved state at decision {len(game.history)}: its history does not "
                       "replay to it, so the log above is told from its saved events)")
        self.game, self.narrator, self.tracker, self.log = fresh, narrator, tracker, log

    # ------------------------------------------------------------------ playing
    def who(self, player: int) -> str:
        """``"you"``, an agent's name, or with two people ``"player 1"``/``"player 2"``."""
        who = self.players[player]
        if who == "human":
            who = "you" if self.players.count("human") == 1 else f"player {player + 1}"
        return who

    def label(self, player: int) -> str:
        """``"Blue (you)"``, ``"Red (greedy)"``; with two people ``"Blue (player 1)"``."""
        return f"{printable(self.scenario.sides[player].name)} ({self.who(player)})"

    @property
    def human_to_play(self) -> bool:
        """Whether a person decides next (False once the game is over)."""
        g = self.game
        return not g.is_over and self.players[g.current_player] == "human"

    def _apply(self, action: int) -> None:
        # A decision cut short (Ctrl-C in the terminal) leaves the game half-applied: never saved.
        self._torn = True
        new = self.tracker.apply(self.game, action)
        self.log += self.narrator.feed(new, self.game.units)
        self._torn = False

    def advance(self) -> int:
        """Let the agents play until a person must decide or the game ends.

        Returns
        -------
        int
            Decisions the agents took.
        """
        n = 0
        with self.lock:
            g = self.game
            while not g.is_over and self.players[g.current_player] != "human":
                self._apply(self.agents[g.current_player].act(g))
                n += 1
        return n

    def act(self, action, step=None) -> None:
        """Apply a person's decision, then the agents' answers, then save.

        Parameters
        ----------
        action : int
            One of the game's legal action ids.
        step : int, optional
            The number of decisions taken when the person chose (``len(game.history)``): a decision
            taken on an older view of the game is refused.

        Raises
        ------
        PlayError
            If the game is over, it is an agent's turn, ``step`` is not the game's, or ``action``
            is not an integer or not legal now; the game is unchanged.
        """
        if isinstance(action, bool) or not isinstance(action, int):
            raise PlayError(f"action: expected an action id (an integer), got {printable(repr(action))[:40]}", 400)
        if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
            raise PlayError(f"step: expected an integer, got {printable(repr(step))[:40]}", 400)
        with self.lock:
            g = self.game
            if g.is_over:
                raise PlayError(f"action {action}: the game is over")
            if not self.human_to_play:   # pragma: no cover - advance() runs after every decision
                raise PlayError(f"action {action}: it is {self.label(g.current_player)}'s turn")
            if step is not None and step != len(g.history):
                raise PlayError(f"step: {step} is out of date; the game is at decision {len(g.history)} "
                                "(reload to see it)")
            try:
                self._apply(action)
            except IllegalActionError as exc:   # the engine leaves the game as it was
                raise PlayError(str(exc)) from None
            self.advance()
            self.save()

    def save(self) -> bool:
        """Write the game to the save file (if any), under a temporary name renamed into place.

        Returns
        -------
        bool
            Whether it was written: not without a save file, nor when a decision was interrupted
            half-way (the file keeps the game as of the last whole decision).
        """
        if self.save_path is None or self._torn:
            return False
        with self.lock:
            text = self.game.to_json()
        with replaced_atomically(self.save_path) as tmp, open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        return True

    # ------------------------------------------------------------------ views
    def choices(self) -> list:
        """The legal choices of the person to play (:func:`~atomic_africa.play.choices.legal_choices`);
        empty when no person is to play."""
        with self.lock:
            return legal_choices(self.game) if self.human_to_play else []

    def prompt(self) -> str:
        """The question of the current decision (``"The battle is over."`` once it is)."""
        with self.lock:
            return "The battle is over." if self.game.is_over else prompt(self.game)

    def result_text(self) -> str:
        """The result line (``"Result: Blue (you) wins - ..."``), or "" while the game runs."""
        g = self.game
        if not g.is_over:
            return ""
        return result_line(g, [self.who(p) for p in range(2)])

    def closing(self) -> list:
        """The closing tables of a finished game (each side's units and figures)."""
        return side_tables(self.game, [self.who(p) for p in range(2)])

    def forces(self, viewer=None) -> list:
        """Each side's units as the ``viewer`` may see them: order cards of the viewer's own units,
        and of any unit that has revealed its card.

        Parameters
        ----------
        viewer : int, optional
            The player looking (default: the person to play, or no one while an agent plays); once
            the game is over every card is shown.

        Returns
        -------
        list of two dict
            ``side``, ``label``, ``hand`` (the viewer's own Reserve cards, in words) and ``units``
            (``uid``, ``name``, ``kind``, ``figures``, ``markers``, ``wounds``, ``card``, ``status``).
        """
        with self.lock:
            g = self.game
            if viewer is None:
                viewer = g.current_player if self.human_to_play else -1
            everything = g.is_over
            out = []
            for p in range(2):
                pl = g.s.players[p]
                mine = p == viewer or everything
                units = []
                for u in g.units:
                    if not (u.alive and u.side == p):
                        continue
                    card = None
                    if u.card != NO_CARD and (mine or u.revealed):
                        card = card_words(g.deck.name(u.card))
                    status = ("acted" if u.acted else "has orders" if u.card != NO_CARD else "no orders")
                    kind = ("infantry", "light infantry", "vehicle")[int(u.kind)]
                    units.append({"uid": u.uid, "name": u.name, "kind": kind,
                                  "figures": u.figures, "markers": u.markers, "wounds": u.wounds,
                                  "card": card, "status": status, "commander": bool(u.commander)})
                hand = [card_words(g.deck.name(c)) for c in sorted(pl.hand)] if mine else None
                out.append({"side": g.scenario.sides[p].name, "label": self.label(p), "hand": hand,
                            "reserve": len(pl.hand), "units": units})
            return out

    def state(self, log_from: int = 0) -> dict:
        """Everything the play page shows, as a JSON-able dict.

        Parameters
        ----------
        log_from : int
            Battle log lines the page already has (only the newer ones are sent).

        Returns
        -------
        dict
            ``format``, ``board`` (:func:`~atomic_africa.replay.html.board_data`), ``step`` (decisions
            so far), ``turn``, ``turns``, ``stage``, ``over``, ``result``, ``players`` (labels),
            ``to_play`` (the player who decides, -1 once over), ``human`` (a person decides now),
            ``prompt``, ``actor`` (the unit the decision is about, a uid, or None), ``choices``
            (:func:`~atomic_africa.play.choices.legal_choices`), ``forces``
            (:meth:`forces`), ``frame`` (the table now, and the moves and shots of the last phase
            resolved with their odds, as a replay page's frame), ``log`` (lines from ``log_from``
            on), ``log_total`` and ``save`` (the save file, or None).
        """
        with self.lock:
            g = self.game
            log_from = max(0, min(int(log_from), len(self.log)))
            return {
                "format": FORMAT, "board": board_data(g.scenario), "step": len(g.history), "turn": g.s.turn,
                "turns": g.scenario.turns, "stage": g.stage.lower(), "over": g.is_over,
                "result": self.result_text() or None, "players": [self.label(p) for p in range(2)],
                "to_play": g.current_player, "human": self.human_to_play, "prompt": self.prompt(),
                "actor": g.s.decl_uid if g.s.decl_uid >= 0 and not g.is_over else None,
                "choices": self.choices(), "forces": self.forces(),
                "frame": frame_data(g, (), None, self.tracker.units, self._resolved_phase()),
                "log": self.log[log_from:], "log_total": len(self.log), "save": self.save_path,
            }

    def _resolved_phase(self) -> list:
        """The events of the last Activation phase whose fire is resolved (while a phase is being
        declared, the table still shows the one before it), from its ``activate`` event on."""
        events = self.game.events
        end = len(events)
        for i in range(len(events) - 1, -1, -1):
            t = events[i]["type"]
            if t in ("activate", "setup"):
                if any(e["type"] == "roll" for e in events[i:end]) or t == "setup":
                    return events[i:end]
                end = i
        return []   # pragma: no cover - a game's log starts with its set-up

    def replay_page(self) -> str:
        """The replay page of the game so far (``atomic-africa render --html``'s page), cached once
        the game is over.

        Returns
        -------
        str
        """
        with self.lock:
            if self._replay_page is not None:
                return self._replay_page
            g = self.game
            page = render_html(replay_data(g.scenario.to_dict(), g.rules.to_dict(), g.seed, list(g.history)))
            if g.is_over:
                self._replay_page = page
            return page
