# durak-bot: build wheels (the rules engine compiled with mypyc), then run them on a slim image.
FROM python:3.11 AS build
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY durak durak
COPY bot bot
COPY handlers handlers
COPY storage storage
RUN DURAK_COMPILE=1 pip wheel --no-cache-dir --wheel-dir /wheels .

FROM python:3.11-slim
RUN useradd --create-home --uid 10001 durak && mkdir /data && chown durak /data
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels
USER durak
WORKDIR /home/durak
# The database lives on a volume: a new container resumes every game where it stopped.
ENV DATABASE_PATH=/data/durak.sqlite3 HEALTH_FILE=/tmp/durak-bot.alive PYTHONUNBUFFERED=1
VOLUME /data
# Healthy while the bot's once-a-second sweep keeps rewriting HEALTH_FILE (see bot/ops/health.py).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["durak-health"]
CMD ["durak-bot"]
