"""The rewrite keeps the command's meaning: real grep/rg and find/fd on a realistic project tree.

Every command below goes through the real pave-check (rules grep → rg and
find → fd), then the original and the rewritten command run in bash on a tree
that looks like a real project: a Python package with ``__pycache__/*.pyc``, a
PNG in ``assets/``, a committed ``.git/``, ``node_modules/``, a minified
bundle, symlinks, a name with a space, hidden files, files ``.gitignore``
ignores, deep nesting, a file with non-UTF-8 bytes, empty files.

They run with each set of real tools users have (``search_tools``): Debian
stable's rg 13 and fd 8, the ripgrep wheel from PyPI, and the newest rg and fd.
A translated command must print the same lines on standard output (compared
as a set of lines in any order, with a leading ``./`` and fd's trailing ``/``
on directories ignored), report an error on standard error exactly when the
original does (grep's "binary file matches" notices are information, not
errors), and end in the same exit status class (0, 1, ≥2). A command dp
cannot translate exactly must come back unchanged, and ``--verbose`` must say
why.
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import pytest
from hook_support import BIN, build_store
from search_tools import tool_set, version

TRANSLATED, UNCHANGED = "translated", "unchanged"

GREP = [
    # --- translated: plain searches, flags, groups, values
    ("grep foo src/main.py", TRANSLATED),
    ("grep -n foo src/main.py", TRANSLATED),
    ("grep -i foo src/main.py", TRANSLATED),
    ("grep -in foo src/main.py src/util.py", TRANSLATED),
    ("grep -v foo src/sub/deep.txt", TRANSLATED),
    ("grep -w foo src/util.py docs/guide.md", TRANSLATED),
    ("grep -x FOO src/sub/deep.txt", TRANSLATED),
    ("grep -c foo src/main.py", TRANSLATED),
    ("grep -c foo src/main.py src/util.py docs/guide.md src/sub/empty.txt", TRANSLATED),
    ("grep -q foo src/main.py", TRANSLATED),
    ("grep -q nomatch src/main.py", TRANSLATED),
    ("grep -q foo src/main.py && echo found", TRANSLATED),
    ("grep -m1 foo src/main.py", TRANSLATED),
    ("grep -m 1 -n foo src/main.py", TRANSLATED),
    ("grep --max-count=1 foo docs/guide.md", TRANSLATED),
    ("grep -A1 TODO src/main.py", TRANSLATED),
    ("grep -B 1 -n foo src/util.py", TRANSLATED),
    ("grep -C1 foo docs/guide.md", TRANSLATED),
    ("grep --context=1 foo docs/guide.md", TRANSLATED),
    ("grep -h foo src/main.py src/util.py", TRANSLATED),
    ("grep -H foo src/main.py", TRANSLATED),
    ("grep -l foo src/*.py", TRANSLATED),
    ("grep -L foo src/*.py docs/guide.md", UNCHANGED),
    ("grep -n '^def' src/*.py", TRANSLATED),
    ("grep foo UPPER.TXT", TRANSLATED),
    ("grep -i upper UPPER.TXT", TRANSLATED),
    ("grep --ignore-case --line-number foo src/main.py", TRANSLATED),
    ("grep --count foo src/main.py", TRANSLATED),
    ("grep --files-with-matches foo src/main.py src/util.py", TRANSLATED),
    ("grep --invert-match --count foo docs/guide.md", TRANSLATED),
    ("grep -o 'foo[a-z]*' docs/guide.md", TRANSLATED),
    ("grep -on foo docs/guide.md", TRANSLATED),
    ("grep -b foo src/util.py", TRANSLATED),
    ("grep -n foo -- src/main.py", TRANSLATED),
    ("grep -vc '^$' docs/guide.md", TRANSLATED),
    ("grep -s foo missing.txt src/main.py", TRANSLATED),
    ("grep foo missing.txt", TRANSLATED),
    ("grep -i 'FOO BAR' src/Readme.MD", TRANSLATED),
    ("grep -Hn foo src/main.py", TRANSLATED),
    ("grep -a foo data.bin", TRANSLATED),
    ("grep --color=never foo src/main.py", TRANSLATED),
    ("grep -nw 'return' src/main.py src/util.py tests/test_main.py", TRANSLATED),
    # --- regex dialects: basic (default), extended, fixed
    ("grep -E 'foo|bar' src/util.py", TRANSLATED),
    ("grep -E '^def [a-z]+' src/main.py src/util.py", TRANSLATED),
    ("grep -E '[0-9]+' src/util.py", TRANSLATED),
    ("grep -Ei 'foo(bar)?' docs/guide.md", TRANSLATED),
    ("grep -E 'o{2}' docs/guide.md", TRANSLATED),
    ("grep --extended-regexp 'x \\+ 1' src/util.py", TRANSLATED),
    ("grep -e foo -e bar src/util.py", TRANSLATED),
    ("grep -F 'foo+bar' src/util.py", TRANSLATED),
    ("grep -F '(a)' src/sub/deep.txt", TRANSLATED),
    ("grep -F '[x]' src/util.py docs/guide.md", TRANSLATED),
    ("grep 'foo\\|bar' src/util.py", TRANSLATED),
    ("grep 'foo+bar' src/util.py", TRANSLATED),
    ("grep '(a)' src/sub/deep.txt", TRANSLATED),
    ("grep 'x + 1' src/util.py", TRANSLATED),
    ("grep 'o\\{2\\}' docs/guide.md", TRANSLATED),
    ("grep '\\(foo\\)bar' docs/guide.md", TRANSLATED),
    ("grep 'fo*' docs/guide.md", TRANSLATED),
    ("grep 'a|b' src/Readme.MD", TRANSLATED),
    ("grep 'foo|bar' src/Readme.MD", TRANSLATED),
    ("grep '[[:upper:]]' docs/guide.md", TRANSLATED),
    ("grep '[^a-z ]' docs/guide.md", TRANSLATED),
    ("grep '\\bfoo\\b' docs/guide.md", TRANSLATED),
    ("grep 'a.b' docs/guide.md src/util.py", TRANSLATED),
    ("grep 'x$' src/util.py", TRANSLATED),
    ("grep 'a$b' docs/guide.md", TRANSLATED),
    ("grep '\\.md' docs/guide.md", TRANSLATED),
    ("grep -w '\\w*oo' docs/guide.md", TRANSLATED),
    ("grep '' src/sub/empty.txt", TRANSLATED),
    # --- recursive: hidden files, .gitignore, binary file, symlinks
    ("grep -r foo .", TRANSLATED),
    ("grep -rn foo .", TRANSLATED),
    ("grep -rni foo .", TRANSLATED),
    ("grep -rl foo .", TRANSLATED),
    ("grep -lr TODO .", TRANSLATED),
    ("grep -rL foo src docs", UNCHANGED),
    ("grep -rc foo src", TRANSLATED),
    ("grep -rn foo src", TRANSLATED),
    ("grep -rn TODO src docs", TRANSLATED),
    ("grep -rn TODO", TRANSLATED),
    ("grep -r foo", TRANSLATED),
    ("grep -rli 'todo' .", TRANSLATED),
    ("grep -rw foo src", TRANSLATED),
    ("grep -rx FOO src", TRANSLATED),
    ("grep -rhn foo src", TRANSLATED),
    ("grep -rH foo src/main.py", TRANSLATED),
    ("grep -r foo src/main.py", TRANSLATED),
    ("grep -rE 'foo(bar)?' docs", TRANSLATED),
    ("grep -ro 'foo[a-z]*' docs", TRANSLATED),
    ("grep -rn '\\bfoo\\b' src", TRANSLATED),
    ("grep -rn 'def foo' .", TRANSLATED),
    ("grep -rn -A 2 'def foo' src", TRANSLATED),
    ("grep -rn 'return' src tests", TRANSLATED),
    ("grep -rn --include='*.py' foo .", TRANSLATED),
    ("grep -rn --include=*.py foo", TRANSLATED),
    ("grep -rn 'TODO' --include='*.py' .", TRANSLATED),
    ("grep -r --include='*.py' --include='*.md' -l foo .", TRANSLATED),
    ("grep -ri 'foo' src --include='*.py'", TRANSLATED),
    ("grep -r --include=*.md -i guide .", TRANSLATED),
    ("grep -rn --exclude='*.py' foo src", TRANSLATED),
    ("grep -rn --exclude-dir=sub foo src", TRANSLATED),
    ("grep -rn --exclude-dir=.git foo .", TRANSLATED),
    ("grep -ril foo --exclude-dir=node_modules .", TRANSLATED),
    ("grep -rn TODO . --exclude-dir=.git --exclude-dir=build", TRANSLATED),
    ("grep -rIl foo .", TRANSLATED),
    ("grep -R foo docs dirlink", TRANSLATED),
    ("grep -R foo .", TRANSLATED),
    ("grep -r foo dirlink", TRANSLATED),
    ("grep -rZl foo src | tr '\\0' '\\n'", TRANSLATED),
    ("grep -rc foo docs src/sub", TRANSLATED),
    ("grep -rl ERROR .", TRANSLATED),
    ("grep -rl API_KEY .", TRANSLATED),
    ("grep -rq built . && echo yes", TRANSLATED),
    # --- standard input and pipelines
    ("cat src/main.py | grep foo", TRANSLATED),
    ("cat src/main.py | grep -c foo", TRANSLATED),
    ("grep foo < src/main.py", TRANSLATED),
    ("grep foo", TRANSLATED),
    ("echo hello | grep -v foo", TRANSLATED),
    ("printf 'a\\nb\\n' | grep -x a", TRANSLATED),
    ("git status --short | grep -c '^??'", TRANSLATED),
    ("grep -rn foo src | grep -v test", TRANSLATED),
    ("grep foo $(ls src/*.py)", UNCHANGED),
    ("for f in src/*.py; do grep -c foo \"$f\"; done", UNCHANGED),
    ("ls src/*.py | xargs grep -l foo", TRANSLATED),
    ("if grep -q TODO src/main.py; then echo todo; fi", TRANSLATED),
    ("[[ $(grep -c foo src/main.py) -gt 0 ]] && echo many", TRANSLATED),
    ("count=$(grep -rl foo src | wc -l); echo $count", TRANSLATED),
    # --- a realistic project: __pycache__, a PNG, .git, node_modules, a minified bundle,
    # a name with a space, deep nesting, a file with non-UTF-8 bytes
    ("grep -rn Cart src", TRANSLATED),
    ("grep -rw Cart src", TRANSLATED),
    ("grep -rni cart src | grep -v test", TRANSLATED),
    ("grep -rn Cart src | wc -l", TRANSLATED),
    ("grep -rn foo . 2>/dev/null | wc -l", TRANSLATED),
    ("grep -rn --exclude-dir={node_modules,build} foo .", TRANSLATED),
    ("grep -n '^def \\|^class ' src/shop/cart.py", TRANSLATED),
    ("grep -c '^def \\|^class ' src/shop/cart.py", TRANSLATED),
    ("grep -rn '^import \\|^from ' src", TRANSLATED),
    ("grep -rn '\\(^\\|[^a-z]\\)total' src", TRANSLATED),
    ("grep -rn 'items$\\|: *$' src", TRANSLATED),
    ("grep -rn 'TODO\\|FIXME' src", TRANSLATED),
    ("grep -rnE 'TODO|FIXME' .", TRANSLATED),
    ("grep -rnE '^(def|class) ' src", TRANSLATED),
    ("grep -rn 'class \\w\\+' src", TRANSLATED),
    ("grep -rn '\\<Cart\\>' src", TRANSLATED),
    ("grep -rn '\\<total' src tests", TRANSLATED),
    ("grep -n 'Cart\\>' src/shop/cart.py", TRANSLATED),
    ("grep -rn '\\<\\w*otal' src", UNCHANGED),
    ("grep -rn 'x\\{2,\\}' src", TRANSLATED),
    ("grep -rno 'Cart[A-Za-z]*' src", TRANSLATED),
    ("grep -ro Cart src", TRANSLATED),
    ("grep -rh '^import' src | sort | uniq -c", TRANSLATED),
    ("grep -rc Cart src", TRANSLATED),
    ("grep -rl Cart .", TRANSLATED),
    ("grep -rl IHDR .", TRANSLATED),
    ("grep -rq IHDR . && echo png", TRANSLATED),
    ("grep -rlI Cart .", TRANSLATED),
    ("grep -r --binary-files=without-match -l Cart .", TRANSLATED),
    ("grep -r --binary-files=text -l IHDR assets", TRANSLATED),
    ("grep -l IHDR assets/logo.png", TRANSLATED),
    ("grep -q IHDR assets/logo.png && echo png", TRANSLATED),
    ("grep -a -c IHDR assets/logo.png", TRANSLATED),
    ("grep IHDR assets/logo.png", UNCHANGED),
    ("grep -c Cart src/shop/__pycache__/cart.cpython-311.pyc", UNCHANGED),
    ("grep -o Cart src/shop/__pycache__/cart.cpython-311.pyc", UNCHANGED),
    ("grep foo *", UNCHANGED),
    ("grep -rn foo node_modules", TRANSLATED),
    ("grep -rn leftPad node_modules/left-pad", TRANSLATED),
    ("grep -c foo dist/app.min.js", TRANSLATED),
    ("grep -o 'foo[a-z]*' dist/app.min.js", TRANSLATED),
    ("grep -rl foo dist", TRANSLATED),
    ("grep -n foo 'docs/release notes.md'", TRANSLATED),
    ("grep -rn foo docs", TRANSLATED),
    ("grep -rn deep src/pkg", TRANSLATED),
    ("grep -rl Caf data", TRANSLATED),
    ("grep -c Caf data/legacy.csv", TRANSLATED),
    ("grep -rn foo .git", TRANSLATED),
    ("grep -rn 'total(' src tests", TRANSLATED),
    ("grep -rL Cart src", UNCHANGED),
    ("grep -n '\\(Cart\\)\\1' src/shop/cart.py", UNCHANGED),
    ("grep -rn '\\<\\(foo\\|bar\\)' src", UNCHANGED),
    ("grep -E '(a|b)\\1' src/util.py", UNCHANGED),
    # --- left alone: no exact rg equivalent
    ("grep -P '\\d+' src/util.py", UNCHANGED),
    ("grep '\\<foo\\>' src/main.py", TRANSLATED),
    ("grep -rU foo .", UNCHANGED),
    ("grep -T foo src/main.py", UNCHANGED),
    ("grep --label=x foo", UNCHANGED),
    ("grep \"$PAT\" src/main.py", UNCHANGED),
    ("grep -f patterns.txt src/main.py", UNCHANGED),
    ("grep -3 foo src/main.py", UNCHANGED),
    ("grep -E '(o)\\1' docs/guide.md", UNCHANGED),
    ("grep -I foo data.bin src/main.py", UNCHANGED),
    ("grep --include='*.py' foo src/main.py", UNCHANGED),
    ("grep --binary-files=text foo data.bin", TRANSLATED),
    ("grep -d skip foo src", UNCHANGED),
    ("grep -E 'o{,3}' docs/guide.md", UNCHANGED),
    ("grep '*foo' docs/guide.md", TRANSLATED),
    ("grep -E '[[x]' docs/guide.md", UNCHANGED),
    ("grep --colour foo src/main.py", UNCHANGED),
    ("grep -rn --include='src/*.py' foo .", UNCHANGED),
    ("\\grep -rn foo .", UNCHANGED),
]

FIND = [
    ("find . -name '*.py'", TRANSLATED),
    ("find . -name '*.py' -type f", TRANSLATED),
    ("find src -name '*.py'", TRANSLATED),
    ("find . -type f", TRANSLATED),
    ("find . -type f -name '*.md'", TRANSLATED),
    ("find . -iname '*.md'", TRANSLATED),
    ("find . -iname 'readme*'", TRANSLATED),
    ("find . -name 'UPPER*'", TRANSLATED),
    ("find . -name '*.txt' -type f", TRANSLATED),
    ("find . -name '*.TXT'", TRANSLATED),
    ("find src -type d -name sub", TRANSLATED),
    ("find . -maxdepth 1 -type f", TRANSLATED),
    ("find . -maxdepth 2 -name '*.py'", TRANSLATED),
    ("find . -mindepth 2 -type f", TRANSLATED),
    ("find . -mindepth 1 -maxdepth 1", TRANSLATED),
    ("find . -mindepth 1 -type d", TRANSLATED),
    ("find . -type l", TRANSLATED),
    ("find . -name '*.log'", TRANSLATED),
    ("find . -name '.env'", TRANSLATED),
    ("find . -name '.*' -type f", TRANSLATED),
    ("find . -type f -empty", TRANSLATED),
    ("find . -type d -empty", UNCHANGED),
    ("find src docs -name '*.md'", TRANSLATED),
    ("find . -name '*.py' -print", TRANSLATED),
    ("find . -name '*.py' -a -type f", TRANSLATED),
    ("find tests -name 'test_*.py'", TRANSLATED),
    ("find . -name 'nomatch*'", TRANSLATED),
    ("find . -name '[A-Z]*'", TRANSLATED),
    ("find . -name '*.?d'", TRANSLATED),
    ("find . -name \"*.md\" -type f", TRANSLATED),
    ("find docs -type f", TRANSLATED),
    ("find -name '*.py'", TRANSLATED),
    ("find -type f -name '*.txt'", TRANSLATED),
    ("find . -type d -name 'build'", TRANSLATED),
    ("find . -type d -name '.hidden'", TRANSLATED),
    ("find -L . -name '*.md'", TRANSLATED),
    ("find . -follow -name 'guide*'", TRANSLATED),
    ("find . -xdev -name '*.py'", TRANSLATED),
    ("find . -name '*.py' -print0 | xargs -0 wc -l", TRANSLATED),
    ("find . -name '*.py' -type f -print0 | xargs -0 grep -l foo", TRANSLATED),
    ("find . -name '*.py' -exec wc -l {} \\;", UNCHANGED),
    ("find . -name '*.py' -exec wc -l {} +", TRANSLATED),
    ("find . -name '*.txt' -type f -exec cat {} \\;", UNCHANGED),
    ("find src -type f -exec ls {} +", TRANSLATED),
    ("find . -name '*.md' -exec grep -c foo {} +", TRANSLATED),
    ("find . -name '*.py' | wc -l", TRANSLATED),
    ("find . -name '*.py' | sort", TRANSLATED),
    ("find . -name '*.py' | xargs grep -n foo", TRANSLATED),
    ("find src -name '*.py' | xargs wc -l", TRANSLATED),
    ("grep -c foo $(find src -name '*.py')", TRANSLATED),
    ("for f in $(find docs -name '*.md'); do wc -l \"$f\"; done", TRANSLATED),
    ("find . -type f -name '*.py' | head -100", TRANSLATED),
    ("find . -maxdepth 1 -name '*.TXT' -type f", TRANSLATED),
    ("find . -type f -iname '*.txt'", TRANSLATED),
    ("find src -mindepth 1 -maxdepth 1 -type f", TRANSLATED),
    # --- a realistic project
    ("find . -name '*.pyc'", TRANSLATED),
    ("find . -type d -name __pycache__", TRANSLATED),
    ("find . -name '*.png' -type f", TRANSLATED),
    ("find . -name node_modules -type d", TRANSLATED),
    ("find . -name '*.min.js'", TRANSLATED),
    ("find . -name '* *'", TRANSLATED),
    ("find docs -name '*.md' -type f", TRANSLATED),
    ("find . -mindepth 5 -type f", TRANSLATED),
    ("find src/pkg -type f -name '*.py'", TRANSLATED),
    ("find . -maxdepth 3 -name '*.py' -type f", TRANSLATED),
    ("find . -name '.gitignore'", TRANSLATED),
    ("find . -name '*.csv' -exec wc -c {} +", TRANSLATED),
    ("find . -name '*.py' -exec grep -l TODO {} +", TRANSLATED),
    ("find . -name '*.py' -exec grep -l NOPE {} + && echo found", TRANSLATED),
    ("find src -name '*.pyc' -exec ls {} +", TRANSLATED),
    ("find . -type f -name '*.py' -exec grep -c Cart {} +", TRANSLATED),
    # find -exec … \; stays (its exit status); the grep it runs is translated on its own.
    ("find . -type f -exec grep -l TODO {} \\;", TRANSLATED),
    ("find . -name '*.py' -exec grep -q NOPE {} \\; && echo ok", TRANSLATED),
    ("find . -name '*.py' -execdir pwd \\;", UNCHANGED),
    ("find . -path '*/node_modules/*' -prune -o -name '*.js' -print", UNCHANGED),
    ("find . -name '*.js' -not -path './node_modules/*'", UNCHANGED),
    # --- left alone
    ("find . -type d", UNCHANGED),
    ("find .", UNCHANGED),
    ("find . -maxdepth 1", UNCHANGED),
    ("find . -name '*.tmp' -delete", UNCHANGED),
    ("find . -name '*.py' -o -name '*.md'", UNCHANGED),
    ("find . ! -name '*.py'", UNCHANGED),
    ("find . -not -path './.git/*'", UNCHANGED),
    ("find . -path './src/*'", UNCHANGED),
    ("find . -regex '.*py'", UNCHANGED),
    ("find . -newer src/main.py", UNCHANGED),
    ("find . -mtime -1", UNCHANGED),
    ("find . -size +1k", UNCHANGED),
    ("find . -perm 644", UNCHANGED),
    ("find . -name '*.py' -printf '%f\\n'", UNCHANGED),
    ("find . -name '*.py' -execdir ls {} \\;", UNCHANGED),
    ("find . -name '*.py' -ok rm {} \\;", UNCHANGED),
    ("find src/main.py -name '*.py'", UNCHANGED),
    ("find $HOME -name x", UNCHANGED),
    ("find . -name '*.py' -ls", UNCHANGED),
    ("find . \\( -name a -o -name b \\)", UNCHANGED),
    ("find . -type f -exec echo hi \\;", UNCHANGED),
    ("find . -name sr'c'", TRANSLATED),
    ("find . -name '*' -type d", UNCHANGED),
    ("find . -empty", UNCHANGED),
    ("\\find . -name '*.py'", UNCHANGED),
]

# rg → grep: the grep table read backwards (where ripgrep is missing). grep -r also searches the hidden
# and .gitignored files rg skips: the translation must print every line rg prints, and besides them only
# lines of those files (test_rg_and_its_grep_translation_agree). Every rg flag the reverse knows is here.
RG = [
    ("rg foo src/main.py", TRANSLATED),
    ("rg -n foo src", TRANSLATED),
    ("rg -n foo src docs", TRANSLATED),
    ("rg foo", TRANSLATED),
    ("rg -n foo .", TRANSLATED),
    ("rg -i foo src/main.py src/util.py", TRANSLATED),
    ("rg --ignore-case --line-number foo src", TRANSLATED),
    ("rg -v foo src/sub/deep.txt", TRANSLATED),
    ("rg --invert-match foo docs/guide.md", TRANSLATED),
    ("rg -w foo src", TRANSLATED),
    ("rg --word-regexp Cart src", TRANSLATED),
    ("rg -x FOO src/sub/deep.txt", TRANSLATED),
    ("rg --line-regexp FOO src", TRANSLATED),
    ("rg -F 'foo+bar' src", TRANSLATED),
    ("rg --fixed-strings '(a)' src", TRANSLATED),
    ("rg -e foo -e bar src/util.py", TRANSLATED),
    ("rg --regexp=foo src", TRANSLATED),
    ("rg -l foo", TRANSLATED),
    ("rg -l Cart .", TRANSLATED),
    ("rg --files-with-matches foo src", TRANSLATED),
    ("rg -l IHDR assets", TRANSLATED),
    ("rg -m1 foo src/main.py", TRANSLATED),
    ("rg --max-count 1 -n foo src", TRANSLATED),
    ("rg -o 'foo[a-z]*' docs", TRANSLATED),
    ("rg --only-matching -n Cart src", TRANSLATED),
    ("rg -q foo src && echo found", TRANSLATED),
    ("rg -q nomatch src || echo none", TRANSLATED),
    ("rg --quiet IHDR . && echo png", TRANSLATED),
    ("rg -b foo src/util.py", TRANSLATED),
    ("rg --byte-offset foo docs/guide.md", TRANSLATED),
    ("rg -H foo src/main.py", TRANSLATED),
    ("rg --with-filename foo src/main.py", TRANSLATED),
    ("rg -I foo src", TRANSLATED),
    ("rg --no-filename -n foo src", TRANSLATED),
    ("rg -0 -l foo src | tr '\\0' '\\n'", TRANSLATED),
    ("rg --null -l foo docs | tr '\\0' '\\n'", TRANSLATED),
    ("rg --color=never foo src/main.py", TRANSLATED),
    ("rg --color never -n foo src", TRANSLATED),
    ("rg --line-buffered foo src/main.py", TRANSLATED),
    ("rg -A1 TODO src/main.py", TRANSLATED),
    ("rg --after-context 1 foo docs/guide.md", TRANSLATED),
    ("rg -B 1 -n foo src/util.py", TRANSLATED),
    ("rg --before-context=1 foo docs", TRANSLATED),
    ("rg -C1 foo docs/guide.md", TRANSLATED),
    ("rg --context 1 -n Cart src", TRANSLATED),
    ("rg -C1 --no-context-separator foo docs", TRANSLATED),
    ("rg -a foo data.bin", TRANSLATED),
    ("rg --text -c foo data.bin", UNCHANGED),
    ("rg -s Foo src", TRANSLATED),
    ("rg --no-messages foo missing.txt src/main.py", TRANSLATED),
    ("rg -z foo src/main.py", UNCHANGED),  # rg -z searches compressed files: not grep's -z
    ("rg --text foo data.bin", TRANSLATED),
    ("rg -F -f patterns.txt src/main.py", TRANSLATED),
    ("rg --null-data foo docs/guide.md", TRANSLATED),
    ("rg -L foo docs dirlink", TRANSLATED),
    ("rg --follow foo .", TRANSLATED),
    ("rg -g '*.py' -n foo .", TRANSLATED),
    ("rg -n foo -g '*.md'", TRANSLATED),
    ("rg --glob '*.py' -l Cart src", TRANSLATED),
    ("rg -g '!*.py' foo src", TRANSLATED),
    ("rg -g '!sub/' foo src", TRANSLATED),
    ("rg --glob='!node_modules/' -n foo .", TRANSLATED),
    ("rg --hidden --no-ignore -n foo src", TRANSLATED),
    ("rg --no-heading -n foo src", TRANSLATED),
    ("rg -N foo src/main.py", TRANSLATED),
    ("rg --no-line-number foo src", TRANSLATED),
    # patterns: grep reads them as basic regexes where it can, with -E where extended ones read the same
    ("rg 'foo|bar' src/util.py", TRANSLATED),
    ("rg -n 'def [a-z]+' src", TRANSLATED),
    ("rg 'constructor\\(' src", TRANSLATED),
    ("rg 'total\\(' -n src tests", TRANSLATED),
    ("rg '^(def|class) ' src", TRANSLATED),
    ("rg 'o{2}' docs/guide.md", TRANSLATED),
    ("rg '\\bfoo\\b' docs", TRANSLATED),
    ("rg 'TODO|FIXME' -n .", TRANSLATED),
    ("rg -n 'interface IssueContext' src", TRANSLATED),
    ("rg \"Cart\" -n", TRANSLATED),
    ("rg -in cart src | grep -v test", TRANSLATED),
    ("rg -n Cart src | wc -l", TRANSLATED),
    ("cat src/main.py | rg foo", TRANSLATED),
    ("rg foo < src/main.py", TRANSLATED),
    ("ls src/*.py | xargs rg -l foo", TRANSLATED),
    ("count=$(rg -l foo src | wc -l); echo $count", TRANSLATED),
    # --- left alone: an rg flag with no exact grep meaning, or a shape the table refuses
    ("rg -c foo src", UNCHANGED),
    ("rg --count foo src/main.py", UNCHANGED),
    ("rg -t py foo", UNCHANGED),
    ("rg --type py -n foo", UNCHANGED),
    ("rg --files", UNCHANGED),
    ("rg --files -g '*.md'", UNCHANGED),
    ("rg -S foo src", UNCHANGED),
    ("rg -u foo .", UNCHANGED),
    ("rg -U 'foo\\nbar' src", UNCHANGED),
    ("rg -P '\\d+' src", UNCHANGED),
    ("rg --json foo src", UNCHANGED),
    ("rg -r bar foo src/main.py", UNCHANGED),
    ("rg -g 'src/*.py' foo", UNCHANGED),
    ("rg -g '*.py' foo src/main.py", UNCHANGED),
    ("rg IHDR assets/logo.png", UNCHANGED),
    ("rg -f patterns.txt src", UNCHANGED),
    ("rg '(a)\\1' src", UNCHANGED),
    ("rg '\\d+' src/util.py", UNCHANGED),
    ("rg \"$PAT\" src", UNCHANGED),
    ("rg -M 100 foo src", UNCHANGED),
    ("rg --files | rg -i main", UNCHANGED),  # the first rg has no grep: translating the second mends nothing
]

# fd → find: the find table read backwards (where fd is missing); find also lists the hidden and
# .gitignored files fd skips (test_fd_and_its_find_translation_agree).
FD = [
    ("fd -g '*.py'", TRANSLATED),
    ("fd --glob '*.md' docs", TRANSLATED),
    ("fd -g '*.TXT'", TRANSLATED),
    ("fd -g 'UPPER*'", TRANSLATED),
    ("fd -g '*.py' src tests", TRANSLATED),
    ("fd -s -g '*.md'", TRANSLATED),
    ("fd --case-sensitive -g 'readme*'", TRANSLATED),
    ("fd -i -g 'README*'", TRANSLATED),
    ("fd --ignore-case -g '*.txt'", TRANSLATED),
    ("fd cart", TRANSLATED),
    ("fd Cart src", TRANSLATED),
    ("fd main", TRANSLATED),
    ("fd test_ tests", TRANSLATED),
    ("fd -e py", TRANSLATED),
    ("fd -e md docs", TRANSLATED),
    ("fd --extension=txt", TRANSLATED),
    ("fd -e py cart", TRANSLATED),
    ("fd -t f", TRANSLATED),
    ("fd -t d", TRANSLATED),
    ("fd -tl", TRANSLATED),
    ("fd --type f -e py src", TRANSLATED),
    ("fd --type=d -g 'sub'", TRANSLATED),
    ("fd . src", TRANSLATED),
    ("fd . src -d 1", TRANSLATED),
    ("fd -d 2 -e py", TRANSLATED),
    ("fd --max-depth 1 -t f", TRANSLATED),
    ("fd --min-depth 2 -t f", TRANSLATED),
    ("fd -H -g '*.py'", TRANSLATED),
    ("fd --hidden --no-ignore -e py", TRANSLATED),
    ("fd -I cart", TRANSLATED),
    ("fd -L -g '*.md'", TRANSLATED),
    ("fd --follow guide", TRANSLATED),
    ("fd --one-file-system -e py", TRANSLATED),
    ("fd -0 -e py | tr '\\0' '\\n'", TRANSLATED),
    ("fd --print0 -g '*.md' | tr '\\0' '\\n'", TRANSLATED),
    ("fd -e py | wc -l", TRANSLATED),
    ("fd -g '*.py' | xargs grep -l foo", TRANSLATED),
    # --- left alone
    ("fd '\\.py$'", UNCHANGED),
    ("fd 'test.*py'", UNCHANGED),
    ("fd -x wc -l", UNCHANGED),
    ("fd -e py -X wc -l", UNCHANGED),
    ("fd -E node_modules -e js", UNCHANGED),
    ("fd -p src/main", UNCHANGED),
    ("fd -t x", UNCHANGED),
    ("fd -t e", UNCHANGED),
    ("fd -e py -e md", UNCHANGED),
    ("fd -g 'src/*.py'", UNCHANGED),
    ("fd -a -e py", UNCHANGED),
    ("fd -l -e py", UNCHANGED),
    ("fd \"$PAT\"", UNCHANGED),
]

FIXTURE = {
    ".gitignore": "build/\ndist/\n*.log\nnode_modules/\n__pycache__/\n",
    ".hidden/secret.txt": "TODO hidden\nfoo\n",
    ".env": "API_KEY=foo\n",
    ".github/workflows/ci.yml": "on: push\njobs:\n  test:\n    steps:\n      - run: pytest  # TODO cache foo\n",
    "build/out.js": "foo TODO built\n",
    "app.log": "ERROR foo\nINFO bar\n",
    "src/main.py": "import os\n# TODO: fix foo\ndef foo():\n    return 'Foo'\n",
    "src/util.py": "def bar(x):\n    return x + 1  # foo+bar [x]\n",
    "src/Readme.MD": "Foo Bar\nfoo|bar\na|b\n",
    "src/sub/deep.txt": "deep foo\nFOO\n(a)\n",
    "src/sub/empty.txt": "",
    "src/shop/__init__.py": "",
    "src/shop/cart.py": (
        "from decimal import Decimal\nimport json\n\n\nclass Cart:\n    \"\"\"A shopping Cart.\"\"\"\n\n"
        "    def __init__(self):\n        self.items = []\n\n    def total(self):  # FIXME rounding\n"
        "        return sum(item.price for item in self.items)\n\n\nclass CartItem:\n    pass\n\n\n"
        "def foo_total(cart):\n    return cart.total()\n"
    ),
    "src/pkg/a/b/c/d/deep.py": "def deep_foo():\n    return 'deep'\n",
    "docs/guide.md": "# Guide\nUse foo.\nthe word foobar\nzoo\n\na$b and a.b\n",
    "docs/release notes.md": "# Release notes\n- foo is faster\n",
    "tests/test_main.py": "def test_foo():\n    return foo() == 'Foo'\n",
    "tests/test_cart.py": "from shop.cart import Cart\n\n\ndef test_total():\n    assert Cart().total() == 0\n",
    "node_modules/left-pad/package.json": '{"name": "left-pad", "main": "index.js"}\n',
    "node_modules/left-pad/index.js": "module.exports = function leftPad(str, len) { /* TODO foo */ return str; };\n",
    "dist/app.min.js": "!function(){" + "var a=1;" * 400 + "function foo(){return\"Cart\"}/* TODO */" + "a++;" * 400 + "}();\n",
    "UPPER.TXT": "UPPER foo\n",
    "patterns.txt": "foo\n",
}
BINARY = {
    "data.bin": b"abc\0foo\n",
    # What CPython writes: a header, then marshalled code whose names and strings are plain bytes.
    "src/shop/__pycache__/cart.cpython-311.pyc": (
        b"\xa7\r\r\n\0\0\0\0" + b"\x8c\x1b\x04g\x33\x01\0\0\xe3\0\0\0\0\0\0\0\0\0\0\0\0"
        + b"\xda\x04Cart\xda\x05total\xda\x08CartItem\xda\x09foo_total\x29\x03\xfa\x0esrc/shop/cart.py\0"
    ),
    # Latin-1 text, as exported by an old spreadsheet: not UTF-8.
    "data/legacy.csv": b"id;name;city\n1;Caf\xe9 Central;Z\xfcrich\n2;Bar;Bern\n",
}
EXECUTABLE = {"node_modules/.bin/left-pad": "#!/bin/sh\necho foo\n"}


def _png() -> bytes:
    """A real 1×1 PNG (signature, IHDR, IDAT, IEND), as an asset folder holds them."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\0\xff\0\0")) + chunk(b"IEND", b""))


def _make_tree(work) -> None:
    for name, text in FIXTURE.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for name, data in {**BINARY, "assets/logo.png": _png()}.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for name, text in EXECUTABLE.items():
        path = work / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        path.chmod(0o755)
    (work / "emptydir").mkdir()
    os.symlink("src/main.py", work / "link.py")
    os.symlink("docs", work / "dirlink")
    os.symlink("logo.png", work / "assets/current.png")
    dates = {"GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z"}
    git = ["git", "-C", str(work), "-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "Cart totals"]):
        subprocess.run([*git, *step], check=True, env={**os.environ, **dates}, capture_output=True)


# The tool sets each suite runs with (the wheel's set shares the newest fd).
GREP_SETS = ("debian", "wheel", "newest")
FIND_SETS = ("debian", "newest")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("semantics")
    work = root / "work"
    work.mkdir()
    _make_tree(work)
    env = build_store(root, [["--cmd", "grep", "--replace", "rg"], ["--cmd", "find", "--replace", "fd"]])
    env["LC_ALL"] = "C.UTF-8"
    env.pop("RIPGREP_CONFIG_PATH", None)
    return root, work, env


@pytest.fixture(scope="module")
def tools(tree):
    """The environment for one tool set: its rg and fd first on PATH."""
    root, _, env = tree
    made = {}

    def for_set(name: str) -> dict:
        if name not in made:
            directory = tool_set(name, root)
            made[name] = {**env, "PATH": os.pathsep.join([str(directory), str(BIN), env.get("PATH", "")])}
        return made[name]

    return for_set


def hook(env, command: str, cwd, *options) -> dict:
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": str(cwd), "tool_input": {"command": command}}
    proc = subprocess.run([str(BIN / "pave-check"), *options], input=json.dumps(payload), capture_output=True,
                          text=True, env=env, timeout=30)
    assert proc.returncode == 0
    if "--verbose" in options:  # which also says why on stderr, a `pave-check: …` line per reason
        assert all(line.startswith("pave-check: ") for line in proc.stderr.splitlines()), proc.stderr
    else:
        assert proc.stderr == ""
    return json.loads(proc.stdout)["hookSpecificOutput"] if proc.stdout else {}


def rewritten(env, command: str, cwd) -> str:
    return hook(env, command, cwd).get("updatedInput", {}).get("command", command)


_NOTICE = "binary file matches"


def outcome(env, command: str, cwd):
    """(stdout lines, whether stderr reports an error, exit status class) of ``command`` in bash."""
    proc = subprocess.run(
        ["bash", "-c", command], cwd=cwd, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=60
    )
    lines = set()
    for line in proc.stdout.decode("utf-8", "replace").splitlines():
        line = line.removeprefix("./").replace(" ./", " ").replace(":./", ":")
        lines.add(line[:-1] if line.endswith("/") else line)
    errors = [line for line in proc.stderr.decode("utf-8", "replace").splitlines() if _NOTICE not in line]
    return lines, bool(errors), min(proc.returncode, 2)


def _check(tools, tree, set_name, command, expected):
    _, work, _ = tree
    env = tools(set_name)
    new = rewritten(env, command, work)
    if expected == UNCHANGED:
        assert new == command
        if command.startswith("\\"):
            return  # `\grep`: the shell's own way of bypassing aliases, which dp keeps without a word
        reason = hook(env, command, work, "--verbose").get("additionalContext", "")
        assert "left as typed" in reason, f"--verbose gives no reason for leaving {command!r} alone: {reason!r}"
        return
    assert new != command, "expected a translation"
    assert subprocess.run(["bash", "-n", "-c", new]).returncode == 0
    assert outcome(env, new, work) == outcome(env, command, work), f"{new} ({_versions(env)})"


def _versions(env) -> str:
    tools = Path(env["PATH"].split(os.pathsep)[0])
    return f"{version(tools, 'rg')}, {version(tools, 'fd')}"


@pytest.mark.parametrize("set_name", GREP_SETS)
@pytest.mark.parametrize("command, expected", GREP)
def test_grep_and_its_rg_translation_agree(tools, tree, set_name, command, expected):
    _check(tools, tree, set_name, command, expected)


@pytest.mark.parametrize("set_name", FIND_SETS)
@pytest.mark.parametrize("command, expected", FIND)
def test_find_and_its_fd_translation_agree(tools, tree, set_name, command, expected):
    _check(tools, tree, set_name, command, expected)


@pytest.fixture(scope="module")
def backwards(tree, tools):
    """For one tool set: (the environment whose store holds the rules rg → grep and fd → find, the hook's
    environment, where grep and find are and rg and fd are not, the files rg skips)."""
    root, work, _ = tree
    made = {}

    def for_set(name: str):
        if name not in made:
            (root / f"backwards-{name}").mkdir()
            env = build_store(root / f"backwards-{name}", [["--cmd", "rg", "--replace", "grep"],
                                                           ["--cmd", "fd", "--replace", "find"]])
            env = {**env, "LC_ALL": "C.UTF-8", "PATH": tools(name)["PATH"]}
            env.pop("RIPGREP_CONFIG_PATH", None)
            listed = subprocess.run(["rg", "--files"], cwd=work, env=env, capture_output=True, text=True, check=True)
            every = subprocess.run(["find", ".", "-type", "f"], cwd=work, capture_output=True, text=True, check=True)
            every = {line.removeprefix("./") for line in every.stdout.splitlines()}
            only_grep = root / f"backwards-{name}" / "no-rg"  # the hook's PATH: grep and find, no rg or fd
            only_grep.mkdir()
            for program in ("grep", "find"):
                (only_grep / program).symlink_to(shutil.which(program))
            made[name] = env, {**env, "PATH": str(only_grep)}, every - set(listed.stdout.splitlines())
        return made[name]

    return for_set


def _outside(lines: set, skipped: set) -> set:
    """The output lines not from a file rg skips (hidden, .gitignored): ``path``, ``path:…`` or ``path-…``."""
    return {line for line in lines if not any(line == path or line.startswith((f"{path}:", f"{path}-"))
                                              for path in skipped)}


def _read_backwards(backwards, tree, set_name, command, expected, target):
    """(env, tree, files rg skips, (the command's outcome, its translation's)): the translation into
    ``target`` finds all the command finds; None for the outcomes when the command is one the hook must
    leave alone (checked here: unchanged, with the reason in verbose mode)."""
    _, work, _ = tree
    env, hook_env, skipped = backwards(set_name)
    new = rewritten(hook_env, command, work)
    if expected == UNCHANGED:
        assert new == command
        reason = hook(hook_env, command, work, "--verbose").get("additionalContext", "")
        assert "left as typed" in reason, f"--verbose gives no reason for leaving {command!r} alone: {reason!r}"
        return env, work, skipped, None
    assert new != command and target in new, "expected a translation"
    assert subprocess.run(["bash", "-n", "-c", new]).returncode == 0
    before, after = outcome(env, command, work), outcome(env, new, work)
    assert before[0] <= after[0], f"{new}: {command.split()[0]} found what {target} did not ({_versions(env)})"
    return env, work, skipped, (before, after)


@pytest.mark.parametrize("set_name", GREP_SETS)
@pytest.mark.parametrize("command, expected", RG)
def test_rg_and_its_grep_translation_agree(backwards, tree, set_name, command, expected):
    """The grep table read backwards: rg's own output on a real tree, and its grep translation's."""
    _, _, skipped, outcomes = _read_backwards(backwards, tree, set_name, command, expected, "grep")
    if outcomes is not None:
        (rg_lines, rg_error, rg_status), (grep_lines, grep_error, grep_status) = outcomes
        assert _outside(grep_lines, skipped) == rg_lines, "grep found more than rg outside the files rg skips"
        assert grep_error == rg_error
        assert grep_status == rg_status or grep_lines != rg_lines


def test_where_rg_is_installed_its_calls_stay_as_typed(backwards, tree):
    """rg → grep stands in for a missing ripgrep only: with rg on PATH the hook leaves rg alone, and says why."""
    _, work, _ = tree
    env, _, _ = backwards("debian")
    assert rewritten(env, "rg -n foo src", work) == "rg -n foo src"
    assert "it is on PATH" in hook(env, "rg -n foo src", work, "--verbose").get("additionalContext", "")


@pytest.mark.parametrize("set_name", FIND_SETS)
@pytest.mark.parametrize("command, expected", FD)
def test_fd_and_its_find_translation_agree(backwards, tree, set_name, command, expected):
    """The find table read backwards: fd's own output on a real tree, and its find translation's."""
    env, work, _, outcomes = _read_backwards(backwards, tree, set_name, command, expected, "find")
    if outcomes is not None:
        # exactly what fd finds when told to search hidden and ignored files too
        everything = outcome(env, command.replace("fd ", "fd --hidden --no-ignore ", 1), work)[0]
        assert outcomes[1][0] == everything, sorted(outcomes[1][0] ^ everything)[:8]
        assert outcomes[1][1:] == outcomes[0][1:]  # errors, exit status


def test_every_rg_flag_the_reverse_knows_is_run():
    """The backwards table's every rg flag appears in a translated command of RG."""
    from dp.rules.tables.pairs import table_for

    translated = " ".join(command for command, expected in RG if expected == TRANSLATED)
    words = {word.split("=")[0] for word in translated.split()} | {word[:2] for word in translated.split()}
    missing = [flag for flag in table_for("rg", "grep").flags if flag not in words]
    assert not missing, f"flags of the reverse table no command of RG runs: {missing}"


def test_every_fd_flag_the_reverse_knows_is_run():
    """The backwards find table's every fd flag, and fd's pattern flags, appear in a translated command of FD."""
    from dp.rules.findexpr import _FD_PATTERN_FLAGS
    from dp.rules.tables.pairs import table_for

    translated = " ".join(command for command, expected in FD if expected == TRANSLATED)
    words = {word.split("=")[0] for word in translated.split()} | {word[:2] for word in translated.split()}
    missing = [flag for flag in [*table_for("fd", "find").flags, *_FD_PATTERN_FLAGS] if flag not in words]
    assert not missing, f"flags of the reverse table no command of FD runs: {missing}"


def test_the_suite_is_large_enough_and_mostly_translated():
    commands = GREP + FIND
    assert len(commands) >= 250
    assert len({command for command, _ in commands}) == len(commands)
    translated = sum(expected == TRANSLATED for _, expected in commands)
    assert translated / len(commands) >= 0.75, f"{translated}/{len(commands)} translated"
