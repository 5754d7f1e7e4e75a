"""Running it: the heartbeat file the health check reads (health), the figures the load test reads (metrics),
and a stored game's review for the operator (review)."""
