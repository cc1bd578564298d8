/*
 * urdf-link-tools HTML report: the findings, the facts and the kinematic tree beside the view.
 * Copyright 2026 urdf_link_tools contributors. Licensed under the Apache License, Version 2.0.
 *
 * Reads the JSON of #report-data (written by urdf_link_tools/reports/html.py and scene.py),
 * fills the panel and drives the 3D view of view.js. Every text from the description is set
 * with textContent, never parsed as HTML. window.urdfReport exposes the state for automation.
 */
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const state = {robotIndex: 0, selected: null, currentFinding: null, ready: false, view: null};
  window.urdfReport = state;

  const $ = (id) => document.getElementById(id);
  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function fmt(value, digits) {
    if (value === null || value === undefined) return 'n/a';
    if (typeof value !== 'number') return String(value);
    return Number(value.toPrecision(digits || 4)).toString();
  }
  function vec(values) {
    return values ? values.map((v) => fmt(v)).join(', ') : 'n/a';
  }
  function fragment(nodes) {
    // Not append(...nodes): a spread of 100,000 arguments overflows the call stack.
    const out = document.createDocumentFragment();
    for (const node of nodes) out.appendChild(node);
    return out;
  }
  function plural(count, word) {
    return count + ' ' + word + (count === 1 || word === 'info' ? '' : 's');
  }

  const SHOW = {visual: 'show-visual', collision: 'show-collision', com: 'show-com',
                inertia: 'show-inertia', robotCom: 'show-robot-com'};
  const view = UrdfReportView.create({
    canvas: $('canvas'), container: $('view'), onFirstFrame: markReady,
    onPick: (name) => {
      selectLink(name);
      if (name !== null) $('link-section').scrollIntoView({block: 'nearest'});
    },
  });
  state.view = view;
  function markReady() {
    state.ready = true;
    state.readyMs = performance.now();
    document.body.dataset.ready = 'true';
  }
  function shownKinds() {
    const show = {};
    for (const [kind, id] of Object.entries(SHOW)) show[kind] = $(id).checked;
    return show;
  }
  for (const id of Object.values(SHOW)) {
    $(id).addEventListener('change', () => view.setShown(shownKinds()));
  }
  $('fit').addEventListener('click', () => view.fit());

  function robot() {
    return data.robots[state.robotIndex];
  }
  function findingItem(finding) {
    const item = el('li', finding.severity);
    item.dataset.id = finding.id;
    item.dataset.rule = finding.rule;
    item.dataset.severity = finding.severity;
    if (finding.link !== null) item.dataset.link = finding.link;
    const head = el('div', 'finding-head');
    head.append(el('span', 'sev ' + finding.severity, finding.severity),
                el('span', 'rule', finding.rule),
                el('span', 'link-ref', finding.link === null ? '(robot)' : finding.link),
                el('span', 'where', finding.where));
    item.append(head);
    item.append(el('div', 'message',
                   (finding.element ? finding.element + ': ' : '') + finding.message));
    if (finding.suggestion) item.append(el('div', 'fix', 'fix: ' + finding.suggestion));
    for (const line of finding.macros) item.append(el('div', 'macro', line));
    item.addEventListener('click', () => chooseFinding(finding));
    return item;
  }
  function chooseFinding(finding) {
    state.currentFinding = finding.id;
    selectLink(finding.link);
    for (const item of document.querySelectorAll('ol.findings li')) {
      item.classList.toggle('current', Number(item.dataset.id) === finding.id);
    }
  }
  function pairText(pair) {
    // 'a / b (12.3 mm, warning)': how deep, and whether it is worth fixing (an info is a pair
    // welded together, which simulators fuse and an SRDF disables as "Always").
    const details = [];
    if (typeof pair.depth === 'number') details.push(fmt(pair.depth * 1000) + ' mm');
    if (pair.severity) details.push(pair.severity);
    return pair.links.join(' / ') + (details.length ? ' (' + details.join(', ') + ')' : '');
  }
  function pairsFact(pairs) {
    // A few pairs inline; more as a count by severity that opens into one pair per line.
    if (pairs.length <= 3) return pairs.map(pairText).join('; ');
    const counts = {};
    for (const pair of pairs) {
      const severity = pair.severity || 'n/a';
      counts[severity] = (counts[severity] || 0) + 1;
    }
    const details = el('details');
    details.append(el('summary', '', pairs.length + ' pairs: ' + Object.entries(counts)
      .map(([severity, count]) => plural(count, severity)).join(', ')));
    const list = el('ul', 'pairs');
    for (const pair of pairs) list.append(el('li', '', pairText(pair)));
    details.append(list);
    return details;
  }
  function fillFacts(list, pairs) {
    list.replaceChildren();
    for (const [name, value] of pairs) {
      const fact = el('dd');
      if (value instanceof Node) fact.append(value);
      else fact.textContent = String(value);
      list.append(el('dt', '', name), fact);
    }
  }
  function showRobot() {
    const current = robot();
    $('title').textContent = 'urdf-link-tools: ' + (current.robot || '(unnamed robot)');
    const counts = current.counts;
    const joints = current.links.filter((link) => link.joint).length;
    fillFacts($('facts'), [
      ['robot', current.robot || '(unnamed)'], ['file', current.label],
      ['links', current.links.length + ' (' + plural(joints, 'joint') + ')'],
      ['mass', current.mass === null ? 'n/a' : fmt(current.mass) + ' kg'],
      ['centre of mass', current.com ? vec(current.com) + ' m (root frame, joints at 0)' : 'n/a'],
      ['findings', plural(counts.error, 'error') + ', ' + plural(counts.warning, 'warning') +
                   ', ' + counts.info + ' info'],
      ['mesh triangles', current.triangles.toLocaleString('en')],
      ['overlapping pairs', (current.pairs || []).length ? pairsFact(current.pairs) :
        (current.pairs_checked ? 'none at rest' : 'not checked (no coal, or the rule ignored)')],
    ]);
    $('notes').replaceChildren(...current.notes.map((note) => el('li', '', note)));
    const rules = [...new Set(current.findings.map((finding) => finding.rule))].sort();
    $('rule-filter').replaceChildren(el('option', '', 'all rules'),
                                     ...rules.map((rule) => el('option', '', rule)));
    $('rule-filter').options[0].value = '';
    $('findings').replaceChildren(fragment(current.findings.map(findingItem)));
    applyFilters();
    buildTree(current);
    state.links = new Map(current.links.map((link) => [link.name, link]));
    if (view.available) {
      view.setShown(shownKinds());
      view.build(current, String(state.robotIndex));
    }
    selectLink(null);
  }
  function applyFilters() {
    const severities = new Set([...document.querySelectorAll('input[name=severity]:checked')]
      .map((box) => box.value));
    const rule = $('rule-filter').value;
    let shown = 0;
    const items = $('findings').children;
    for (const item of items) {
      const visible = severities.has(item.dataset.severity) && (!rule || item.dataset.rule === rule);
      item.hidden = !visible;
      shown += visible ? 1 : 0;
    }
    $('shown-count').textContent = '(' + shown + ' of ' + items.length + ')';
  }
  for (const box of document.querySelectorAll('input[name=severity]')) {
    box.addEventListener('change', applyFilters);
  }
  $('rule-filter').addEventListener('change', applyFilters);

  function buildTree(current) {
    const children = new Map();
    const names = new Set(current.links.map((link) => link.name));
    const roots = [];
    for (const link of current.links) {
      if (link.parent === null || !names.has(link.parent)) {
        roots.push(link);
      } else {
        if (!children.has(link.parent)) children.set(link.parent, []);
        children.get(link.parent).push(link);
      }
    }
    const top = $('tree');
    top.replaceChildren();
    // One flat list in depth-first order, indented by depth: a chain of 10,000 links nested
    // as 10,000 lists would crash the browser's layout. Iterative for the same reason.
    const pending = roots.slice().reverse().map((link) => [link, 0]);
    const rows = [];
    while (pending.length) {
      const [link, depth] = pending.pop();
      const node = el('li', 'node');
      node.dataset.link = link.name;
      node.style.paddingLeft = Math.min(depth, 40) * 0.9 + 'em';
      node.append(el('span', 'dot ' + (link.worst || 'ok')), el('span', '', link.name));
      if (link.joint) {
        node.append(el('span', 'joint', ' (' + link.joint + ', ' + link.joint_type + ')'));
      }
      if (depth > 40) node.append(el('span', 'joint', ' [depth ' + depth + ']'));
      node.addEventListener('click', () => selectLink(link.name));
      rows.push(node);
      const kids = children.get(link.name) || [];
      for (let i = kids.length - 1; i >= 0; i--) pending.push([kids[i], depth + 1]);
    }
    top.append(fragment(rows));
  }

  function selectLink(name) {
    const link = name === null || name === undefined ? null : state.links.get(name);
    state.selected = link ? name : null;
    document.body.dataset.selectedLink = state.selected === null ? '' : state.selected;
    view.highlight(state.selected);
    for (const node of document.querySelectorAll('#tree .node')) {
      node.classList.toggle('current', node.dataset.link === state.selected);
    }
    $('link-name').textContent = link ? name : '(none selected: click a part, a finding or ' +
                                            'a link of the tree)';
    const list = $('link-findings');
    if (!link) {
      fillFacts($('link-facts'), []);
      list.replaceChildren();
      return;
    }
    const inertial = link.inertial || {};
    fillFacts($('link-facts'), [
      ['parent joint', link.joint ? link.joint + ' (' + link.joint_type + ') from ' + link.parent
                                  : 'none (a root)'],
      ['mass', inertial.mass === undefined ? 'no <inertial>' : fmt(inertial.mass) + ' kg'],
      ['centre of mass', inertial.com ? vec(inertial.com) + ' m (link frame)' : 'n/a'],
      ['inertia box', inertial.box ? vec(inertial.box.size) + ' m' : 'none (invalid tensor)'],
      ['visual / collision', link.visuals.length + ' / ' + link.collisions.length + ' drawn'],
      ['worst finding', link.worst || 'none'],
    ]);
    // Its own findings, and those about several links that list it.
    const own = robot().findings.filter(
      (finding) => finding.link === name || (finding.links || []).includes(name));
    list.replaceChildren(fragment(own.length ? own.map(findingItem) : [el('li', '', 'no findings')]));
    for (const item of list.children) {
      item.classList.toggle('current', Number(item.dataset.id) === state.currentFinding);
    }
  }

  // ---------------------------------------------------------------- start
  const total = data.summary;
  $('totals').textContent = plural(total.error, 'error') + ', ' + plural(total.warning, 'warning') +
    ', ' + total.info + ' info' + (data.input_errors.length ?
      ', ' + plural(data.input_errors.length, 'unreadable input') : '');
  if (data.robots.length > 1) {
    const choice = $('robot-choice');
    choice.hidden = false;
    data.robots.forEach((current, index) => {
      const option = el('option', '', (current.robot || '(unnamed)') + ' (' + current.label + ')');
      option.value = String(index);
      choice.append(option);
    });
    choice.addEventListener('change', () => {
      state.robotIndex = Number(choice.value);
      showRobot();
    });
  }
  if (data.robots.length) {
    showRobot();
  } else {
    $('notes').replaceChildren(...data.input_errors.map(
      (error) => el('li', '', error.path + ': ' + error.message)));
  }
  view.resize();
  if (!view.available || !data.robots.length) markReady();  // else after the first frame
})();
