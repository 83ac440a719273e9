"""Which National Annex a Eurocode check takes, as engineers name it."""

from __future__ import annotations

import re

UK_NAMES = ("UK", "GB", "UKNA", "NAUK", "BSEN", "BS", "UNITEDKINGDOM", "BRITISH")


def national_annex(text: str | None) -> str | None:
    """ "UK", "GB", "BS EN", "UK NA" → "UK"; None, "none" or "recommended" → None (the recommended values); any
    other is refused with one sentence."""
    if text is None or text.strip().lower() in ("", "none", "recommended", "cen"):
        return None
    if re.sub(r"[^A-Z]", "", text.upper()) in UK_NAMES:
        return "UK"
    raise ValueError(
        f"national_annex {text!r} is not one these checks know: 'UK', or omit it for the recommended values"
    )
