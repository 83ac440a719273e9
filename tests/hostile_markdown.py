"""Text written to make the browser fetch something from outside: Markdown images in every form CommonMark, GitHub
and Streamlit know (maths and directives, which Streamlit reads before code, included), raw HTML that loads things,
and KaTeX. Each payload gets its own URL, so a fetch names the form.

`{u}` is the URL; `{r}` a reference label unique to the payload, and `{R}` the same label in capitals.
"""

from __future__ import annotations

from collections.abc import Callable

INLINE_FORMS = [
    "![a]({u})",
    '![a]({u} "title")',
    "![a](<{u}>)",
    "![a](<{u}> 'title')",
    "![a [b] c]({u})",
    "![a [b [c]] d]({u})",
    "![a\\]b]({u})",
    "![]({u})",
    "![a](\n{u}\n)",
    "[![a]({u})](http://127.0.0.1/)",
    "**![a]({u})**",
    "_![a]({u})_",
    "~~![a]({u})~~",
    "| x | ![a]({u}) |\n|---|---|\n| ![b]({u}) | y |",
    "- item ![a]({u})",
    "1. x\n\n   ![a]({u})",
    "> quote ![a]({u})",
    "> > nested ![a]({u})",
    "# Heading ![a]({u})",
    "![a]({u})\n===",
    ":red[![a]({u})]",
    ":blue-background[![a]({u})]",
    "\\\\![a]({u})",
    "!![a]({u})",
    "![a]({u})![b]({u})",
    "`code` ![a]({u}) `more`",
    "``![a]({u})`",
    "`a``![a]({u})",
    "line\\\n![a]({u})",
    "<span>![a]({u})</span>",
    "<div>\n\n![a]({u})\n\n</div>",
    "text[^1]\n\n[^1]: ![a]({u})",
    "![a]({u}){{width=10}}",
    "$x$ ![a]({u}) $y$",
]
REFERENCE_FORMS = [
    "![{r}]\n\n[{r}]: {u}",
    "![a][{r}]\n\n[{r}]: {u}",
    "![{r}][]\n\n[{r}]: {u}",
    "![{R}]\n\n[{r}]: {u}",
    "![{r}]\n\n> [{r}]: {u}",
    "![{r}]\n\n- [{r}]: {u}",
    '![{r}]\n\n[{r}]: {u} "title"',
    "![{r}]\n\n[{r}]: <{u}>",
    "![{r}]\n\n[{r}]:\n{u}",
    "![{r}]\n\n   [{r}]: {u}",
    "[{r}]: {u}\n\n![{r}]",
    "> [{r}]: {u}\n\n![{r}]",
    "[![{r}]][{r}]\n\n[{r}]: {u}",
    "| ![{r}] |\n|---|\n\n[{r}]: {u}",
]
HTML_FORMS = [
    '<img src="{u}">',
    "<IMG SRC={u}>",
    "<img src=x onerror=\"this.src='{u}'\">",
    '<picture><source srcset="{u}"><img src="x"></picture>',
    '<video poster="{u}"></video>',
    '<audio src="{u}" autoplay></audio>',
    '<iframe src="{u}"></iframe>',
    '<object data="{u}"></object>',
    '<embed src="{u}">',
    '<svg><image href="{u}"/></svg>',
    '<div style="background:url({u})">x</div>',
    "<style>@import url({u});</style>",
    '<link rel="stylesheet" href="{u}">',
    '<input type="image" src="{u}">',
    '<table background="{u}"><tr><td>x</td></tr></table>',
    '<meta http-equiv="refresh" content="0;url={u}">',
    '<base href="{u}">',
    "<script src={u}></script>",
]
MATH_FORMS = [
    "$\\includegraphics[height=1em]{{{u}}}$",
    "$$\\includegraphics[height=1em]{{{u}}}$$",
    "$\\href{{{u}}}{{x}}$",
]
READ_BEFORE_CODE_FORMS = [  # CommonMark reads code here; Streamlit's renderer reads maths or a directive first
    "$`$![a]({u})$`$",
    "$$`$$![a]({u})$$`$$",
    "$``$![a]({u})$``$",
    "x $`$ ![a]({u}) ` y $z$",
    "- $`$![a]({u})$`$",
    "> $`$![a]({u})$`$",
    "| $`$![a]({u})$`$ |\n|---|\n| b |",
    "# $`$![a]({u})$`$",
    "$`$\n![a]({u})\n$`$",
    "[$`$![a]({u})$`$](http://127.0.0.1/)",
    "**$`$![a]({u})$`$**",
    "$x$\n\n$$\n```\n$$\n![a]({u})\n```",
    ':x{{a="`"}}![a]({u}){{b="`"}}',
    ":red[`]![a]({u})`",
    ':color[a]{{foreground="`"}}![a]({u})`',
]
NOT_IMAGES = [  # forms that look close but are not images: they must still render, and fetch nothing
    "&#33;[a]({u})",
    "!\\[a]({u})",
    "\uff01[a]({u})",
    "!\u200b[a]({u})",
    "<{u}>",
    "[a]({u})",
    "```\n![a]({u})\n```",
    "    ![a]({u})",
]
URL_STYLES = ["http://{host}/{n}.png", "//{host}/{n}.png", "HTTP://{host}/{n}.png"]


def payloads(host: str) -> list[tuple[int, str]]:
    """(number, payload) for every form; inline images in each URL style (plain, protocol-relative, capitals)."""
    made: list[tuple[int, str]] = []

    def add(form: str, style: str) -> None:
        n = len(made)
        url = style.format(host=host, n=n)
        made.append((n, form.format(u=url, r=f"ref{n}", R=f"REF{n}")))

    for form in INLINE_FORMS + REFERENCE_FORMS:
        for style in URL_STYLES:
            add(form, style)
    for form in HTML_FORMS + MATH_FORMS + READ_BEFORE_CODE_FORMS + NOT_IMAGES:
        add(form, URL_STYLES[0])
    return made


def read_before_code_payloads(host: str) -> list[tuple[int, str]]:
    """The payloads of READ_BEFORE_CODE_FORMS: images in the browser, code to a CommonMark parser."""
    first = len(INLINE_FORMS + REFERENCE_FORMS) * len(URL_STYLES) + len(HTML_FORMS + MATH_FORMS)
    return payloads(host)[first : first + len(READ_BEFORE_CODE_FORMS)]


def document(host: str, route: str, keep: Callable[[str], bool] = lambda _: True) -> str:
    """All payloads as one Markdown document, each in its own paragraph after a line naming it."""
    blocks = [f"Payload {route}-{n}:\n\n{text}" for n, text in payloads(host) if keep(text)]
    return "\n\n".join(blocks) + f"\n\nEnd of the {route} payloads."
