"""Running it: the heartbeat file the health check reads (health), and the figures the load test reads
(metrics)."""
