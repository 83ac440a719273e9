#!/bin/sh
# Run once by the postgres image when its data volume is new (docker-compose.yml mounts it into
# /docker-entrypoint-initdb.d): the application's own role, which owns its database and is no superuser.
set -eu
psql -v ON_ERROR_STOP=1 -v password="$ASSISTANT_DB_PASSWORD" --username "$POSTGRES_USER" --dbname postgres <<'SQL'
CREATE ROLE assistant LOGIN PASSWORD :'password';
CREATE DATABASE assistant OWNER assistant;
SQL
