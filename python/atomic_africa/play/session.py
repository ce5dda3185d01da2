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
import re
import threading

from .._atomic_write import replaced_atomically
from .._input_limits import open_bounded
from .._text import printable
from ..agents import AGENTS, make_agent
from ..game import Game, packaged_scenarios
from ..game.outcome import IllegalActionError
from ..game.events import hide_event
from ..game.saved import MAX_TEXT, SavedGameError
from ..game.state import NO_CARD
from ..replay.frames import PhaseUnits
from ..replay.html import board_data, frame_data, render_html, replay_data
from ..replay.narrate import Narrator, card_words, result_line, side_tables
from .choices import legal_choices, prompt
from .ruler import measure

__all__ = ["PlaySession", "PlayError", "PLAYERS", "LEVELS", "RETRACTABLE", "parse_players", "next_save_path",
           "FORMAT"]

#: The AI levels a person may play against, easiest first, and the built-in agent each one is.
#: ``hard`` is the search agent with its default search (about 10-20 ms a decision on the packaged
#: scenarios, so a person never waits for it); ``--search-*`` options change it. ``expert`` is the
#: strongest: the packaged policy-value network's priors guiding a PUCT search whose leaves are
#: valued by greedy play-outs (``--network`` and ``--puct-*`` change them).
LEVELS = {"easy": "heuristic", "normal": "greedy", "hard": "ismcts", "expert": "puct"}
#: What each level plays like, as the page and ``--help`` say it.
LEVEL_WORDS = {"easy": "rules of thumb, one step ahead", "normal": "the greedy agent: the best exact odds now",
               "hard": "the ismcts search: plans ahead over what its side may know",
               "expert": "a trained network guiding a search that plays each line out greedily (PUCT)"}
#: Who may play a side: a person at this screen, an AI level, or a built-in agent by name.
PLAYERS = ("human",) + tuple(LEVELS) + tuple(sorted(AGENTS))
#: The format tag of :meth:`PlaySession.state`.
FORMAT = "atomic-africa-play/2"
#: The events a side's own declarations log. A person's decision that logged only these, each of
#: its own side, showed that person nothing new (no card drawn, no die rolled, no answer of the
#: other side) and is undone exactly by replaying the game without it: it may be taken back
#: (:meth:`PlaySession.undoable`). Any other event makes a decision final.
RETRACTABLE = ("assign", "orders_done", "activate", "react", "reserve_card", "declare", "targets", "move")


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
        least one ``"human"``. An AI level (``easy``, ``normal``, ``hard``: :data:`LEVELS`) is
        kept as given and played by its agent.

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


def next_save_path(path):
    """A save file beside ``path`` that does not exist yet: ``game.json`` -> ``game-2.json``,
    ``game-3.json`` ... (a game started or loaded from the page never overwrites another's file).

    Parameters
    ----------
    path : str or PathLike or None

    Returns
    -------
    str or None
        None when ``path`` is None (a game saved nowhere starts another saved nowhere).
    """
    if path is None:
        return None
    base, ext = os.path.splitext(os.fspath(path))
    base = re.sub(r"-[0-9]+$", "", base)
    n = 2
    while os.path.exists(f"{base}-{n}{ext}"):
        n += 1
    return f"{base}-{n}{ext}"


def _level_of(player: str):
    """The AI level a player is, if any (``greedy`` is ``normal``; ``doctrine`` none)."""
    if player in LEVELS:
        return player
    return next((lv for lv, agent in LEVELS.items() if agent == player), None)


def _public(event: dict) -> dict:
    """An event as both players may know it: what either could not know hidden (a screen two
    people share shows no draw of either)."""
    return hide_event(hide_event(event, 0), 1)


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
        Search parameters of an ``"ismcts"`` (``"hard"``) player (some of ``simulations``,
        ``exploration``, ``rollout``, ``rollout_depth``, ``width``, as
        :class:`~atomic_africa.agents.ISMCTSAgent` takes them); its defaults otherwise.
    learned : Learned or str or PathLike, optional
        The network and search of a ``"puct"`` (``"expert"``) or ``"network"`` player
        (:func:`atomic_africa.agents.learned.check_learned`, or a network file); default: the packaged
        network with the search's defaults.

    Attributes
    ----------
    game : Game
    players : list of str
    log : list of str
        The battle log so far, as the people at this screen may see it: with one person, their
        side's view of the events (``game.events(player=p)``: the other side's draws and face-down
        cards are never named); with two people, what both may see.
    playback : dict
        What happened since a person last decided, step by step, for the page to play out: ``from``
        (the decision it starts after) and ``steps``, each ``player`` (who decided), ``label``,
        ``step`` (decisions taken after it), ``lines`` (the battle log of that step with the dice and
        the reasons, as the people at this screen may see it) and ``frame`` (the table after it).
        Empty without agents.
    game_id : int
        Which game of a server this is (the page's new games and loads count up); a decision
        posted for another is refused.
    lock : threading.RLock
        Held by every method that reads or changes the game (the server answers requests from
        several threads).

    Notes
    -----
    The agents are built as ``atomic-africa battle`` builds them (side ``k`` seeded with the game
    seed + ``k``). A resumed game continues with new agents: the random agent's later choices
    differ from those it would have made without the pause.

    With two people at one screen the screen is handed over whenever the side to move changes
    (:meth:`handover_to`, :meth:`take_screen`): until the next person takes it, :meth:`state`
    shows neither side's cards.
    """

    def __init__(self, game: Game, players=("human", "greedy"), save=None, verbose: bool = False, search=None,
                 learned=None):
        self.players = parse_players(players)
        self.save_path = None if save is None else os.fspath(save)
        self.verbose = bool(verbose)
        self.search = search
        self.learned = learned
        self.lock = threading.RLock()
        self.agents = [None if p == "human" else make_agent(LEVELS.get(p, p), game.seed + k, search=search,
                                                            network=learned)
                       for k, p in enumerate(self.players)]
        humans = [p for p in range(2) if self.players[p] == "human"]
        # The log's view: the one person's side, or (None) what both people at the screen may see.
        self.view = humans[0] if len(humans) == 1 else None
        self.game_id = 0
        self._replay_page = None
        self._torn = False
        self.scenario = game.scenario
        # The side whose units stand lower on the table at set-up: the table is drawn from its edge,
        # and turned for the other side's person.
        ys = [[u.position[1] for u in side.units] for side in game.scenario.sides]
        self._bottom = 0 if sum(ys[0]) / max(1, len(ys[0])) <= sum(ys[1]) / max(1, len(ys[1])) else 1
        self._rebuild(game)
        # Nothing decided before this session started can be taken back (the agents of a resumed
        # game are new, and its history may not replay).
        self._final = len(self.game.history)
        self._screen = None    # with two people: the side holding the screen (None: not handed yet)
        self._new_playback()
        self.advance()

    # ------------------------------------------------------------------ construction
    @classmethod
    def new(cls, scenario=None, seed: int = 0, players=("human", "greedy"), rules=None, save=None,
            verbose: bool = False, search=None, learned=None) -> PlaySession:
        """A new game (see :class:`~atomic_africa.game.Game` for ``scenario``, ``seed``, ``rules``),
        saved at once if ``save`` is given.

        Returns
        -------
        PlaySession
        """
        session = cls(Game(scenario, seed, rules), players, save, verbose, search, learned)
        session.save()
        return session

    @classmethod
    def load(cls, path, players=("human", "greedy"), save=None, verbose: bool = False, search=None,
             learned=None) -> PlaySession:
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
        return cls(read_game(path), players, path if save is None else save, verbose, search, learned)

    def _seen(self, events) -> list:
        """``events`` as the people at this screen may know them (see :attr:`log`)."""
        if self.view is None:
            return [_public(e) for e in events]
        return [hide_event(e, self.view) for e in events]

    def _start(self, game: Game):
        """Narrators of a game at its set-up (the log's, and the playback's when agents play) and
        the log so far."""
        labels = [self.who(p) for p in range(2)]
        narrator = Narrator(game, verbose=self.verbose)
        # The page plays the agents' turns out with the dice and the reasons whatever --verbose says.
        told = (narrator if self.verbose else Narrator(game, verbose=True)) if any(self.agents) else None
        opening = narrator.opening(labels)
        # The seed replays every draw, both hands included: hidden information, never on the screen.
        seeded = f", seed {game.seed}, {game.scenario.turns} turns"
        if opening[0].endswith(seeded):
            opening[0] = opening[0][:-len(seeded)] + f", {game.scenario.turns} turns"
        return narrator, told, opening

    def _feed(self, narrator, told, events, units) -> tuple:
        seen = self._seen(events)
        lines = narrator.feed(seen, units)
        if told is None:
            return lines, []
        return lines, (lines if told is narrator else told.feed(seen, units))

    def _replay(self, scenario, seed, rules, actions, like=None) -> bool:
        """Play ``actions`` from the set-up, with the log, and take that game if it is ``like``'s
        (a state hash; any with None). Returns whether it was taken."""
        fresh = Game(scenario, seed, rules)
        narrator, told, log = self._start(fresh)
        log += self._feed(narrator, told, fresh.events, fresh.units)[0]
        tracker, marks, movers = PhaseUnits(), [], []
        try:
            for a in actions:
                marks.append(len(fresh.events))
                movers.append(fresh.current_player)
                log += self._feed(narrator, told, tracker.apply(fresh, a), fresh.units)[0]
        except ValueError:
            return False
        if like is not None and fresh.state_hash() != like:
            return False
        self.game, self.narrator, self.told, self.tracker, self._log = fresh, narrator, told, tracker, log
        self._marks, self._movers = marks, movers
        return True

    def _rebuild(self, game: Game) -> None:
        """Take ``game``, with the battle log of its history (replayed from the start)."""
        if self._replay(game.scenario, game.seed, game.rules, list(game.history), like=game.state_hash()):
            return
        # Not the game its seed and history give (scripted randomness, another engine version):
        # play on from the saved state itself, its log told from its own events in one batch
        # (units named as set up and as they stand now).
        narrator, told, log = self._start(Game(game.scenario, game.seed, game.rules))
        log += self._feed(narrator, told, game.events, game.units)[0]
        log.append(f"(resumed from the saved state at decision {len(game.history)}: its history does not "
                   "replay to it, so the log above is told from its saved events)")
        self.game, self.narrator, self.told, self.tracker, self._log = game, narrator, told, PhaseUnits(), log
        self._marks, self._movers = [None] * len(game.history), [None] * len(game.history)

    # ------------------------------------------------------------------ playing
    @property
    def log(self) -> list:
        """The battle log as the people at this screen may see it (see the class notes)."""
        return self._log

    def who(self, player: int) -> str:
        """``"you"``, ``"hard AI"``, an agent's name, or with two people ``"player 1"``/``"player 2"``."""
        who = self.players[player]
        if who == "human":
            who = "you" if self.players.count("human") == 1 else f"player {player + 1}"
        elif who in LEVELS:
            who = f"{who} AI"
        return who

    def label(self, player: int) -> str:
        """``"Blue (you)"``, ``"Red (greedy)"``, ``"Red (hard AI)"``; with two people ``"Blue (player 1)"``."""
        return f"{printable(self.scenario.sides[player].name)} ({self.who(player)})"

    @property
    def human_to_play(self) -> bool:
        """Whether a person decides next (False once the game is over)."""
        g = self.game
        return not g.is_over and self.players[g.current_player] == "human"

    def _apply(self, action: int) -> list:
        """Apply one decision; returns the playback lines it told."""
        # A decision cut short (Ctrl-C in the terminal) leaves the game half-applied: never saved.
        self._torn = True
        g = self.game
        self._marks.append(len(g.events))
        self._movers.append(g.current_player)
        try:
            new = self.tracker.apply(g, action)
        except IllegalActionError:   # refused whole: the game is as it was
            self._marks.pop()
            self._movers.pop()
            self._torn = False
            raise
        lines, told = self._feed(self.narrator, self.told, new, g.units)
        self._log += lines
        self._torn = False
        return told

    def _new_playback(self) -> None:
        self.playback = {"from": len(self.game.history), "steps": []}

    def _told(self, player: int, lines: list) -> None:
        """Add a step to the playback (a decision that told nothing joins the next one)."""
        if self.told is None or not lines:
            return
        self.playback["steps"].append({"player": player, "label": self.label(player), "step": len(self.game.history),
                                       "lines": lines, "frame": self._frame()})

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
                p = g.current_player
                self._told(p, self._apply(self.agents[p].act(g)))
                n += 1
        return n

    def _check_step(self, step) -> None:
        if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
            raise PlayError(f"step: expected an integer, got {printable(repr(step))[:40]}", 400)
        if step is not None and step != len(self.game.history):
            raise PlayError(f"step: {step} is out of date; the game is at decision {len(self.game.history)} "
                            "(reload to see it)")

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
            self._check_step(step)
            playback = self.playback
            self._new_playback()
            p = g.current_player
            try:
                told = self._apply(action)
            except IllegalActionError as exc:   # the engine leaves the game as it was
                self.playback = playback
                raise PlayError(str(exc)) from None
            self._told(p, told)
            self.advance()
            self.save()

    # ------------------------------------------------------------------ taking a decision back
    def _retractable(self, k: int, player: int) -> bool:
        """Whether decision ``k`` (of the history) was ``player``'s and logged only its own
        declarations (:data:`RETRACTABLE`)."""
        if k < self._final or self._movers[k] != player:
            return False
        g = self.game
        end = self._marks[k + 1] if k + 1 < len(self._marks) else len(g.events)
        for e in g.events[self._marks[k]:end]:
            if e["type"] not in RETRACTABLE:
                return False
            side = e["player"] if "player" in e else g.units[e["unit"]].side if "unit" in e else None
            if side != player:
                return False
        return True

    def undoable(self) -> int:
        """How many decisions the person to play may take back, one after the other.

        A decision may be taken back when (1) it is the last of the game, (2) it was taken by the
        side to play now, a person, in this session (not before the game was resumed), so the other
        side has not decided since and has not seen it, and (3) it logged only that side's own
        declarations (:data:`RETRACTABLE`: cards given face down, the end of its orders, a unit
        activated or reacting with its own card or one from its Reserve, an action, a target, a
        destination). A decision that drew a card, rolled a die (any fire, Rally, morale, scatter or
        initiative), showed a card of the other side's, let the other side answer, or ended a phase,
        a turn or the game is final, and so is every decision before it.

        Returns
        -------
        int
            0 when nothing may be taken back (always 0 while an agent or nobody is to play).
        """
        with self.lock:
            if not self.human_to_play:
                return 0
            p, k, n = self.game.current_player, len(self.game.history) - 1, 0
            while k >= 0 and self._retractable(k, p):
                n, k = n + 1, k - 1
            return n

    def undo(self, step=None) -> None:
        """Take back the person's last decision (see :meth:`undoable`): the game is replayed from
        its set-up without it, then saved.

        Parameters
        ----------
        step : int, optional
            As for :meth:`act`: the decisions taken when the person asked.

        Raises
        ------
        PlayError
            If ``step`` is out of date or nothing may be taken back (409; the game is unchanged).
        """
        with self.lock:
            self._check_step(step)
            if not self.undoable():
                raise PlayError("undo: nothing to take back: the last decision was the other side's, or it "
                                "drew a card, rolled a die or showed something new, so it stands")
            g = self.game
            if not self._replay(g.scenario, g.seed, g.rules, list(g.history)[:-1]):   # pragma: no cover
                raise PlayError("undo: the game does not replay from its set-up; it stands")
            self._new_playback()
            self._replay_page = None
            self.save()

    # ------------------------------------------------------------------ the screen
    @property
    def hotseat(self) -> bool:
        """Two people at this screen."""
        return self.players.count("human") == 2

    def viewer(self) -> int:
        """The side whose view this screen shows: the one person's, or with two people the side
        holding the screen (-1 before it is first taken)."""
        if not self.hotseat:
            return self.view
        return -1 if self._screen is None else self._screen

    def handover_to(self):
        """With two people, the side the screen must be handed to before it shows anything of a
        side's own (the side to move, when it does not hold the screen); else None."""
        with self.lock:
            g = self.game
            if not self.hotseat or g.is_over or self._screen == g.current_player:
                return None
            return g.current_player

    def take_screen(self, player, step=None) -> None:
        """The person of side ``player`` takes the screen (two people, when it is handed to them).

        Raises
        ------
        PlayError
            400 if ``player`` is not 0 or 1; 409 if the screen is not being handed to that side or
            ``step`` is out of date.
        """
        if isinstance(player, bool) or not isinstance(player, int) or player not in (0, 1):
            raise PlayError(f"player: expected 0 or 1, got {printable(repr(player))[:40]}", 400)
        with self.lock:
            self._check_step(step)
            if self.handover_to() != player:
                raise PlayError(f"player: the screen is not being handed to {self.label(player)}")
            self._screen = player

    def turned(self) -> bool:
        """Whether the table is drawn turned (the viewer's own edge at the bottom)."""
        v = self.viewer()
        return v is not None and v >= 0 and v != self._bottom

    # ------------------------------------------------------------------ saving
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
            The player looking (default: the person to play, or no one while an agent plays); -1:
            no one's own cards; once the game is over every card is shown.

        Returns
        -------
        list of two dict
            ``side``, ``label``, ``hand`` (the viewer's own Reserve cards, in words, else None),
            ``reserve`` (how many) and ``units`` (``uid``, ``name``, ``kind``, ``figures``,
            ``markers``, ``wounds``, ``card``, ``status``, ``commander``).
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

    def measure(self, a, b) -> dict:
        """The range and line of sight between two points of the table (:func:`.ruler.measure` on
        the game as it stands).

        Raises
        ------
        PlayError
            400 naming ``from`` or ``to`` if a point is not two finite numbers on the table.
        """
        with self.lock:
            try:
                return measure(self.game, a, b)
            except ValueError as exc:
                raise PlayError(str(exc), 400) from None

    def _frame(self) -> dict:
        return frame_data(self.game, (), None, self.tracker.units, self._resolved_phase())

    def state(self, log_from: int = 0) -> dict:
        """Everything the play page shows, as a JSON-able dict: only what the people at this
        screen may see (see :attr:`log`; with two people, nothing of either side's own until the
        side to move has taken the screen).

        Parameters
        ----------
        log_from : int
            Battle log lines the page already has (only the newer ones are sent).

        Returns
        -------
        dict
            ``format``, ``game`` (the session's ``game_id``), ``board``
            (:func:`~atomic_africa.replay.html.board_data`),
            ``step`` (decisions so far), ``turn``, ``turns``, ``stage``, ``over``, ``result``,
            ``players`` (labels), ``levels`` (each side's AI level, or None), ``hotseat``,
            ``to_play`` (the player who decides), ``human`` (a person decides now, on this screen),
            ``handover`` (with two people: ``{"to", "label"}`` while the screen must be handed to
            the side to move, else None), ``view`` (the side whose cards this screen shows, -1:
            none), ``turned`` (the table is drawn from the other edge), ``new_game`` (the scenarios
            and opponents a new game may have), ``prompt``, ``actor`` (the
            unit the decision is about, a uid, or None), ``choices``
            (:func:`~atomic_africa.play.choices.legal_choices`), ``undo`` (:meth:`undoable`),
            ``forces`` (:meth:`forces`), ``frame`` (the table now, and the moves and shots of the
            last phase resolved with their odds, as a replay page's frame), ``playback``
            (the session's ``playback``), ``log`` (lines from ``log_from`` on), ``log_total`` and ``save``
            (the save file, or None).
        """
        with self.lock:
            g = self.game
            log_from = max(0, min(int(log_from), len(self.log)))
            to = self.handover_to()
            viewer = self.viewer() if to is None else -1
            handover = None if to is None else {"to": to, "label": self.label(to)}
            return {
                "format": FORMAT, "game": self.game_id, "board": board_data(g.scenario), "step": len(g.history),
                "turn": g.s.turn, "turns": g.scenario.turns, "stage": g.stage.lower(), "over": g.is_over,
                "result": self.result_text() or None, "players": [self.label(p) for p in range(2)],
                "levels": [None if p == "human" else _level_of(p) for p in self.players], "hotseat": self.hotseat,
                "to_play": g.current_player, "human": self.human_to_play and to is None, "handover": handover,
                "view": viewer, "turned": self.turned(),
                "prompt": (f"Pass the screen to {self.label(to)}" if to is not None else self.prompt()),
                "actor": g.s.decl_uid if g.s.decl_uid >= 0 and not g.is_over else None,
                "choices": self.choices() if to is None else [], "undo": self.undoable() if to is None else 0,
                "forces": self.forces(viewer),
                "frame": self._frame(), "playback": self.playback, "new_game": self._new_game_options(),
                "log": self.log[log_from:], "log_total": len(self.log), "save": self.save_path,
            }

    def _new_game_options(self) -> dict:
        """What the page offers for a new game: this scenario or a packaged one, and the levels."""
        scenarios = [{"name": "current", "title": f"this one ({printable(self.scenario.name)})"}]
        scenarios += [{"name": n, "title": n.replace("_", " ")} for n in packaged_scenarios()]
        levels = [{"name": lv, "text": f"{lv} AI", "words": f"{LEVEL_WORDS[lv]} ({agent})"}
                  for lv, agent in LEVELS.items()]
        levels.append({"name": "human", "text": "a second person, at this screen", "words": "hot-seat: the screen is "
                       "handed over between the sides, and the table turned for the side to move"})
        return {"scenarios": scenarios, "levels": levels}

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
