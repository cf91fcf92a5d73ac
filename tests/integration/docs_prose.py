#!/usr/bin/env python3
"""Prints each prose paragraph of the given Markdown files whose parentheses or code spans do
not balance: the mark of a sentence cut off mid-parenthesis with the next one glued on (as
the README's B0->A0 paragraph once was).  Fenced code, tables, headings and comments are not
prose; each list item is a paragraph of its own."""
import re
import sys


def unbalanced(text):
    if text.count('`') % 2:
        return 'an unclosed `'
    plain = re.sub(r'`[^`]*`', '', text)
    plain = re.sub(r'\[[^\[\]()]*\)', '', plain)  # a half-open interval: [0, 2^31)
    if plain.count('(') != plain.count(')'):
        return 'unbalanced parentheses'
    return None


def paragraphs(path):
    """Yields (first line number, text) of each prose paragraph."""
    para, start, fence = [], 0, False
    with open(path, encoding='utf-8') as f:
        lines = f.read().split('\n')
    for n, line in enumerate(lines + [''], 1):
        s = line.strip()
        ends = (not s or s.startswith(('```', '|', '#', '<!--')) or
                re.match(r'([-*+]|\d+\.) ', s))
        if ends and para:
            yield start, ' '.join(para)
            para = []
        if s.startswith('```'):
            fence = not fence
        if fence or not s or s.startswith(('```', '|', '#', '<!--')):
            continue
        if not para:
            start = n
        para.append(s)


bad = 0
for path in sys.argv[1:]:
    for line, text in paragraphs(path):
        why = unbalanced(text)
        if why:
            print(f'{path}:{line}: {why}: {text[:100]}')
            bad += 1
sys.exit(1 if bad else 0)
