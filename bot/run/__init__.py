"""Running the bot: its start once the settings are good (``start``: the database checked, the signals, one clear
line for whatever stops it) and its serving (``serve``: long polling or the webhook, alone or as one of several
processes)."""
