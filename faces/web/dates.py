"""When things happened, in the reader's own day: groups for the workspace list, times for hovering.

The store keeps UTC text ("2026-11-23 10:00:00.123456"); people think in their local
calendar, so a workspace used at 00:30 local time belongs to today even where that is
yesterday in UTC. Pure functions: the caller passes "now" and the time zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

EARLIER = "Earlier"


def local_time(stored: str | None, zone: tzinfo | None = None) -> datetime | None:
    """A stored UTC timestamp in `zone` (None: this machine's zone); None if there is none or it is unreadable."""
    if not stored:
        return None
    try:
        moment = datetime.fromisoformat(stored)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone)


def activity_group(last_active: date | None, today: date) -> str:
    """Today, Yesterday, Previous 7 days, Previous 30 days, then the month ("October 2026")."""
    if last_active is None:
        return EARLIER
    days = (today - last_active).days
    if days <= 0:  # today, or a clock that ran ahead
        return "Today"
    if days == 1:
        return "Yesterday"
    if days <= 7:
        return "Previous 7 days"
    if days <= 30:
        return "Previous 30 days"
    return f"{last_active:%B %Y}"


def group_of(stored: str | None, today: date, zone: tzinfo | None = None) -> str:
    """The group of a workspace last active at `stored` (UTC text), on the reader's `today` in `zone`."""
    moment = local_time(stored, zone)
    return activity_group(moment.date() if moment else None, today)


def today_in(zone: tzinfo | None = None) -> date:
    return datetime.now(UTC).astimezone(zone).date()


def zone_named(name: str | None) -> tzinfo | None:
    """The browser's time zone ("Europe/Paris"), or None (this machine's) if it is unknown here."""
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def hover_time(stored: str | None, zone: tzinfo | None = None) -> str | None:
    """ "Mon 23 Nov 2026, 11:00:05": a stored time as the reader's clock showed it."""
    moment = local_time(stored, zone)
    return f"{moment:%a %d %b %Y, %H:%M:%S}" if moment else None
