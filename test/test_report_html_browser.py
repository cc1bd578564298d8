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
The HTML report in a real browser: Debian's chromium-headless-shell driven by Playwright.

WebGL runs on SwiftShader (software), so the page is drawn as on any machine without a GPU.
For each robot: no request leaves the file, no console error, the canvas draws the robot (the
pixels that change when the parts are shown, from screenshots), choosing a finding selects its
link, clicking a part selects its link, and every error and warning is listed with its rule,
link and line. scripts/setup.sh installs the browser (apt, as root) and Playwright (pip).
"""

import base64
import json
import os
import pathlib
import time

from cli_harness import checkout_with_samples, run, SAMPLE
import corpus
import pytest
from report_harness import HOSTILE_LINK, write_hostile_robot

# A test dependency: without it this module is skipped, and `make test` fails the run
# (test/conftest.py); in a plain workspace `colcon test-result` lists the skip.
playwright_api = pytest.importorskip('playwright.sync_api')

BROWSER = os.environ.get('URDF_LINK_TOOLS_CHROMIUM', '/usr/lib/chromium/chromium-headless-shell')
ARGS = ['--enable-unsafe-swiftshader', '--use-angle=swiftshader', '--no-sandbox',
        '--disable-background-networking', '--disable-component-update', '--disable-sync',
        '--disable-quic']
VIEWPORT = {'width': 1400, 'height': 850}
#: generous: SwiftShader draws g1's 461k triangles in software on a shared 2-core machine
LOAD_TIMEOUT_MS = 180_000
#: the robot's parts must change at least this share of the canvas's pixels
MIN_ROBOT_SHARE = 0.01
SHOTS = os.environ.get('URDF_LINK_TOOLS_SCREENSHOTS')  # a folder to keep the screenshots in

# Counts changed pixels between two PNG screenshots; decoded by the browser itself (a blank
# page, no Pillow needed).
DIFF_SCRIPT = """async ([first, second]) => {
  async function pixels(b64) {
    const image = new Image();
    image.src = 'data:image/png;base64,' + b64;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height);
  }
  const a = await pixels(first), b = await pixels(second);
  let changed = 0, sx = 0, sy = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    const d = Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) +
              Math.abs(a.data[i + 2] - b.data[i + 2]);
    if (d > 60) {
      changed++;
      const p = i / 4;
      if (!(changed % 97)) { sx = p % a.width; sy = Math.floor(p / a.width); }
    }
  }
  return {changed, total: a.width * a.height, width: a.width, height: a.height, x: sx, y: sy};
}"""

LISTED_SCRIPT = """items => items.map(item => ({
  severity: item.dataset.severity, rule: item.dataset.rule,
  link: item.dataset.link === undefined ? null : item.dataset.link,
  where: item.querySelector('.where').textContent}))"""


@pytest.fixture(scope='module')
def browser():
    if not os.access(BROWSER, os.X_OK):
        pytest.fail(f'{BROWSER} is missing: as root, apt-get install chromium-headless-shell '
                    '(scripts/setup.sh does it)')
    with playwright_api.sync_playwright() as driver:
        instance = driver.chromium.launch(executable_path=BROWSER, args=ARGS)
        yield instance
        instance.close()


class Opened:
    """One report page opened in the browser, with what it asked for and what it logged."""

    def __init__(self, browser, path: pathlib.Path):
        self.path = path
        self.url = path.as_uri()
        self.outside = []
        self.requests = []
        self.errors = []
        self.dialogs = []
        self.page = browser.new_page(viewport=VIEWPORT)
        self.page.on('dialog', lambda dialog: (self.dialogs.append(dialog.message),
                                               dialog.dismiss()))
        self.page.on('console', lambda message: message.type == 'error' and self.errors.append(
            message.text))
        self.page.on('pageerror', lambda error: self.errors.append(str(error)))
        self.page.on('request', lambda request: self.requests.append(request.url))
        self.page.route('**/*', self._route)
        started = time.monotonic()
        self.page.goto(self.url)
        self.page.wait_for_selector('body[data-ready=true]', state='attached',
                                    timeout=LOAD_TIMEOUT_MS)
        self.canvas_png = self.page.locator('#canvas').screenshot(timeout=LOAD_TIMEOUT_MS)
        self.load_seconds = time.monotonic() - started

    def _route(self, route):
        url = route.request.url
        if url == self.url or url.startswith('data:'):
            route.continue_()
        else:
            self.outside.append(url)
            route.abort()

    def set_checkboxes(self, **states):
        for name, checked in states.items():
            self.page.set_checked(f'#show-{name.replace("_", "-")}', checked)

    def canvas_shot(self):
        return self.page.locator('#canvas').screenshot(timeout=LOAD_TIMEOUT_MS)


def changed_pixels(browser, first: bytes, second: bytes):
    page = browser.new_page()
    try:
        return page.evaluate(DIFF_SCRIPT, [base64.b64encode(first).decode(),
                                           base64.b64encode(second).decode()])
    finally:
        page.close()


#: True when nothing in the side panel reaches past its right edge
PANEL_FITS_SCRIPT = """(() => {
  const panel = document.querySelector('#panel');
  return panel.scrollWidth <= panel.clientWidth + 1;
})()"""


def write_page(tmp_path, name, *args):
    status, text, err = run(['check', *args, '--format', 'html'])
    assert status in (0, 1, 2, 3), err
    path = tmp_path / f'{name}.html'
    path.write_text(text, encoding='utf-8')
    _, json_text, _ = run(['check', *args, '--format', 'json'])
    document = json.loads(json_text)
    return path, document.get('findings')  # one robot's findings (None for several)


def corpus_args(relative):
    share = corpus.prefix() / 'share' / 'example-robot-data'
    return [str(corpus.robots_dir() / relative), '--package-dir', f'example-robot-data={share}']


ROBOTS = {
    'sample_robot': lambda tmp: [SAMPLE, '--package-dir', f'urdf_link_tools={tmp}'],
    'hostile': lambda tmp: [str(write_hostile_robot(tmp))],
    'tiago_dual': lambda tmp: corpus_args('tiago_description/robots/tiago_dual.urdf'),
    'g1_with_hands': lambda tmp: corpus_args(
        'g1_description/urdf/g1_29dof_with_hand_rev_1_0.urdf'),
}


@pytest.mark.parametrize('name', sorted(ROBOTS))
def test_report_in_the_browser(browser, tmp_path, monkeypatch, name):
    checkout_with_samples(tmp_path, monkeypatch)
    path, findings = write_page(tmp_path, name, *ROBOTS[name](tmp_path))
    opened = Opened(browser, path)
    page = opened.page
    try:
        # nothing but the file itself was asked for, and nothing went wrong
        assert opened.outside == [] and set(opened.requests) == {opened.url}
        assert opened.errors == []

        # each pair overlapping at rest is listed with its depth and its finding's severity
        facts = page.locator('#facts').text_content()
        for finding in findings:
            if finding['rule'] == 'collision-overlap-at-rest':
                listed = finding['values'].get('pairs')  # a pair list (a second model's)
                pairs = [text.split(', ') for text in listed.split('; ')] if listed else \
                    [(finding['link'], other) for other in
                     (finding.get('links') or [None])[1:] or [finding['values']['other_link']]]
                for link, other in pairs:
                    assert f'{link} / {other} (' in facts, facts
                assert f" mm, {finding['severity']})" in facts, facts

        # long facts (a file path, the overlapping pairs) wrap inside the panel
        assert page.evaluate(PANEL_FITS_SCRIPT)

        # the robot is drawn: hiding every part changes a good share of the canvas
        opened.set_checkboxes(visual=False, com=False, robot_com=False)
        empty = opened.canvas_shot()
        opened.set_checkboxes(visual=True)
        parts = opened.canvas_shot()
        diff = changed_pixels(browser, empty, parts)
        share = diff['changed'] / diff['total']
        assert share > MIN_ROBOT_SHARE, diff

        # the collision geometry and the inertia boxes are toggled on and off
        for toggle in ('collision', 'inertia'):
            opened.set_checkboxes(**{toggle: True})
            with_toggle = opened.canvas_shot()
            opened.set_checkboxes(**{toggle: False})
            assert changed_pixels(browser, parts, with_toggle)['changed'] > 0, toggle

        # clicking a part selects its link, and lists that link's findings
        page.mouse.click(*_page_point(page, diff))
        selected = page.get_attribute('body', 'data-selected-link')
        assert selected, 'a click on a drawn part selected no link'
        listed = page.locator('#link-findings li[data-id]')
        # its own findings, and those about several links that list it
        own = [f for f in findings if f['link'] == selected or selected in (f.get('links') or [])]
        assert listed.count() == len(own), (selected, own)

        # every error and warning is listed, with its rule, link and line
        serious = [f for f in findings if f['severity'] in ('error', 'warning')]
        items = page.eval_on_selector_all('#findings li', LISTED_SCRIPT)
        shown = [item for item in items if item['severity'] in ('error', 'warning')]
        assert len(shown) == len(serious)
        for item, finding in zip(shown, serious):
            assert (item['severity'], item['rule'], item['link']) == (
                finding['severity'], finding['rule'], finding['link'])
            assert item['where'].endswith(f":{finding['line']}")

        # choosing a finding selects its link in 3D (and in the tree)
        with_link = [f for f in findings if f['link'] is not None]
        target = with_link[-1]
        index = findings.index(target)
        page.click(f'#findings li[data-id="{index}"]')
        assert page.get_attribute('body', 'data-selected-link') == target['link']
        assert page.locator('#link-name').text_content() == target['link']
        assert page.evaluate('window.urdfReport.selected') == target['link']
        tree_current = page.locator('#tree .node.current').get_attribute('data-link')
        assert tree_current == target['link']

        # filters: by severity, then by rule
        page.set_checked('input[name=severity][value=warning]', False)
        visible = page.locator('#findings li:not([hidden])')
        assert visible.count() == sum(1 for f in findings if f['severity'] != 'warning')
        page.set_checked('input[name=severity][value=warning]', True)
        page.select_option('#rule-filter', target['rule'])
        assert visible.count() == sum(1 for f in findings if f['rule'] == target['rule'])

        assert opened.errors == [] and opened.outside == [] and opened.dialogs == []
        size = path.stat().st_size
        print(f'\n{name}: page {size / 1e6:.2f} MB, ready in {opened.load_seconds:.2f} s, '
              f'canvas screenshot {diff["width"]}x{diff["height"]} '
              f'{len(opened.canvas_png) / 1e3:.0f} kB, robot on {share:.1%} of the canvas')
        if SHOTS:
            pathlib.Path(SHOTS).mkdir(parents=True, exist_ok=True)
            page.set_checked('#show-com', True)
            page.screenshot(path=str(pathlib.Path(SHOTS) / f'{name}.png'))
    finally:
        page.close()


def _page_point(page, diff):
    box = page.locator('#canvas').bounding_box()
    return box['x'] + diff['x'] * box['width'] / diff['width'], \
        box['y'] + diff['y'] * box['height'] / diff['height']


def test_hostile_link_name_is_shown_as_text(browser, tmp_path):
    path, _ = write_page(tmp_path, 'hostile', str(write_hostile_robot(tmp_path)))
    opened = Opened(browser, path)
    try:
        page = opened.page
        assert page.locator('img').count() == 0
        assert opened.dialogs == []  # the name's onerror=alert(1) never ran
        names = page.locator('#tree .node').evaluate_all(
            'nodes => nodes.map(node => node.dataset.link)')
        assert HOSTILE_LINK in names
        assert opened.errors == [] and opened.outside == []
    finally:
        opened.page.close()


def test_several_robots_xacro_macro_chain_and_an_unreadable_input(browser, tmp_path):
    xacro_robot = pathlib.Path(__file__).parent / 'data' / 'xacro_robot'
    path, _ = write_page(tmp_path, 'several', str(xacro_robot / 'urdf' / 'robot.urdf.xacro'),
                         str(tmp_path / 'missing.urdf'), str(write_hostile_robot(tmp_path)),
                         '--package-dir', f'demo_description={xacro_robot}')
    opened = Opened(browser, path)
    page = opened.page
    try:
        assert 'unreadable input' in page.locator('#totals').text_content()
        options = page.locator('#robot-choice option')
        assert options.count() == 2
        # the finding made by two nested macros shows where each was called
        item = page.locator('#findings li[data-link="upper_link"]')
        assert item.locator('.where').text_content().endswith('inertia_macros.xacro:8')
        macros = item.locator('.macro').all_text_contents()
        assert macros[0].startswith("in macro 'box_inertial' called at ")
        assert macros[0].endswith('arm_macros.xacro:13')
        assert macros[1].endswith('robot.urdf.xacro:25')
        # the second robot replaces the first, in the panel and in 3D
        page.select_option('#robot-choice', '1')
        assert page.locator('#title').text_content() == 'urdf-link-tools: evil|bot'
        assert page.locator('#findings li[data-link="upper_link"]').count() == 0
        page.locator('#findings li').first.click()
        assert page.get_attribute('body', 'data-selected-link') == HOSTILE_LINK
        assert opened.errors == [] and opened.outside == [] and opened.dialogs == []
    finally:
        page.close()
