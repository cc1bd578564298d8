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
severity), ``CHECKS`` (functions ``ctx -> findings`` about the robot as a whole) and may
export ``LINK_CHECKS`` (``(ctx, link) -> findings``) and ``JOINT_CHECKS``
(``(ctx, joint) -> findings``), which the runner calls for each link and joint. A check that
raises becomes an ERROR-level ``internal-error`` finding naming the check and the link, so one
bug costs the findings of that check on that link only (the CLI exits 5 for it).
"""

from __future__ import annotations

import logging
from typing import Callable, Dict, List, Optional

from urdf_link_tools.checks import (alignment, bounds, collisions, engines, geometry, inertia,
                                    joints, mesh_quality, model_wide, plausibility, structure)
from urdf_link_tools.checks.base import CheckContext, Rule
from urdf_link_tools.findings import Finding, INTERNAL_ERROR, internal_error, Severity

LOG = logging.getLogger(__name__)

MODULES = (structure, inertia, bounds, plausibility, geometry, alignment, mesh_quality, joints,
           model_wide, engines, collisions)

#: Findings the parser records in ``Robot.notes``; documented here so --ignore knows them.
#: These are read past; PARSE_REFUSAL_RULES below are what urdfdom refuses.
PARSE_NOTE_RULES = (
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
    Rule('parse-ignored-element', Severity.WARNING,
         'a <geometry> holds, after its shape, an element that is not a shape (e.g. a '
         '<material> put inside it)', 'URDF readers read only the first child of <geometry>: '
         'the element has no effect (a misplaced <material> leaves the visual without its '
         'colour)', 'move it into the enclosing <visual> or <collision>',
         'urdfdom link.cpp (parseGeometry)'),
    Rule('parse-misspelled-element', Severity.WARNING,
         'a child of a link, inertial, visual, collision or joint whose name is a slip of '
         "one URDF defines there (<intertial>, <colision>, <Inertial>, <limt>: difflib's "
         'ratio 0.8 or more; a namespaced or unlike name is a custom element); an info for an '
         '<origin> slip of zeros, which loses nothing',
         'URDF readers ignore an element they do not know, and what it holds: the link has '
         'no inertial or no collision geometry, the joint no limit, and nothing says why',
         'rename it', 'URDF link and joint specifications'),
    Rule('parse-gazebo-inside-link', Severity.WARNING,
         'a <gazebo> element is written inside a <link>',
         'Gazebo reads <gazebo> extensions only as children of <robot> (with reference= the '
         'link): inside a link its material, friction, damping or sensor has no effect',
         'move it to the <robot> level as <gazebo reference="LINK">',
         'sdformat parser_urdf.cc (URDF extensions); Gazebo "Using a URDF in Gazebo"'),
    Rule('custom-element-unreadable', Severity.WARNING,
         'a custom link element (e.g. <collision_checking>) could not be read (an info when '
         "its geometry is a shape some readers add, such as Drake's <capsule>)",
         'programs that read it will fail on it', 'fix the element', 'URDF link specification'),
    Rule('parse-xacro-unprefixed', Severity.WARNING,
         "a xacro directive without its xacro: prefix at the top of <robot> (NAO's "
         '<include filename="..."/>), or a call of a macro the files define (Velodyne\'s '
         'example: <VLP-16 .../>, also inside a link); 3 or more calls are one finding '
         'listing them', 'xacro (2.x, ROS 2) processes only prefixed '
         'directives and leaves it in the output as it is; URDF readers ignore it: the file '
         'is not included, the macro or property not defined, the links and joints of the '
         "macro missing (an error for a call of a macro that makes links: ROS 1's xacro "
         'expanded such calls, so files written for it lose those links silently)',
         'write <xacro:include .../> (and declare xmlns:xacro="http://www.ros.org/wiki/xacro" '
         'on <robot>)', 'xacro (ROS 2: prefixed directives only)'),
    Rule('robot-name-missing', Severity.ERROR, 'the <robot> has no name attribute',
         'urdfdom refuses the robot ("No name given for the robot"); an empty name is a '
         'warning', 'add name="..."', 'urdfdom model.cpp'),
    Rule('material-duplicate', Severity.ERROR, 'a top-level material is defined twice',
         'urdfdom refuses the robot ("material is not unique"); the first definition is '
         'used here', 'remove or rename the second', 'urdfdom model.cpp'),
)

#: Parser notes about what urdfdom refuses (or xacro and xmllint do) but is read anyway.
PARSE_REFUSAL_RULES = (
    Rule('parse-invalid-number', Severity.ERROR, 'a number urdfdom cannot read: a word, '
         'commas or white space other than blanks (a no-break space, &#9;) between numbers, '
         'the wrong count, a blank after the number of a one-number attribute (value="1 ")',
         'urdfdom refuses the robot; a colour it only logs (a warning) and the axis of a '
         'fixed joint it does not read (an info), but MuJoCo refuses both: an error with the '
         'mujoco target. The finding names the value checked instead (the numbers meant, for '
         'separators and blanks)',
         'write numbers separated by blanks, and nothing after a single number',
         'urdfdom pose.cpp (Vector3::init), strToDouble; MuJoCo 4.0 (test_parser_recovery.py)'),
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
    Rule('parse-xml-declaration', Severity.WARNING, 'the XML declaration does not start the '
         'file, or names a version other than 1.x (pybullet\'s plane.urdf: version="0.0")',
         'urdfdom, Bullet and MuJoCo (TinyXML2) read the robot; libxml2 (urdf_parser_py, '
         'xmllint) refuses both, and xacro (xml.dom.minidom) a declaration after blanks',
         'write <?xml version="1.0"?> as the first bytes of the file, or remove it',
         'XML 1.0 (2.8 Prolog and Document Type Declaration)'),
    Rule('parse-trailing-nul', Severity.WARNING, 'NUL bytes follow the root element '
         "(pybullet's humanoid.urdf)", 'urdfdom, Bullet and MuJoCo stop reading at the NUL '
         'and read the robot; xacro (xml.dom.minidom) refuses the file, and so do '
         'urdf_parser_py and xmllint with libxml2 2.14 (2.9 reads it)',
         'remove the bytes after </robot>', 'XML 1.0 (2.2 Characters: NUL is no XML '
         'character)'),
    Rule('parse-comment-double-hyphen', Severity.WARNING, "a comment holds '--' (or ends "
         "with '--!>' or '--->')", 'urdfdom, srdfdom and MuJoCo (TinyXML2) read the file, a '
         "comment ending at the first '-->'; xacro (xml.dom.minidom), urdf_parser_py and "
         'xmllint refuse it', "remove the '--' from the comment", 'XML 1.0 (2.5 Comments)'),
    Rule('parse-default-namespace', Severity.WARNING, '<robot> declares a default namespace '
         '(xmlns="...", as Drake\'s examples do)', 'urdfdom, xacro and MuJoCo read the plain '
         'names; namespace-aware readers (urdf_parser_py, lxml-based tools) find no <robot>',
         'remove xmlns="..." (prefix extension elements instead: xmlns:drake="...")',
         'XML Namespaces 1.0'),
)

PARSE_RULES = PARSE_NOTE_RULES + PARSE_REFUSAL_RULES

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
    INTERNAL_ERROR, Severity.ERROR, 'a check failed with an unexpected exception (a bug in '
    'this tool), or the xacro source tracer did',
    "that check's findings are missing for that link (the other links and checks ran); the "
    'run exits with status 5 whatever --fail-on says, and no --ignore, baseline or inline '
    'comment hides it', 'report it with the URDF (--verbose prints the traceback)',
    'this tool')

INCOMPLETE_RULE = Rule(
    'analysis-incomplete', Severity.ERROR,
    "the analysis stopped before every check ran (the node's analysis_time_budget)",
    'findings of the checks that did not run are missing, so the robot is not known to be '
    'sound: an error (a warning let a description too slow to check report fewer errors '
    'than a complete check of it)', 'give the node a larger '
    'analysis_time_budget, or check the robot with the urdf-link-tools CLI', 'this tool')

RULES: Dict[str, Rule] = {}
for _module in MODULES:
    for _rule in _module.RULES:
        RULES[_rule.rule_id] = _rule
for _rule in PARSE_RULES + SUPPRESSION_RULES + (INTERNAL_RULE, INCOMPLETE_RULE):
    RULES[_rule.rule_id] = _rule

#: Checks of the robot as a whole: ``ctx -> findings``.
CHECKS = tuple(check for module in MODULES for check in module.CHECKS)
#: Checks of one link (``(ctx, link) -> findings``) and of one joint: run for each in turn,
#: so that a check failing on one link loses that link's findings only.
LINK_CHECKS = tuple(check for module in MODULES for check in getattr(module, 'LINK_CHECKS', ()))
JOINT_CHECKS = tuple(check for module in MODULES
                     for check in getattr(module, 'JOINT_CHECKS', ()))
#: Robot-wide checks run after all the others, their findings listed in their place: the
#: overlaps at rest, which a one-robot check computes meanwhile in a forked child
#: (analysis.analyze).
LAST_CHECKS = (collisions.check_overlaps,)


def is_known_rule(rule_id: str) -> bool:
    """Return True for a documented rule id (parser notes start with 'parse-')."""
    return rule_id in RULES or rule_id.startswith('parse-')


def check_name(check: Callable) -> str:
    """Return how a check is named in messages: 'inertia.check_link'."""
    return f'{check.__module__.rsplit(".", 1)[-1]}.{check.__name__}'


def _failed(what: str, exc: Exception, link: Optional[str] = None) -> Finding:
    # The traceback goes to the log at DEBUG level (the CLI shows it with --verbose).
    LOG.debug('%s failed%s', what, f' on link {link!r}' if link else '', exc_info=exc)
    return internal_error(what, f'{type(exc).__name__}: {exc}', link)


def run_checks(ctx: CheckContext, into: Optional[List[Finding]] = None) -> List[Finding]:
    """
    Run every check and collect the findings (unsorted, unfiltered).

    :param ctx: the analysis context
    :param into: the list to append to (a caller that stops the run keeps what finished)
    :return: the findings; a check that raises contributes one internal-error finding for
        the link (or joint, or robot) it failed on instead of its findings there
    """
    findings: List[Finding] = [] if into is None else into
    append = findings.append
    extend = findings.extend
    deferred = []
    for check in CHECKS:
        if check in LAST_CHECKS:
            deferred.append((len(findings), check))
            continue
        try:
            extend(check(ctx))
        except Exception as exc:  # one broken rule must not hide the others
            append(_failed(f'the check {check_name(check)}', exc))
    links = ctx.robot.links
    # Check by check (each over every link), as before they ran per link: the same work,
    # measurably faster than link by link (bench_analysis).
    for check in LINK_CHECKS:
        for link in links:
            try:
                extend(check(ctx, link))
            except Exception as exc:
                append(_failed(f'the check {check_name(check)}', exc, link.name))
    for check in JOINT_CHECKS:
        for joint in ctx.robot.joints:
            try:
                extend(check(ctx, joint))
            except Exception as exc:
                append(_failed(f'the check {check_name(check)} (joint {joint.name!r})', exc,
                               joint.child))
    for position, check in reversed(deferred):  # run last, listed where they would have been
        try:
            found = list(check(ctx))
        except Exception as exc:
            found = [_failed(f'the check {check_name(check)}', exc)]
        findings[position:position] = found
    _drop_judged_out_of_range(ctx, findings)
    return findings


#: the rules that judge a link's mass properties, which mean nothing for a mass or centre of
#: mass no part has (inertia.OUT_OF_RANGE says it, once)
_MASS_PROPERTY_RULES = ('inertia-', 'inertial-', 'density-', 'com-')


def _drop_judged_out_of_range(ctx: CheckContext, findings: List[Finding]) -> None:
    """Remove, in place, the mass-property findings on links out of range (see inertia)."""
    broken = {finding.link for finding in findings if finding.rule == inertia.OUT_OF_RANGE}
    if broken:
        findings[:] = [finding for finding in findings
                       if finding.link not in broken or finding.rule == inertia.OUT_OF_RANGE
                       or not finding.rule.startswith(_MASS_PROPERTY_RULES)]
