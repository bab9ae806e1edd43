#!/usr/bin/env python3
"""Checks that the front page stays a front page and that the docs' relative links lead somewhere.

  scripts/check_docs.py [ROOT] [--gkebuild BINARY]   (ROOT: the repository; default: this script's
                                                      parent's parent)

- README.md has at most 250 lines and no line longer than 400 characters.
- Every relative Markdown link in README.md, docs/*.md, bench/README.md and CHANGELOG.md names a
  file or folder that exists, and its #anchor, where it has one, is a heading of that Markdown file
  as GitHub names it (lower case, punctuation dropped, spaces to '-', repeats numbered -1, -2 …).
  A link into a file that is not Markdown may carry only a line anchor (#L12, #L12-L20).

- docs/project-file.md lists the template variables gkebuild sets ("the template variables gkebuild
  sets: `a`, `b` …") exactly as tool/core/project/reserved_variables.h does.
- The first column of the key tables under docs/project-file.md's "## Top-level keys", "## images"
  and "## experiments" names exactly the keys of tool/core/project/project_keys.h's kTopLevelKeys,
  kImageKeys and kExperimentKeys: none missing, none extra.
- With --gkebuild BINARY (ctest passes the built binary): every long flag of every command
  (`gkebuild __complete -- CMD -`) is in docs/commands.md, in that command's `## ` section or in
  Conventions; every rule of `gkebuild validate --list-rules` has a row in a `| rule | severity |`
  table of docs/validate-rules.md at its severity, and no row names a rule --list-rules lacks.

Links and headings inside fenced code blocks and inline code do not count. Each problem is printed as
FILE:LINE: message; the exit status is 1 when there is one, else 0.
"""

import re
import subprocess
import sys
from pathlib import Path

README_MAX_LINES = 250
README_MAX_LINE_LENGTH = 400

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
INLINE_CODE_SPAN = re.compile(r"(`+)(?:(?!\n\s*\n).)+?\1", re.DOTALL)
# [text](target) or [text](target "title"); the text may run over line breaks and hold one level of
# brackets; inline code is blanked before links are looked for.
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^()\s<>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_ANCHOR = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"", re.IGNORECASE)
LINE_ANCHOR = re.compile(r"^L\d+(-L\d+)?$")


def prose_lines(text):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), start=1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
            elif match.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield number, line


def github_slug(heading):
    """The anchor GitHub gives a heading's text (before numbering repeats)."""
    text = INLINE_CODE.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images keep their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors_of(path, cache={}):
    """The anchors a Markdown file offers: its headings' slugs and explicit <a name|id>."""
    if path not in cache:
        seen = {}
        anchors = set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            anchors.update(HTML_ANCHOR.findall(line))
            match = HEADING.match(line)
            if not match:
                continue
            slug = github_slug(match.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            anchors.add(slug if count == 0 else f"{slug}-{count}")
        cache[path] = anchors
    return cache[path]


def prose_text(path):
    """The file's text with fenced code blocks and inline code blanked, line numbers kept."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kept = dict(prose_lines("\n".join(lines)))
    text = "\n".join(kept.get(number, "") for number in range(1, len(lines) + 1))
    # Inline code may run over a line break (not over a blank line); keep only its line breaks.
    return INLINE_CODE_SPAN.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def check_links(root, path):
    problems = []
    shown = path.relative_to(root)
    text = prose_text(path)
    for match in LINK.finditer(text):
        target = match.group(1)
        number = text.count("\n", 0, match.start()) + 1
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE):
            continue  # https:, mailto: … : not ours to check
        file_part, _, anchor = target.partition("#")
        destination = (path.parent / file_part).resolve() if file_part else path
        where = f"{shown}:{number}"
        if not destination.exists():
            problems.append(f"{where}: link to '{target}': {file_part} does not exist")
            continue
        if not anchor:
            continue
        if destination.is_dir():
            problems.append(f"{where}: link to '{target}': a folder has no anchors")
        elif destination.suffix.lower() == ".md":
            if anchor not in anchors_of(destination):
                problems.append(f"{where}: link to '{target}': {destination.name} has no heading "
                                f"with the anchor #{anchor}")
        elif not LINE_ANCHOR.match(anchor):
            problems.append(f"{where}: link to '{target}': only line anchors (#L12) lead into "
                            f"{destination.name}")
    return problems


def check_front_page(root):
    readme = root / "README.md"
    if not readme.exists():
        return ["README.md: missing"]
    lines = readme.read_text(encoding="utf-8").splitlines()
    problems = []
    if len(lines) > README_MAX_LINES:
        problems.append(f"README.md: {len(lines)} lines; the front page may have at most "
                        f"{README_MAX_LINES} (move the detail to docs/)")
    for number, line in enumerate(lines, start=1):
        if len(line) > README_MAX_LINE_LENGTH:
            problems.append(f"README.md:{number}: {len(line)} characters; a line may have at most "
                            f"{README_MAX_LINE_LENGTH}")
    return problems


def documents(root):
    paths = [root / "README.md", root / "bench" / "README.md", root / "CHANGELOG.md"]
    paths += sorted((root / "docs").glob("*.md"))
    return [path for path in paths if path.exists()]


RESERVED_TABLE = "tool/core/project/reserved_variables.h"
RESERVED_DOC = "docs/project-file.md"
RESERVED_PHRASE = "the template variables gkebuild sets:"


def check_reserved_variables(root):
    """The docs' list of reserved template variables against the one table in the code."""
    table_text = (root / RESERVED_TABLE).read_text(encoding="utf-8") if (root / RESERVED_TABLE).exists() else ""
    table = re.search(r"kReservedVariables\{([^}]*)\}", table_text)
    if not table:
        return [f"{RESERVED_TABLE}: no kReservedVariables{{…}} table"]
    names = re.findall(r'"([^"]+)"', table.group(1))
    doc = root / RESERVED_DOC
    text = " ".join(line for _, line in prose_lines(doc.read_text(encoding="utf-8"))) if doc.exists() else ""
    at = text.find(RESERVED_PHRASE)
    if at < 0:
        return [f"{RESERVED_DOC}: no sentence with '{RESERVED_PHRASE}' listing {', '.join(names)}"]
    listed = re.findall(r"`([A-Za-z_]+)`", re.split(r"[.(]", text[at:], maxsplit=1)[0])
    if listed != names:
        return [f"{RESERVED_DOC}: lists the reserved template variables {', '.join(listed)}; "
                f"{RESERVED_TABLE} has {', '.join(names)}"]
    return []


PROJECT_KEYS_TABLE = "tool/core/project/project_keys.h"
PROJECT_KEYS_DOC = "docs/project-file.md"
# Each table of project_keys.h and the heading of docs/project-file.md whose table lists its keys.
PROJECT_KEY_TABLES = {"kTopLevelKeys": "## Top-level keys", "kImageKeys": "## images",
                      "kExperimentKeys": "## experiments"}


def table_first_column(text, heading):
    """(line number, names in backticks) of each row of the first table under `heading`."""
    rows, inside, started = [], False, False
    for number, line in prose_lines(text):
        if line.strip() == heading:
            inside = True
            continue
        if not inside:
            continue
        if not line.startswith("|"):
            if started or line.startswith("#"):
                break
            continue
        started = True
        first = line.split("|")[1]
        if re.fullmatch(r"\s*:?-+:?\s*", first):
            continue  # the rule under the header row
        rows.append((number, re.findall(r"`([^`]+)`", first)))
    return rows[1:]  # the header row names no key


def check_project_keys(root):
    """docs/project-file.md's key tables against project_keys.h's, both ways."""
    table_path, doc_path = root / PROJECT_KEYS_TABLE, root / PROJECT_KEYS_DOC
    table_text = table_path.read_text(encoding="utf-8") if table_path.exists() else ""
    doc_text = doc_path.read_text(encoding="utf-8") if doc_path.exists() else ""
    problems = []
    for table, heading in PROJECT_KEY_TABLES.items():
        rows = re.search(table + r"\{(.*?)\};", table_text, re.DOTALL)
        names = re.findall(r'ProjectKey\{"([^"]+)"', rows.group(1)) if rows else []
        if not names:
            problems.append(f"{PROJECT_KEYS_TABLE}: no {table}{{ProjectKey{{\"name\", …}}, …}} table")
            continue
        documented = table_first_column(doc_text, heading)
        if not documented:
            problems.append(f"{PROJECT_KEYS_DOC}: no key table under '{heading}'")
            continue
        listed = set()
        for number, keys in documented:
            for key in keys:
                listed.add(key)
                if key not in names:
                    problems.append(f"{PROJECT_KEYS_DOC}:{number}: key '{key}' is not in {table} of "
                                    f"{PROJECT_KEYS_TABLE} (the parser refuses it)")
        problems += [f"{PROJECT_KEYS_DOC}: key '{name}' of {table} ({PROJECT_KEYS_TABLE}) has no row under "
                     f"'{heading}'" for name in names if name not in listed]
    return problems


def sections(text):
    """{first word of each `## ` heading (its names split at ',' and ' '): the section's text}."""
    out, name, lines = {}, None, []
    for line in text.splitlines():
        if line.startswith("## "):
            if name:
                for word in name:
                    out[word] = out.get(word, "") + "\n".join(lines)
            name, lines = [w for w in re.split(r"[ ,`]+", line[3:].strip()) if w and not w.startswith("-")], []
        lines.append(line)
    if name:
        for word in name:
            out[word] = out.get(word, "") + "\n".join(lines)
    return out


def run_binary(binary, *arguments):
    return subprocess.run([binary, *arguments], capture_output=True, text=True, timeout=60).stdout


def check_cli_names(root, binary):
    """Every long flag of every command in docs/commands.md; every rule id in docs/validate-rules.md."""
    problems = []
    commands_doc = (root / "docs/commands.md").read_text(encoding="utf-8")
    by_command = sections(commands_doc)
    shared = by_command.get("Conventions", "")
    listed = run_binary(binary, "--help")
    for command in run_binary(binary, "__complete", "--", "").split():
        if command == "help" or not re.search(rf"^\s+{re.escape(command)}\b", listed, re.MULTILINE):
            continue  # help is `gkebuild CMD --help`; a command --help hides is internal (controller)
        section = by_command.get(command)
        if section is None:
            problems.append(f"docs/commands.md: no '## {command}' section")
            continue
        for flag in run_binary(binary, "__complete", "--", command, "-").split():
            if not flag.startswith("--") or flag == "--help":
                continue
            if not re.search(re.escape(flag) + r"(?![\w-])", section + "\n" + shared):
                problems.append(f"docs/commands.md: '{command} {flag}' is not described (## {command} or Conventions)")
    return problems + check_rule_rows(root, binary)


def rule_rows(text):
    """(line number, ids, severity) of each row of the tables headed `| rule | severity |`."""
    rows, inside = [], False
    for number, line in prose_lines(text):
        cells = [cell.strip() for cell in line.split("|")[1:-1]] if line.startswith("|") else []
        if len(cells) < 2:
            inside = False
        elif cells[:2] == ["rule", "severity"]:
            inside = True
        elif inside and not re.fullmatch(r":?-+:?", cells[0]):
            rows.append((number, re.findall(r"`([a-z0-9-]+)`", cells[0]), cells[1]))
    return rows


def check_rule_rows(root, binary):
    """Every rule of `validate --list-rules` has a row in docs/validate-rules.md's rule tables, at
    its severity; no row names a rule the table (tool/steps/validate/rule_table.h) lacks."""
    severities = dict(re.findall(r"^([a-z0-9-]+) \(([a-z]+)\):", run_binary(binary, "validate", "--list-rules"),
                                 re.MULTILINE))
    problems, documented = [], set()
    for number, ids, severity in rule_rows((root / "docs/validate-rules.md").read_text(encoding="utf-8")):
        for rule in ids:
            documented.add(rule)
            if rule not in severities:
                problems.append(f"docs/validate-rules.md:{number}: '{rule}' is not a rule of validate --list-rules")
            elif severities[rule] != severity:
                problems.append(f"docs/validate-rules.md:{number}: '{rule}' is {severities[rule]}, not {severity}")
    for rule in severities:
        if rule not in documented:
            problems.append(f"docs/validate-rules.md: rule '{rule}' has no row in a '| rule | severity |' table")
    return problems


def main(argv):
    arguments = argv[1:]
    binary = None
    if "--gkebuild" in arguments:
        at = arguments.index("--gkebuild")
        binary = arguments[at + 1]
        del arguments[at:at + 2]
    root = Path(arguments[0] if arguments else Path(__file__).resolve().parent.parent).resolve()
    problems = check_front_page(root)
    problems += check_reserved_variables(root)
    problems += check_project_keys(root)
    if binary:
        problems += check_cli_names(root, binary)
    for required in ("docs", "bench/README.md", "CHANGELOG.md"):
        if not (root / required).exists():
            problems.append(f"{required}: missing")
    for path in documents(root):
        problems += check_links(root, path)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
