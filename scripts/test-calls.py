#!/usr/bin/env python3
"""test-calls.py: lists the commands a bash test script calls that do not
exist (docs/testing.md "Checking the tests themselves").

    scripts/test-calls.py FILE.sh...

For each script it strips comments, quoted strings (keeping the command
substitutions inside double quotes), here-documents and arithmetic, then
takes the word in command position of every simple command: the first
word of a line, and the first after `;`, `&&`, `||`, `|`, `&`, `(`, `{`,
`$(`, a backquote, `!`, and the keywords `if then else elif do while until
time`. `case` patterns, the words of `for ... in`, `[[ ... ]]` and the
arguments of `local`/`export`/`declare` are not commands. A name is known
when the script or a file it sources (`. FILE`, `source FILE`, resolved
in the script's folder) defines it as a function, when bash has it as a
builtin or keyword, when it is on PATH, or when the script probes it
(`command -v NAME`, `have NAME`: a tool the machine may lack, whose use
the script guards). Names with `$`, `/` or `=` are not checked (a
variable, a path, an assignment).

It also finds a command whose last argument is `$?` after a command
substitution in its other arguments (`check "... $(head -1 F)" $?`):
bash expands the arguments left to right, so that `$?` is the status of
the substitution, not of the command before, and the check cannot fail.

Prints `FILE:LINE: NAME` for each unknown name and `FILE:LINE: $? ...`
for each such status; exits 1 when there is one, 0 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys

Q = '\x01'  # stands for a quoted string or arithmetic within a word
SEPS = {';', '&&', '||', '|', '&', '(', '{', '!', '\n', '$(', '`', ';;', '|&'}
KEYWORDS_BEFORE_CMD = {'if', 'then', 'else', 'elif', 'do', 'while', 'until', 'time'}
NOT_CMD_ARGS = {'local', 'export', 'declare', 'readonly', 'typeset', 'unset'}


def bash_names():
    """Returns the set of bash's builtins and keywords."""
    out = subprocess.run(['bash', '-c', 'compgen -b; compgen -k'],
                         capture_output=True, text=True, check=True).stdout
    return set(out.split())


def strip(text):
    """Returns the script's code as a list of (line, token) pairs: words and
    separators, with strings, comments, here-documents and arithmetic
    left out."""
    toks = []
    i, n, line = 0, len(text), 1
    word = ''
    word_line = 1
    stack = []          # 'dq' while inside a $( ) that sits in double quotes
    heredocs = []       # delimiters of here-documents opened on this line
    in_dq = False

    def flush():
        nonlocal word
        if word:
            toks.append((word_line, word))
            word = ''

    def sep(s):
        flush()
        toks.append((line, s))

    while i < n:
        c = text[i]
        if in_dq:
            if c == '\\':
                i += 2
                continue
            if c == '"':
                in_dq = False
                word += Q
                i += 1
                continue
            if text.startswith('$((', i):
                j = skip_arith(text, i + 3)
                line += text.count('\n', i, j)
                i = j
                continue
            if text.startswith('$(', i):
                stack.append('dq')
                in_dq = False
                sep('$(')
                i += 2
                continue
            if c == '`':
                stack.append('dq`')
                in_dq = False
                sep('`')
                i += 1
                continue
            if c == '\n':
                line += 1
            i += 1
            continue
        if c == '\\':
            if i + 1 < n and text[i + 1] == '\n':
                line += 1
            i += 2
            continue
        if c == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            line += text.count('\n', i, j)
            if not word:
                word_line = line
            word += Q
            i = j + 1
            continue
        if c == '"':
            if not word:
                word_line = line
            in_dq = True
            i += 1
            continue
        if c == '#' and not word:
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if c == '\n':
            sep('\n')
            line += 1
            i += 1
            for d, dash in heredocs:
                i, line = skip_heredoc(text, i, line, d, dash)
            heredocs = []
            continue
        if text.startswith('$((', i) or text.startswith('((', i) and not word:
            j = skip_arith(text, i + (3 if c == '$' else 2))
            line += text.count('\n', i, j)
            i = j
            word += Q
            continue
        if text.startswith('<<', i) and not text.startswith('<<<', i):
            m = re.match(r'<<(-?)\s*([\'"]?)([A-Za-z_0-9]+)\2', text[i:])
            if m:
                flush()
                heredocs.append((m.group(3), m.group(1) == '-'))
                i += m.end()
                continue
        if text.startswith('${', i):
            j = skip_braces(text, i + 2)
            line += text.count('\n', i, j)
            i = j
            word += Q
            continue
        if c == '(' and re.search(r'^[A-Za-z_][A-Za-z_0-9]*\+?=$', word):
            j = skip_arith(text, i + 1, 1)  # an array's elements
            line += text.count('\n', i, j)
            i = j
            word += Q
            continue
        if text.startswith('$(', i):
            stack.append('code')
            sep('$(')
            i += 2
            continue
        if c == '`':
            if stack and stack[-1].endswith('`'):
                kind = stack.pop()
                flush()
                if kind == 'dq`':
                    in_dq = True
                i += 1
                continue
            stack.append('code`')
            sep('`')
            i += 1
            continue
        if c == ')':
            if stack and not stack[-1].endswith('`'):
                kind = stack.pop()
                sep(')')
                if kind == 'dq':
                    in_dq = True
                i += 1
                continue
            sep(')')
            i += 1
            continue
        s = separator(text, i, word)
        if s:
            sep(s)
            i += len(s)
            continue
        if c in ' \t':
            flush()
            i += 1
            continue
        if not word:
            word_line = line
        word += c
        i += 1
    flush()
    return toks


def separator(text, i, word):
    """Returns the separator that starts at text[i] (after word, the part
    of a word read so far), or None."""
    for s in ('&&', '||', ';;', '|&', ';', '|', '&', '(', '{', '}'):
        if not text.startswith(s, i):
            continue
        # `{` and `}` are words unless they stand alone
        if s in '{}' and (word or (i + 1 < len(text) and text[i + 1] not in ' \t\n;')):
            return None
        # the `&` of a redirection (>&2, &>file) is part of the word
        if s == '&' and (word.endswith('>') or word.endswith('<') or text.startswith('&>', i)):
            return None
        return s
    return None


def skip_braces(text, i):
    """Returns the index after the `}` that closes a `${` opened before i."""
    depth = 1
    while i < len(text) and depth > 0:
        if text[i] == '{':
            depth += 1
        elif text[i] == '}':
            depth -= 1
        i += 1
    return i


def skip_arith(text, i, depth=2):
    """Returns the index after the `)` that closes the depth parentheses
    (arithmetic, an array's elements) opened before i."""
    while i < len(text) and depth > 0:
        if text[i] == '(':
            depth += 1
        elif text[i] == ')':
            depth -= 1
        i += 1
    return i


def skip_heredoc(text, i, line, delim, dash):
    """Returns (index, line) after the here-document's closing line."""
    while i < len(text):
        j = text.find('\n', i)
        j = len(text) if j < 0 else j
        body = text[i:j]
        line += 1
        i = j + 1
        if (body.lstrip('\t') if dash else body) == delim:
            break
    return i, line


def commands(toks):
    """Yields (line, name) for every word in command position, and
    (line, name, 'def') for every function definition."""
    expect = True
    case_pat = []       # a stack: True while reading a case's patterns
    skip_until = None
    prev = None
    k = 0
    while k < len(toks):
        line, t = toks[k]
        nxt = toks[k + 1][1] if k + 1 < len(toks) else None
        k += 1
        if skip_until:
            if t in skip_until:
                skip_until = None
                expect = t in SEPS or t in KEYWORDS_BEFORE_CMD
            prev = t
            continue
        if case_pat and case_pat[-1]:
            if t == 'esac':
                case_pat.pop()
                expect = False
            elif t == ')':
                case_pat[-1] = False
                expect = True
            prev = t
            continue
        if t in (';;', ';&', ';;&') and case_pat:
            case_pat[-1] = True
            prev = t
            continue
        if t == 'esac' and case_pat:
            case_pat.pop()
            expect = False
            prev = t
            continue
        if t in SEPS or t == '}' or t == ')':
            expect = t not in ('}', ')')
            prev = t
            continue
        if not expect:
            prev = t
            continue
        # in command position
        if t in KEYWORDS_BEFORE_CMD:
            prev = t
            continue
        if t == 'case':
            # case WORD in
            while k < len(toks) and toks[k][1] != 'in':
                k += 1
            k += 1
            case_pat.append(True)
            prev = 'in'
            continue
        if t in ('for', 'select'):
            skip_until = {';', '\n', 'do'}
            expect = False
            continue
        if t == '[[':
            skip_until = {']]'}
            continue
        if t == 'function':
            if k < len(toks):
                yield (toks[k][0], toks[k][1], 'def')
                k += 1
            expect = False
            continue
        if re.match(r'^[A-Za-z_][A-Za-z_0-9]*(\[[^]]*\])?\+?=', t):
            # an assignment before the command
            continue
        if re.match(r'^[0-9]*[<>]', t) or re.match(r'^&>', t):
            # a redirection before the command: its target is the next word
            if re.match(r'^[0-9]*[<>]+&?$', t) or t == '&>':
                k += 1
            continue
        if nxt == '(' and k + 1 < len(toks) and toks[k + 1][1] == ')':
            yield (line, t, 'def')
            k += 2
            expect = True
            continue
        yield (line, t, 'call')
        expect = False
        if t in NOT_CMD_ARGS:
            skip_until = {';', '\n', '&&', '||', '|', ')', '`'}
        prev = t


def sourced(path, text):
    """Returns the files the script sources, resolved in its folder."""
    here = os.path.dirname(path)
    out = []
    for m in re.finditer(r'^\s*(?:\.|source)\s+"?(?:\$\(dirname "\$0"\)|\$here|tests)?/?([A-Za-z_0-9.-]+\.sh)"?',
                         text, re.M):
        f = os.path.join(here, m.group(1))
        if os.path.exists(f):
            out.append(f)
    return out


def defined(path, seen=None):
    """Returns the function names path and the files it sources define."""
    seen = seen if seen is not None else set()
    if path in seen:
        return set()
    seen.add(path)
    text = open(path, encoding='utf-8').read()
    names = {c[1] for c in commands(strip(text)) if c[2] == 'def'}
    for f in sourced(path, text):
        names |= defined(f, seen)
    return names


def probed(text):
    """Returns the names the script probes before using them."""
    return set(re.findall(r'(?:command -v|have|type -p|type -P|which)\s+([A-Za-z_0-9.+-]+)', text))


STALE_STATUS = re.compile(r'^\s*[a-z_]+ (?!.*=\$\().*\$\((?!\().*\s\$\?\s*(;.*)?$')


def stale_status(text):
    """Yields the lines whose command reads `$?` after a command
    substitution among its own arguments."""
    delim = None
    for i, line in enumerate(text.split('\n'), 1):
        if delim is not None:
            if line.strip() == delim:
                delim = None
            continue
        if not line.lstrip().startswith('#') and STALE_STATUS.match(line):
            yield i
        m = re.search(r'<<-?\s*([\'"]?)([A-Za-z_0-9]+)\1', line)
        if m and '<<<' not in line:
            delim = m.group(2)


def main(files):
    """Returns the exit status: 1 when a script calls an unknown name."""
    known = bash_names()
    bad = 0
    for path in files:
        text = open(path, encoding='utf-8').read()
        defs = defined(path)
        probes = probed(text)
        for line, name, kind in commands(strip(text)):
            if kind != 'call' or not re.match(r'^[A-Za-z_][A-Za-z_0-9.+-]*$', name):
                continue
            if name in defs or name in known or name in probes or shutil.which(name):
                continue
            print(f'{path}:{line}: {name}')
            bad = 1
        for line in stale_status(text):
            print(f'{path}:{line}: $? after a $( ) in the same command is the status of the substitution')
            bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
