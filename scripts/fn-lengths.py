#!/usr/bin/env python3
"""Functions over LIMIT lines (default 100) in src/, outside `#[cfg(test)]` modules.

Usage: scripts/fn-lengths.py [LIMIT]. Prints `lines path:line name` for each, longest first,
and exits 1 when there is any (the architecture issue's bar: none over 100 lines).
A rough reader: strings, chars and comments are skipped so their braces do not count.
"""
import pathlib, re, sys

limit = int(sys.argv[1]) if len(sys.argv) > 1 else 100
root = pathlib.Path(__file__).resolve().parent.parent / "src"
fn_re = re.compile(r"\bfn\s+(\w+)")


def code_only(text):
    """The text with comments, strings and char literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2); j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and not text[i - 1].isalnum():
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = '"' + hashes
            j = text.find(end, i + len(hashes) + 2); j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j])); i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(re.sub(r"[^\n]", " ", text[i:j + 1])); i = j + 1
        elif c == "'" and re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x..'", text[i:i + 12]):
            m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'|'\\x..'", text[i:i + 12])
            out.append(" " * len(m.group(0))); i += len(m.group(0))
        else:
            out.append(c); i += 1
    return "".join(out)


found = []
for path in sorted(root.rglob("*.rs")):
    code = code_only(path.read_text())
    cut = re.search(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", code)
    if cut:
        code = code[:cut.start()]
    for m in fn_re.finditer(code):
        open_at = code.find("{", m.end())
        semi = code.find(";", m.end())
        if open_at < 0 or (0 <= semi < open_at):
            continue
        depth, j = 0, open_at
        while j < len(code):
            depth += {"{": 1, "}": -1}.get(code[j], 0)
            if depth == 0:
                break
            j += 1
        start = code.count("\n", 0, m.start()) + 1
        lines = code.count("\n", m.start(), j) + 1
        if lines > limit:
            found.append((lines, f"{path.relative_to(root.parent)}:{start}", m.group(1)))
for lines, where, name in sorted(found, reverse=True):
    print(lines, where, name)
sys.exit(1 if found else 0)
