# syntax=docker/dockerfile:1
# The SameDeal server image: one node (`samedeal serve`), state in the Redis at SAMEDEAL_REDIS_URL.
# docker-compose.yml runs two of them behind nginx; deploy/k8s runs them as a Deployment.
# docs/operations.md lists every setting (all SAMEDEAL_* environment variables).

# ----- build: the project and every dependency as wheels ------------------------------------
FROM python:3.11-slim AS build
# A C compiler for the engine's compiled inner loop (setup.py); the run stage needs none.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY engine ./engine
COPY server ./server
COPY clients ./clients
RUN pip wheel --no-cache-dir --wheel-dir /wheels .

# ----- run: the wheels installed, nothing else (no compiler, no source tree, no pip cache) ---
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
# The wheels are bind-mounted for the install only, so they never become a layer of the image.
RUN --mount=type=bind,from=build,source=/wheels,target=/wheels \
    pip install --no-cache-dir --no-index --find-links=/wheels samedeal \
    && groupadd --system --gid 10001 samedeal \
    && useradd --system --uid 10001 --gid 10001 --no-create-home --home-dir /nonexistent \
       --shell /usr/sbin/nologin samedeal
# Numeric, so Kubernetes' runAsNonRoot can check it without reading /etc/passwd.
USER 10001:10001
WORKDIR /tmp

EXPOSE 8000
# /healthz says the process is up (the slim image has no curl: python's urllib asks instead).
# Readiness (/readyz: Redis reachable) is for the load balancer and Kubernetes, not a restart.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"]
# uvicorn drains on SIGTERM: no new sockets, open ones told to reconnect elsewhere, then exit.
# Give it the time (compose: stop_grace_period; Kubernetes: terminationGracePeriodSeconds).
STOPSIGNAL SIGTERM
# The Redis URL comes from SAMEDEAL_REDIS_URL (the --redis-url flag's default); without it a
# node would try to start a private redis-server, which the image does not have: it exits
# saying so. A deployment's nodes share one Redis.
CMD ["samedeal", "serve", "--host", "0.0.0.0", "--port", "8000"]
