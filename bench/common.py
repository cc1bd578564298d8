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
Shared benchmark helpers: interleaved timing, ratio statistics and the JSON report.

This machine is shared and noisy, so every figure is a ratio against a baseline measured
in the same run on the same input, with subject and baseline interleaved repetition by
repetition; min, median and max are reported.
"""

import json
import os
import platform
import statistics
import sys
import time
from typing import Any, Callable, Dict, List, Sequence

#: where the JSON results go: bench/results/, or URDF_LINK_TOOLS_BENCH_RESULTS (the test that
#: runs the benchmarks once keeps them out of a developer's results)
RESULTS_DIR = os.environ.get('URDF_LINK_TOOLS_BENCH_RESULTS') or \
    os.path.join(os.path.dirname(os.path.abspath(__file__)), 'results')


def stats(values: Sequence[float]) -> Dict[str, float]:
    """Return min, median and max of a sequence."""
    return {'min': min(values), 'median': statistics.median(values), 'max': max(values)}


def interleaved(functions: Dict[str, Callable[[], Any]], repeat: int,
                number: int = 1) -> Dict[str, List[float]]:
    """
    Time several functions, alternating between them on every repetition.

    :param functions: name -> zero-argument callable
    :param repeat: repetitions per function
    :param number: calls per repetition (the time is per call)
    :return: name -> list of seconds per call
    """
    times: Dict[str, List[float]] = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            start = time.perf_counter()
            for _ in range(number):
                function()
            times[name].append((time.perf_counter() - start) / number)
    return times


def ratio_stats(subject: Sequence[float], baseline: Sequence[float]) -> Dict[str, float]:
    """Per-repetition ratios subject/baseline, summarised."""
    return stats([s / b for s, b in zip(subject, baseline)])


def fmt(summary: Dict[str, float], unit: str = '', scale: float = 1.0) -> str:
    """Format a min/median/max summary on one line."""
    return (f"min {summary['min'] * scale:.3f}{unit}  median {summary['median'] * scale:.3f}"
            f"{unit}  max {summary['max'] * scale:.3f}{unit}")


def verdict(value: float, target: float, lower_is_better: bool = True) -> str:
    """Say whether a median meets its target."""
    met = value <= target if lower_is_better else value >= target
    return 'MET' if met else 'NOT MET'


def machine() -> Dict[str, Any]:
    """Describe the machine the figures were measured on."""
    return {'python': sys.version.split()[0], 'platform': platform.platform(),
            'cpus': os.cpu_count(), 'date': time.strftime('%Y-%m-%d')}


def write_result(name: str, data: Dict[str, Any]) -> str:
    """
    Write one benchmark's results as JSON under bench/results/.

    :return: the path written
    """
    os.makedirs(RESULTS_DIR, exist_ok=True)
    path = os.path.join(RESULTS_DIR, f'{name}.json')
    with open(path, 'w') as stream:
        json.dump({'machine': machine(), **data}, stream, indent=2, default=str)
    return path


def corpus_urdfs() -> List[str]:
    """Paths of every example-robot-data URDF (uses the test suite's locator)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, os.path.join(os.path.dirname(here), 'test'))
    try:
        import corpus
    finally:
        sys.path.pop(0)
    return [str(path) for path in corpus.urdf_paths()]
