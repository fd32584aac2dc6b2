#!/usr/bin/env python3
"""test-index.py: tests/INDEX.md, the tests of each documented feature,
from the `covers:` line every test starts with (docs/testing.md "Finding
the tests of a feature").

    scripts/test-index.py            # writes tests/INDEX.md (make test-index)
    scripts/test-index.py --check    # exit 1 when INDEX.md is stale or a
                                     # covers: line is missing or wrong

The tests are the scripts tests/*.sh (but the runner and the files the
scripts source) and the unit tests tests/unit/test_*.c. A script's
covers: line is its first line after the `#!` line, a unit test's its
first line:

    # covers: docs/timing.md "5. Interconnect", docs/isa.md "Branches",
    #   "Flags"
    /* covers: docs/regress.md "Sign-off" */

A path (a .md file of the repository) names a document; each quoted name
after it one of its sections: the start of a heading (`#`..`####`, its
backquotes left out) or of a bold paragraph label (`**Waits**`); a path
with no name after it covers the whole document. A script's line goes on
while it ends with a comma, a unit test's to the `*/`.

Prints the problems, one a line, as FILE: MESSAGE.
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INDEX = 'tests/INDEX.md'
NOT_TESTS = {'tests/run.sh', 'tests/tap.sh', 'tests/refcmp.sh'}


def test_files():
    """Returns the test files, paths relative to the root, sorted."""
    sh = [f for f in sorted(glob.glob('tests/*.sh')) if f not in NOT_TESTS]
    return sh + sorted(glob.glob('tests/unit/test_*.c'))


def covers_text(path, lines):
    """Returns the text of the covers: line of a test (without the comment
    marks), or None when the test does not start with one."""
    if path.endswith('.c'):
        if not lines or not lines[0].startswith('/* covers:'):
            return None
        text = []
        for line in lines:
            end = '*/' in line
            line = line.split('*/')[0]
            line = re.sub(r'^(/\*|\s*\*)\s?', '', line)
            text.append(line)
            if end:
                break
        return ' '.join(' '.join(text).split())[len('covers:'):].strip()
    k = 1 if lines and lines[0].startswith('#!') else 0
    if len(lines) <= k or not lines[k].startswith('# covers:'):
        return None
    text = [lines[k][len('# covers:'):]]
    while text[-1].rstrip().endswith(',') and k + 1 < len(lines) and re.match(r'^#\s', lines[k + 1]):
        k += 1
        text.append(lines[k][1:])
    return ' '.join(' '.join(text).split())


def parse_covers(text):
    """Returns [(doc, section or None)] of a covers: text, or a message
    saying what is wrong with it."""
    items = []
    doc = None
    named = False
    for m in re.finditer(r'"([^"]*)"|([^\s,"]+)|,', text):
        if m.group(0) == ',':
            continue
        if m.group(2) is not None:
            if not m.group(2).endswith('.md'):
                return f'"{m.group(2)}" is not a document (a path ending in .md)'
            if doc and not named:
                items.append((doc, None))
            doc, named = m.group(2), False
            continue
        if doc is None:
            return f'section "{m.group(1)}" before any document'
        items.append((doc, m.group(1)))
        named = True
    if doc and not named:
        items.append((doc, None))
    if not items:
        return 'names no document'
    return items


def sections(doc):
    """Returns the document's sections in order: its headings (backquotes
    left out) and its bold paragraph labels."""
    out = []
    for line in open(doc, encoding='utf-8'):
        h = re.match(r'^#{1,4} (.*)', line)
        if h:
            out.append(h.group(1).replace('`', '').strip())
        for b in re.findall(r'\*\*([^*]+)\*\*', line):
            out.append(b.replace('`', '').strip())
    return out


def section_of(doc_sections, name):
    """Returns the first section that name starts, or None."""
    name = name.replace('`', '')
    for s in doc_sections:
        if s == name or s.startswith(name):
            return s
    return None


def suggestion(path, lines, docs):
    """Returns the covers: line a test without one should get, where it
    goes, with the sections its header comment cites (docs/X.md "Y" that
    exist), or a placeholder when it cites none."""
    cited = []
    for doc, names in re.findall(r'(docs/[A-Za-z0-9_./-]+\.md|README\.md)((?:,?\s*"[^"]+")*)',
                                 ' '.join(re.sub(r'^\s*(#|/?\*+)', '', l) for l in lines[:60])):
        if not os.path.isfile(doc):
            continue
        if doc not in docs:
            docs[doc] = sections(doc)
        for name in re.findall(r'"([^"]+)"', names):
            real = section_of(docs[doc], name)
            if real is not None and (doc, name) not in cited:
                cited.append((doc, name))
        if not re.findall(r'"([^"]+)"', names) and (doc, None) not in cited:
            cited.append((doc, None))
    groups = {}
    for doc, name in cited[:4]:
        groups.setdefault(doc, [])
        if name is not None:
            groups[doc].append(f'"{name}"')
    text = ', '.join(f'{doc} {", ".join(names)}'.strip() for doc, names in groups.items())
    text = text or 'docs/FILE.md "Section"'
    if path.endswith('.c'):
        return f'as its first line: /* covers: {text} */'
    return f'after its #! line: # covers: {text}'


def tier(path, lines):
    """Returns the tier a test runs in (fast, full or nightly: the `# tier:`
    line of its header, the comment lines it starts with), with its shards
    (`# shards: N`) when it has some."""
    header = []
    for line in lines:
        if not line.startswith('#'):
            break
        header.append(line)
    t = next((line.split()[2] for line in header if re.match(r'^# tier: [a-z]+', line)), 'fast')
    shards = next((line.split()[2] for line in header if re.match(r'^# shards: [0-9]+', line)), None)
    return f'{t}, {shards} shards' if shards else t


def collect():
    """Returns (tests, problems): tests a list of (path, tier, covers
    text, [(doc, section)]); problems a list of messages."""
    tests, problems, docs = [], [], {}
    for path in test_files():
        lines = open(path, encoding='utf-8').read().split('\n')
        text = covers_text(path, lines)
        if text is None:
            problems.append(f'{path}: does not start with a covers: line; add {suggestion(path, lines, docs)}'
                            '  (the docs sections it checks; those shown are the ones its header cites),'
                            ' then run make test-index (docs/testing.md "Finding the tests of a feature")')
            continue
        items = parse_covers(text)
        if isinstance(items, str):
            problems.append(f'{path}: covers: {items}')
            continue
        resolved = []
        for doc, sec in items:
            if not os.path.isfile(doc):
                problems.append(f'{path}: covers: {doc}: no such document')
                continue
            if doc not in docs:
                docs[doc] = sections(doc)
            if sec is None:
                resolved.append((doc, None))
                continue
            real = section_of(docs[doc], sec)
            if real is None:
                problems.append(f'{path}: covers: {doc} has no section "{sec}"')
                continue
            resolved.append((doc, real))
        tests.append((path, tier(path, lines), text, resolved))
    return tests, problems, docs


def render(tests, docs):
    """Returns the text of INDEX.md."""
    out = ['# Tests by feature', '',
           'Generated by `scripts/test-index.py` (`make test-index`) from the',
           '`covers:` line each test starts with; do not edit it by hand:',
           'tests/suite_check.sh (the fast tier) fails when it is stale.',
           'docs/testing.md "Finding the tests of a feature" says how.', '']
    by_doc = {}
    for path, _, _, items in tests:
        for doc, sec in items:
            by_doc.setdefault(doc, {}).setdefault(sec, [])
            if path not in by_doc[doc][sec]:
                by_doc[doc][sec].append(path)
    for doc in sorted(by_doc):
        out += [f'## {doc}', '', '| section | tests |', '|---|---|']
        order = [None] + docs[doc]
        for sec in sorted(by_doc[doc], key=lambda s: order.index(s)):
            name = '(the whole document)' if sec is None else sec.replace('|', '\\|')
            out.append(f'| {name} | {", ".join(by_doc[doc][sec])} |')
        out.append('')
    out += ['## Every test', '', '| test | tier | covers |', '|---|---|---|']
    for path, t, text, _ in tests:
        out.append(f'| {path} | {t} | {text.replace("|", chr(92) + "|")} |')
    out.append('')
    return '\n'.join(out)


def main(argv):
    """Returns the exit status."""
    os.chdir(ROOT)
    tests, problems, docs = collect()
    text = render(tests, docs)
    if '--check' in argv:
        old = open(INDEX, encoding='utf-8').read() if os.path.exists(INDEX) else ''
        if old != text:
            problems.append(f'{INDEX}: stale: run scripts/test-index.py (make test-index)')
        for p in problems:
            print(p)
        return 1 if problems else 0
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    with open(INDEX + '.tmp', 'w', encoding='utf-8') as f:
        f.write(text)
    os.replace(INDEX + '.tmp', INDEX)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
