"""Computer players. Each exposes ``choose(state, seat) -> Action | None`` (None: wait)."""
