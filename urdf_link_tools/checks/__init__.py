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
The rule table and the runner: every rule module's rules and checks in one place.

Each rule module (:mod:`~urdf_link_tools.checks.inertia`,
:mod:`~urdf_link_tools.checks.plausibility`, :mod:`~urdf_link_tools.checks.geometry`,
:mod:`~urdf_link_tools.checks.structure`) exports ``RULES`` (documentation, default
severity) and ``CHECKS`` (functions ``ctx -> findings``). A check that raises is turned into
an ``internal-error`` finding so one bug never hides the other findings.
"""

import logging
from typing import Dict, List, Optional

from urdf_link_tools.checks import (collisions, geometry, inertia, joints, mesh_quality,
                                    plausibility, structure)
from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.findings import Finding, Severity

LOG = logging.getLogger(__name__)

MODULES = (structure, inertia, plausibility, geometry, mesh_quality, joints, collisions)

#: Findings the parser records in ``Robot.notes``; documented here so --ignore knows them.
PARSE_RULES = (
    Rule('parse-duplicate-inertial', Severity.WARNING, 'a link has several <inertial>',
         'URDF readers use the first and ignore the rest', 'merge them into one',
         'urdfdom link.cpp'),
    Rule('parse-duplicate-origin', Severity.WARNING, 'an element has several <origin>',
         'only the first is used', 'remove the extra ones', 'urdfdom'),
    Rule('parse-duplicate-mass', Severity.WARNING, 'an <inertial> has several <mass>',
         'only the first is used', 'remove the extra ones', 'urdfdom'),
    Rule('parse-duplicate-inertia', Severity.WARNING, 'an <inertial> has several <inertia>',
         'only the first is used', 'remove the extra ones', 'urdfdom'),
    Rule('parse-extra-shape', Severity.WARNING, 'a <geometry> holds several shapes',
         'only the first is used', 'give each shape its own visual or collision', 'urdfdom'),
    Rule('custom-element-unreadable', Severity.WARNING,
         'a custom link element (e.g. <collision_checking>) could not be read',
         'programs that read it will fail on it', 'fix the element', 'URDF link specification'),
    Rule('robot-name-missing', Severity.ERROR, 'the <robot> has no name attribute',
         'urdfdom refuses the robot ("No name given for the robot"); an empty name is a '
         'warning', 'add name="..."', 'urdfdom model.cpp'),
    Rule('material-duplicate', Severity.ERROR, 'a top-level material is defined twice',
         'urdfdom refuses the robot ("material is not unique"); the first definition is '
         'used here', 'remove or rename the second', 'urdfdom model.cpp'),
    Rule('parse-invalid-number', Severity.ERROR, 'a number urdfdom cannot read: a word, '
         'commas between numbers, the wrong count', 'urdfdom refuses the robot; the finding '
         'names the value checked instead (the numbers meant, for commas)',
         'write numbers separated by blanks', 'urdfdom pose.cpp (Vector3::init), strToDouble'),
    Rule('parse-missing-value', Severity.ERROR, 'a required attribute or element is missing '
         '(a name, a size, <mass>, <inertia>, <geometry>, the effort or velocity of a limit)',
         'urdfdom refuses the robot; the element is checked without it (the finding says how)',
         'add it', 'urdfdom link.cpp, joint.cpp'),
    Rule('parse-invalid-geometry', Severity.ERROR, 'a <geometry> without a shape or with an '
         'unknown one', 'urdfdom refuses the robot; the element is checked without geometry',
         'use <box>, <cylinder>, <sphere> or <mesh>', 'urdfdom link.cpp (parseGeometry)'),
    Rule('parse-invalid-joint-type', Severity.ERROR, 'a joint without a type or with an '
         'unknown one', 'urdfdom refuses the robot; the joint is checked as fixed',
         'use revolute, continuous, prismatic, fixed, floating or planar',
         'urdfdom joint.cpp (parseJoint)'),
    Rule('parse-undeclared-prefix', Severity.WARNING, 'a namespace prefix is used without '
         'its xmlns declaration (e.g. drake:acceleration)',
         'urdfdom, MuJoCo and Pinocchio read the robot, but joint_state_publisher and xacro '
         '(xml.dom.minidom), urdf_parser_py and xmllint refuse it', 'declare the prefix on '
         '<robot>, e.g. xmlns:drake="http://drake.mit.edu"', 'XML Namespaces 1.0'),
)

#: Findings about inline suppression comments (urdf_link_tools.reports.suppression).
SUPPRESSION_RULES = (
    Rule('suppression-missing-reason', Severity.WARNING,
         'an urdf-link-tools: ignore comment gives no reason',
         'the next reader cannot tell an accepted finding from a hidden bug (the comment still '
         'silences the rules it names)',
         'add "because <why the finding does not apply here>"', 'this tool'),
    Rule('suppression-unknown-rule', Severity.WARNING,
         'an urdf-link-tools: ignore comment names a rule that does not exist',
         'a misspelt rule id silences nothing, so the finding it meant stays reported',
         'use a rule id from this table', 'this tool'),
    Rule('suppression-malformed', Severity.WARNING,
         'a comment starting with urdf-link-tools: is not an ignore comment',
         'it silences nothing',
         'write <!-- urdf-link-tools: ignore RULE[,RULE] because REASON -->', 'this tool'),
)

INTERNAL_RULE = Rule(
    'internal-error', Severity.WARNING, 'a check failed with an unexpected exception',
    "that check's findings are missing for this robot", 'report it with the URDF', 'this tool')

INCOMPLETE_RULE = Rule(
    'analysis-incomplete', Severity.WARNING,
    "the analysis stopped before every check ran (the node's analysis_time_budget)",
    'findings of the checks that did not run are missing', 'give the node a larger '
    'analysis_time_budget, or check the robot with the urdf-link-tools CLI', 'this tool')

RULES: Dict[str, Rule] = {}
for _module in MODULES:
    for _rule in _module.RULES:
        RULES[_rule.rule_id] = _rule
for _rule in PARSE_RULES + SUPPRESSION_RULES + (INTERNAL_RULE, INCOMPLETE_RULE):
    RULES[_rule.rule_id] = _rule

CHECKS = tuple(check for module in MODULES for check in module.CHECKS)


def is_known_rule(rule_id: str) -> bool:
    """Return True for a documented rule id (parser notes start with 'parse-')."""
    return rule_id in RULES or rule_id.startswith('parse-')


def run_checks(ctx: CheckContext, into: Optional[List[Finding]] = None) -> List[Finding]:
    """
    Run every check and collect the findings (unsorted, unfiltered).

    :param ctx: the analysis context
    :param into: the list to append to (a caller that stops the run keeps what finished)
    :return: the findings; a failing check contributes one internal-error finding
    """
    findings: List[Finding] = [] if into is None else into
    for check in CHECKS:
        try:
            findings.extend(check(ctx))
        except Exception as exc:  # one broken rule must not hide the others
            LOG.exception('check %s failed', check.__name__)
            findings.append(Finding(
                rule=INTERNAL_RULE.rule_id, severity=INTERNAL_RULE.severity,
                message=f'the check {check.__name__} failed: {type(exc).__name__}: {exc}',
                suggestion='please report this with the URDF; the other checks ran'))
    return findings
