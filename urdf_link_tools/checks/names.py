# Copyright 2026 urdf_link_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""Bounded "did you mean" suggestions, shared by the structure and material rules."""

from __future__ import annotations

from typing import Dict, Iterable, List, Tuple


class NameSuggester:
    """
    Bounded "did you mean" suggestions among many names.

    ``difflib`` over every name for every unknown name is quadratic (a 121 KB file of
    joints naming missing links took 48 s). Each query here looks only at the names that
    share its first character and have a similar length, nearest lengths first, at most
    ``CANDIDATES`` of them, and a suggester answers at most ``QUERIES`` distinct names
    (later ones get no suggestion), each at most ``LONGEST`` characters long. Typos keep the
    first character and length in most cases.

    :param names: the known names
    """

    CANDIDATES = 200
    QUERIES = 100
    #: longer names get no suggestion: comparing two is quadratic in their length (180
    #: mimics naming 4 KB shuffles of one joint name's letters: 98 s; red-team review 7)
    LONGEST = 128

    def __init__(self, names: Iterable[str]) -> None:
        self._buckets: Dict[Tuple[str, int], List[str]] = {}
        for name in sorted(set(names)):
            self._buckets.setdefault((name[:1].lower(), len(name)), []).append(name)
        self._answers: Dict[str, List[str]] = {}

    def suggest(self, name: str, other_than: str = '') -> str:
        """
        Return the closest known name, or '' when none is close (or the budget is spent).

        :param other_than: a name never to suggest (a joint's child for its unknown parent:
            a joint cannot join a link to itself)
        """
        answers = self._closest(name)
        return next((answer for answer in answers if answer != other_than), '')

    def suggestions(self, name: str) -> List[str]:
        """Return the two closest known names (or fewer), best first."""
        return list(self._closest(name))

    def _closest(self, name: str) -> List[str]:
        import difflib

        if name in self._answers:
            return self._answers[name]
        if len(self._answers) >= self.QUERIES or len(name) > self.LONGEST:
            return []
        candidates: List[str] = []
        first = name[:1].lower()
        for delta in range(0, 4):
            for length in {len(name) - delta, len(name) + delta}:
                candidates.extend(self._buckets.get((first, length), ()))
            if len(candidates) >= self.CANDIDATES:
                break
        found = difflib.get_close_matches(name, candidates[:self.CANDIDATES], n=2)
        self._answers[name] = found
        return found
