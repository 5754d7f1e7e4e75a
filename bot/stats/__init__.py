"""The score: results into ratings (ratings), standings and per-player stats (standings), their messages and
chart (render, chart), and the /stats, /top and /history service (service)."""
