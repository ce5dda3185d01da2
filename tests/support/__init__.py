"""Helpers the tests share (not collected by pytest) and checks too long for the suite, run by hand."""

from pathlib import Path as _Path

#: The packaged scenario "meeting_engagement" as it was before issue 35's balance work: a lopsided
#: battle (player 0 wins ~90 % of the decided games) that uses vehicles, light infantry, armoured
#: features and unequal hands. Tests that pin one fixed rich battle play it (see the file's header).
LOPSIDED_MEETING = str(_Path(__file__).parent / "lopsided_meeting.toml")
