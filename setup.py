"""Optional compilation of the rules engine with mypyc (about 4x faster simulations).

``DURAK_COMPILE=1 pip install .`` builds compiled modules; a plain or editable install
stays pure Python, so an edited source file is never shadowed by a stale binary.
"""

import os

from setuptools import setup

ext_modules = []
if os.environ.get("DURAK_COMPILE") == "1":
    from mypyc.build import mypycify

    # durak/lead_sequence.py stays interpreted: its Leads is a collections.abc.Sequence, which a native class
    # cannot be
    engine = ("__init__", "constants", "position", "blockers", "listing", "checking", "playing", "bout_end")
    ext_modules = mypycify(
        [f"durak/{name}.py" for name in
         ("cards", "actions", "events", "rules", "state", "covering", "leads", *(f"engine/{m}" for m in engine),
          "setup", "view", "record", "ai/greedy", "ai/play", "ai/endgame", "ai/belief", "ai/hard")],
        opt_level="3",
    )

setup(ext_modules=ext_modules)
