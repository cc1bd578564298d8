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

"""
"Did you mean ...?" for an unknown name, at a bounded cost whatever the number of names.

``difflib`` compares the name with every candidate, which over the 100,000 links of a big
robot costs more than a second per service call. A :class:`NameIndex` is built once per
model: it maps each trigram (three letters) to the names holding it, so a query only
compares with the few names that share the most trigrams with it. Trigrams that most names
hold ('lin', 'ink' in 'link_...') say nothing and are skipped. Pure Python, no ROS.
"""

from __future__ import annotations

import difflib
import heapq
from typing import Dict, List, Sequence, Tuple

# Up to this many names, difflib over all of them is cheap enough (about a millisecond).
SMALL = 500
# The names compared by difflib after the trigram screen.
CANDIDATES = 64
# A trigram held by more names than this is not used to find candidates.
COMMON = 2000
# Names longer than this are not indexed (nobody types them; they would cost memory).
LONGEST = 200


def _trigrams(name: str) -> set:
    padded = f'  {name.lower()} '
    return {padded[index:index + 3] for index in range(len(padded) - 2)}


class NameIndex:
    """
    The names of one model, ready for bounded near-miss lookups.

    :param names: the valid names, in the order to list them
    """

    def __init__(self, names: Sequence[str]) -> None:
        self.names: Tuple[str, ...] = tuple(names)
        self._postings: Dict[str, List[int]] = {}
        if len(self.names) > SMALL:
            for number, name in enumerate(self.names):
                if len(name) > LONGEST:
                    continue
                for gram in _trigrams(name):
                    self._postings.setdefault(gram, []).append(number)

    def candidates(self, name: str) -> List[str]:
        """Return the names worth comparing with ``name`` (all of them for a small model)."""
        if len(self.names) <= SMALL:
            return list(self.names)
        scores: Dict[int, int] = {}
        for gram in _trigrams(name[:LONGEST]):
            numbers = self._postings.get(gram, ())
            if len(numbers) > COMMON:
                continue
            for number in numbers:
                scores[number] = scores.get(number, 0) + 1
        best = heapq.nlargest(CANDIDATES, scores.items(), key=lambda item: item[1])
        return [self.names[number] for number, _ in best]

    def suggest(self, name: str) -> str:
        """
        Return the closest known names, for an error message.

        :param name: the name asked for
        :return: e.g. "(did you mean 'base_link'?)", or some known names when none is close
        """
        known = self.names
        query = name[:LONGEST]
        candidates = self.candidates(query)
        close = difflib.get_close_matches(query, candidates, n=3, cutoff=0.6)
        if close:
            # Only the names about as close as the best one: a clear typo gets one answer.
            best = difflib.SequenceMatcher(None, query, close[0]).ratio()
            quoted = [repr(item) for item in close
                      if difflib.SequenceMatcher(None, query, item).ratio() >= best - 0.05]
            listed = quoted[0] if len(quoted) == 1 else \
                ', '.join(quoted[:-1]) + ' or ' + quoted[-1]
            return f'(did you mean {listed}?)'
        if not known:
            return '(there is none)'
        shown = ', '.join(repr(_clip(item)) for item in known[:8])
        more = f', ... ({len(known)} in all)' if len(known) > 8 else ''
        return f'(known: {shown}{more})'


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[:limit] + '...'


def suggest(name: str, known: Sequence[str]) -> str:
    """Return the closest of ``known`` names to ``name`` (see :meth:`NameIndex.suggest`)."""
    return NameIndex(known).suggest(name)


def unknown_name_message(kind: str, name: str, known) -> str:
    """
    Explain an unknown name with the closest known ones.

    :param kind: what is named, e.g. 'link'
    :param name: the name asked for (shown clipped: a request may hold megabytes)
    :param known: the valid names, or a :class:`NameIndex` of them
    :return: e.g. "unknown link 'base_lnk' (did you mean 'base_link'?)"
    """
    index = known if isinstance(known, NameIndex) else NameIndex(known)
    return f'unknown {kind} {_clip(name, 200)!r} {index.suggest(name)}'
