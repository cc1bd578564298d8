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
A ``--baseline``, ``--config`` or ``--srdf`` from a pull request's checkout ends with exit 4.

The README's workflow reads the baseline from the checkout, so a hostile one is an input like
any other: too deep (200,000 nested JSON arrays, 100,000 nested YAML lists), not YAML, or too
large, it is a usage error naming the file, never a traceback.
"""

import pytest
from trust_harness import ROOT, run_measured

SAMPLE = f'{ROOT}/samples/sample_robot.urdf'


@pytest.mark.parametrize('option, name, content, words', [
    ('--baseline', 'deep.json', '[' * 200000 + ']' * 200000, 'nested too deeply'),
    ('--config', 'deep.yaml', '[' * 100000 + ']' * 100000, 'nested too deeply'),
    ('--config', 'deep_block.yaml', '- ' * 1500 + 'x\n',
     'nested too deeply'),
    ('--config', 'broken.yaml', 'a: [1,\n  b: {\n', 'not valid YAML'),
    ('--config', 'huge.yaml', '#' * (257 << 10), 'larger than 256 KiB'),
    ('--srdf', 'huge.srdf', '<robot name="r">' + ' ' * (8 << 20) + '</robot>',
     'larger than 8 MiB'),
    ('--baseline', 'huge.json', '{"findings": [' + '{},' * (6 << 20) + '{}]}',
     'larger than 16 MiB'),
], ids=['deep-json', 'deep-flow-yaml', 'deep-block-yaml', 'broken-yaml', 'huge-yaml',
        'huge-srdf', 'huge-baseline'])
def test_hostile_baseline_and_config_exit_4_with_one_line(tmp_path, option, name,
                                                          content, words):
    (tmp_path / name).write_text(content)
    result = run_measured(['check', SAMPLE, option, name], cwd=str(tmp_path))
    assert result.returncode == 4, result.stderr[-500:]
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines[:5]
    assert lines[0].startswith('urdf-link-tools: error:') and words in lines[0], lines[0]


def test_a_config_of_many_values_under_the_limit_costs_little_memory(tmp_path):
    # Tenth red-team review: a flow list of one-letter values cost 370 MB a MiB in PyYAML's
    # pure-Python loader, and the limit was 16 MiB (3.8 GB). Now 256 KiB.
    (tmp_path / 'many.yaml').write_text('urdf_link_tools:\n  ros__parameters:\n    '
                                        'density_min: 50.0\n' + 'x: [' + 'a,' * 125000 + ']\n')
    result = run_measured(['check', SAMPLE, '--config', 'many.yaml'], cwd=str(tmp_path))
    assert result.returncode in (0, 2, 4), result.stderr[-500:]
    assert 'Traceback' not in result.stderr
    assert result.peak_mib < 250, result.peak_mib


def test_a_robot_of_more_links_than_the_limit_is_one_input_error(tmp_path):
    # Eighth red-team review: no cap on links; 700,000 empty links (15 MB) cost 35 s and
    # 1.2 GB, a file at the byte limit about 75 s and 2.6 GB. Refused once counted.
    from urdf_link_tools.limits import ROBOT_MAX_LINKS
    robot = tmp_path / 'many.urdf'
    robot.write_text('<robot name="r">' + ''.join(f'<link name="l{i}"/>'
                                                  for i in range(ROBOT_MAX_LINKS + 1))
                     + '</robot>')
    result = run_measured(['check', str(robot)], cwd=str(tmp_path))
    assert result.returncode == 3, result.stderr
    assert f'{ROBOT_MAX_LINKS + 1:,} links, more than the {ROBOT_MAX_LINKS:,}' in result.stderr
    assert 'Traceback' not in result.stderr
    assert result.peak_mib < 300, result.peak_mib
