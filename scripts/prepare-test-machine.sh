#!/usr/bin/env bash
# Makes a Debian machine ready for the whole test suite, and does nothing on one that already is:
# installs Chromium, the CJK fonts, PostgreSQL, MariaDB and Redis when missing, starts each on 127.0.0.1
# when it is not running, and gives them the logins the tests use (PostgreSQL postgres/postgres,
# MariaDB root without a password, database `test`). `npm test` runs it first; so does `.ci/run`.
# Without root or apt-get it only says what is missing; scripts/test.ts then runs what it can.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
dpkg -s fonts-noto-cjk >/dev/null 2>&1 || missing+=(fonts-noto-cjk)
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)

can_admin() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; }

if [ ${#missing[@]} -gt 0 ]; then
  if ! can_admin; then
    echo "Not installed (needs root and apt-get): ${missing[*]}; the suites that need them are skipped."
    exit 0
  fi
  echo "Installing: ${missing[*]}"
  apt-get update -q
  apt-get install -y -q "${missing[@]}"
fi
can_admin || exit 0

wait_for() { # name, command: polls for up to 30 s
  for _ in $(seq 1 60); do
    if eval "$2" >/dev/null 2>&1; then return 0; fi
    sleep 0.5
  done
  echo "$1 did not become ready" >&2
  return 1
}

if ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
fi
wait_for PostgreSQL "pg_isready -h 127.0.0.1 -p 5432"
if ! psql postgres://postgres:postgres@127.0.0.1:5432/postgres -c 'select 1' >/dev/null 2>&1; then
  # A fresh Debian cluster has no password for postgres over TCP: give it the one the tests use.
  su postgres -c "psql -q -c \"alter user postgres password 'postgres'\""
fi

if ! mariadb-admin -h 127.0.0.1 -uroot ping >/dev/null 2>&1; then
  # mariadbd will not run as root: it switches to mysql, whose socket folder must exist.
  mkdir -p /run/mysqld && chown mysql:mysql /run/mysqld
  start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql --bind-address=127.0.0.1 || true
fi
wait_for MariaDB "mariadb-admin ping"
if ! mariadb -h 127.0.0.1 -uroot -e 'select 1' >/dev/null 2>&1; then
  # A fresh install lets root in only through the socket: allow the passwordless TCP login tests use.
  mariadb -uroot -e "alter user root@localhost identified via mysql_native_password using password(''); flush privileges"
fi
mariadb -h 127.0.0.1 -uroot -e 'create database if not exists test'

if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
wait_for Redis "redis-cli -h 127.0.0.1 ping"
