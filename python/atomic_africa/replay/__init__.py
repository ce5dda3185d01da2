"""A played game told and drawn: the battle log in words, replay frames, pictures and a web page.

- :mod:`.narrate`: :class:`~.narrate.Narrator`, one line per event in a wargamer's words.
- :mod:`.frames`: read a battle log, game JSON or self-play replay; replay it to any step; frames
  with captions.
- :mod:`.render`: PNG pictures and GIF animations (matplotlib, extra ``plot``).
- :mod:`.html`: the self-contained HTML replay page with every shot's exact odds; :mod:`.page`
  holds its markup and script.
"""
