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
The decimal parser gives float()'s numbers bit for bit, or None for what it does not read.

Every ``<float_array>`` of example-robot-data's DAE files (15 million numbers, many with
exponents) is compared with NumPy's own parser in float64 and in float32 (what the COLLADA
reader keeps); random numbers in every format Python writes (fixed, exponent, ``repr``,
integers, beyond the exact fast path) are compared with ``float()``; malformed text returns
None so that the caller's own parser decides.
"""

import random
import struct
from typing import List

import corpus
import numpy as np
import pytest

from urdf_link_tools.meshes import dae
from urdf_link_tools.meshes.decimals import decimal_values


def bits(values) -> List[bytes]:
    """Return each value's eight bytes (so -0.0 and 0.0 differ, as they must)."""
    return [struct.pack('<d', float(value)) for value in values]


@pytest.mark.parametrize('text', [
    '1 2 3', '-0.5 +0.25 .5 5. -.5', '2.34074e-7 -1E+05 3e0 -0 -0e5 +0 0.0 -0.0',
    '1e-0300 1.23456789012345678 0.000000000000000123 1e23 9007199254740993',
    '12345678901234567890 1.5', '123456789012345678901234567890e-10',
    '  1  2\t3\n4\r\n5 ', '1.5e3 2 3.25', '-1e-5 -2e-5', '5 -.5e1', '00012 -007.50',
])
def test_plain_decimals_are_float_bit_for_bit(text):
    values = decimal_values(text)
    assert values is not None
    assert bits(values) == bits(float(token) for token in text.split())


@pytest.mark.parametrize('text', [
    '1.2.3', '1.2.3 4', '1e5.0', '.', '-', '1e', '1e-', '1-2', '1.5e+-3', '0x10', 'nan',
    'inf -inf', '1e00005', '1e1e1 2', '1,5', '2 three', '\u0661', '--1', '+-1', 'e5',
])
def test_anything_else_is_left_to_the_caller(text):
    assert decimal_values(text) is None


def test_blank_text_is_no_numbers():
    assert len(decimal_values('')) == 0
    assert len(decimal_values(' \n\t ')) == 0


#: every way Python writes a number: repr, fixed, exponent, general, integer, capital E
WRITERS = (
    lambda x, rng: repr(x),
    lambda x, rng: f'{x:.{rng.randint(0, 12)}f}',
    lambda x, rng: f'{x:.{rng.randint(0, 16)}e}',
    lambda x, rng: f'{x:.{rng.randint(1, 9)}g}',
    lambda x, rng: str(rng.randint(-10 ** 6, 10 ** 6)),
    lambda x, rng: f'{x:.{rng.randint(1, 17)}E}',
)


def _token(rng: random.Random) -> str:
    x = rng.uniform(-10.0, 10.0) * 10.0 ** rng.randint(-30, 30)
    return rng.choice(WRITERS)(x, rng)


@pytest.mark.parametrize('seed', range(4))
def test_random_numbers_are_float_bit_for_bit(seed):
    rng = random.Random(seed)
    compared = 0
    for _ in range(500):
        tokens = [_token(rng) for _ in range(rng.randint(1, 80))]
        values = decimal_values(' '.join(tokens))
        assert values is not None, tokens
        assert bits(values) == bits(float(token) for token in tokens), tokens
        compared += len(tokens)
    assert compared > 10_000


def test_every_corpus_float_array_reads_as_numpy_reads_it():
    files = corpus.mesh_files('.dae')
    if not files:
        pytest.skip('example-robot-data is not installed')
    numbers = arrays = 0
    for path in files:
        root, _ = dae.parse_xml(path.read_bytes())  # as the reader parses it (huge texts)
        for element in root.iter('{*}float_array'):
            if not element.text or element.text.isspace():
                continue
            values = decimal_values(element.text)
            assert values is not None, path
            double = np.fromstring(element.text, dtype=np.float64, sep=' ')
            single = np.fromstring(element.text, dtype=np.float32, sep=' ')
            assert np.array_equal(values.view(np.uint64), double.view(np.uint64)), path
            assert np.array_equal(values.astype(np.float32).view(np.uint32),
                                  single.view(np.uint32)), path
            numbers += len(values)
            arrays += 1
    assert arrays > 1000 and numbers > 10_000_000
