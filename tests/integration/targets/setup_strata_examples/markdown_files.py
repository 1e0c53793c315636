"""Write the files a Markdown page shows, so that a test runs exactly what the docs say.

    python markdown_files.py PAGE SECTION DEST

Every fenced code block under the heading SECTION (up to the next heading of the same or a higher level) whose
first line is a comment naming a relative path (``# ansible.cfg``, ``# data/nodes/web01.yml``) is written,
whole, to DEST/<path>. Prints the paths written; fails when there is none.
"""

import os
import re
import sys

FENCE = re.compile(r'^```[\w+-]*\n(.*?)^```\n', re.MULTILINE | re.DOTALL)
NAMED = re.compile(r'^# ([\w.-]+(?:/[\w.-]+)*)\n')


def section(text, title):
    """The lines under the heading TITLE, up to the next heading of its level or higher (fences skipped)."""
    lines, level, fenced, inside = [], None, False, False
    for line in text.splitlines(True):
        if line.startswith('```'):
            fenced = not fenced
        heading = None if fenced else re.match(r'^(#+) (.*)\n?$', line)
        if heading and inside and len(heading.group(1)) <= level:
            break
        if inside:
            lines.append(line)
        elif heading and heading.group(2) == title:
            inside, level = True, len(heading.group(1))
    if not inside:
        raise SystemExit('no heading %r' % title)
    return ''.join(lines)


def main(page, title, dest):
    with open(page, encoding='utf-8') as handle:
        body = section(handle.read(), title)
    written = []
    for block in FENCE.findall(body):
        named = NAMED.match(block)
        if not named or '..' in named.group(1).split('/'):
            continue
        path = os.path.join(dest, named.group(1))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w', encoding='utf-8') as handle:
            handle.write(block)
        written.append(named.group(1))
    if not written:
        raise SystemExit('no named file under %r in %s' % (title, page))
    print('\n'.join(written))


if __name__ == '__main__':
    main(*sys.argv[1:4])
