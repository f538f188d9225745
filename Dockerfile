# The Sengoku game server (docs/deploy/README.md): `sengoku serve` as a non-root user, with
# the games' native cores built from source. docker-compose.yml runs several of these on
# PostgreSQL and Redis behind HAProxy (docs/deploy/haproxy.cfg).
#
#   docker build -t sengoku .
#   docker run -p 8000:8000 sengoku          # one process, SQLite in the container
#   docker compose up                         # three processes, PostgreSQL, Redis, HAProxy

# -- build: wheels of the project (its C++ cores compiled with pybind11) and its dependencies
FROM python:3.11-slim AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md LICENSE ./
COPY sengoku ./sengoku
# psycopg: the PostgreSQL driver the several-process deployment needs
RUN pip wheel --no-cache-dir --wheel-dir /wheels . 'psycopg[binary]>=3.1'

# -- run: the wheels only, no compiler
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1
RUN useradd --system --uid 10001 --user-group --create-home --home-dir /var/lib/sengoku sengoku
COPY --from=build /wheels /wheels
# The wheel carries the native cores (setup.py refuses to build one without them unless asked
# for a pure-Python wheel); here an install without them fails.
RUN pip install --no-cache-dir --no-index --find-links /wheels sengoku 'psycopg[binary]' \
    && rm -rf /wheels \
    && python -c "import sengoku.games.gungi._gungi_native, sengoku.games.gunkimono._gunkimono_native, sengoku.games.sashimono._sashimono_native, sengoku.games.gunshi._gunshi_native"
USER sengoku
WORKDIR /var/lib/sengoku
EXPOSE 8000
# GET /health: 200 while the process serves and its database answers
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health', timeout=4).status != 200)"]
# Listen on every address of the container: a proxy or the published port reaches it there.
# The database and pub/sub: add --db postgresql+psycopg://... --pubsub redis://... (compose).
ENTRYPOINT ["sengoku", "serve", "--host", "0.0.0.0", "--port", "8000"]
