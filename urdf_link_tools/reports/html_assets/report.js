/*
 * urdf-link-tools HTML report: the 3D view of the robot and its findings.
 * Copyright 2026 urdf_link_tools contributors. Licensed under the Apache License, Version 2.0.
 *
 * Reads the JSON of #report-data (written by urdf_link_tools/reports/html.py and scene.py) and
 * draws it with the inlined three.js (global THREE). Every text from the description is set
 * with textContent, never parsed as HTML. Transforms arrive as 4x4 matrices row by row, in the
 * root link's frame (z up, as in ROS). window.urdfReport exposes the state for automation.
 */
'use strict';

(function () {
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const COLORS = {
    error: 0xd62728, warning: 0xf08c00, info: 0x1f77b4, ok: 0x9aa5b1, selected: 0x00c8ff,
    collision: 0x4c7fff, robotCom: 0xcc33cc, pair: 0xff0000, comOk: 0x444444,
  };
  const state = {
    robotIndex: 0, selected: null, currentFinding: null, ready: false, links: new Map(),
    drawnTriangles: 0, renderer: null,
  };
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

  // ---------------------------------------------------------------- 3D view
  const canvas = $('canvas');
  let renderer = null;
  try {
    renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
  } catch (error) {
    const note = el('p', '', 'This browser cannot draw WebGL: the 3D view is off; the findings ' +
                    'below are complete.');
    note.id = 'no-webgl';
    canvas.replaceWith(note);
  }
  state.renderer = renderer;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xf6f7f9);
  const camera = new THREE.PerspectiveCamera(45, 1, 0.001, 1000);
  camera.up.set(0, 0, 1);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(2, -3, 4);
  scene.add(sun);
  let controls = null;
  if (renderer) {
    renderer.setPixelRatio(window.devicePixelRatio || 1);
    controls = new THREE.OrbitControls(camera, canvas);
    controls.addEventListener('change', render);
  }
  let robotRoot = null;
  let helpers = null;
  const geometryCache = new Map();

  // One draw per animation frame however many changes asked for one: software WebGL takes
  // about a second for half a million triangles.
  let drawQueued = false;
  function render() {
    if (!renderer || drawQueued) return;
    drawQueued = true;
    requestAnimationFrame(() => {
      drawQueued = false;
      renderer.render(scene, camera);
      state.frames = (state.frames || 0) + 1;
      if (state.frames === 1) markReady();
    });
  }
  function markReady() {
    state.ready = true;
    state.readyMs = performance.now();
    document.body.dataset.ready = 'true';
  }
  function resize() {
    if (!renderer) return;
    const view = $('view');
    renderer.setSize(view.clientWidth, view.clientHeight, false);
    camera.aspect = view.clientWidth / Math.max(1, view.clientHeight);
    camera.updateProjectionMatrix();
    render();
  }
  window.addEventListener('resize', resize);

  function matrix(values) {
    const m = new THREE.Matrix4();
    if (values) m.set(...values);
    return m;
  }
  function bytes(text) {
    const raw = atob(text);
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function meshGeometry(index, robot) {
    const key = state.robotIndex + ':' + index;
    if (geometryCache.has(key)) return geometryCache.get(key);
    const mesh = robot.meshes[index];
    const geometry = new THREE.BufferGeometry();
    if (mesh.triangles) {
      const quantised = new Uint16Array(bytes(mesh.positions).buffer);
      const positions = new Float32Array(quantised.length);
      for (let i = 0; i < quantised.length; i++) {
        const axis = i % 3;
        positions[i] = mesh.low[axis] + quantised[i] * mesh.step[axis];
      }
      const raw = bytes(mesh.indices).buffer;
      const indices = mesh.wide ? new Uint32Array(raw) : new Uint16Array(raw);
      geometry.setAttribute('position', new THREE.BufferAttribute(positions, 3));
      geometry.setIndex(new THREE.BufferAttribute(indices, 1));
      state.drawnTriangles += mesh.triangles;
    }
    geometryCache.set(key, geometry);
    return geometry;
  }
  // One geometry per primitive kind and one material per severity, shared by every link and
  // scaled per use: a generated robot of 10,000 links stays 10,000 objects, not 40,000
  // geometries and materials.
  const UNIT = {
    box: new THREE.BoxGeometry(1, 1, 1),
    sphere: new THREE.SphereGeometry(1, 24, 16),
    // URDF cylinders stand along z, three.js ones along y.
    cylinder: new THREE.CylinderGeometry(1, 1, 1, 24).rotateX(Math.PI / 2),
  };
  UNIT.edges = new THREE.EdgesGeometry(UNIT.box);
  const MATERIALS = {visual: {}, com: {}, inertia: {}, edges: {}};
  for (const worst of ['error', 'warning', 'info', 'ok']) {
    const color = COLORS[worst];
    MATERIALS.visual[worst] = new THREE.MeshStandardMaterial({
      color, flatShading: true, metalness: 0.05, roughness: 0.75, side: THREE.DoubleSide});
    MATERIALS.com[worst] = overlay(new THREE.MeshBasicMaterial({
      color: worst === 'ok' ? COLORS.comOk : color}));
    MATERIALS.inertia[worst] = new THREE.MeshBasicMaterial({
      color, transparent: true, opacity: 0.25, depthWrite: false});
    MATERIALS.edges[worst] = new THREE.LineBasicMaterial({color});
  }
  MATERIALS.selected = new THREE.MeshStandardMaterial({
    color: COLORS.selected, emissive: 0x004455, flatShading: true, side: THREE.DoubleSide});
  MATERIALS.collision = new THREE.MeshStandardMaterial({
    color: COLORS.collision, transparent: true, opacity: 0.35, depthWrite: false,
    side: THREE.DoubleSide});

  function shapeObject(shape, material, robot) {
    let geometry;
    let scale;
    if (shape.type === 'box') {
      [geometry, scale] = [UNIT.box, shape.size];
    } else if (shape.type === 'sphere') {
      [geometry, scale] = [UNIT.sphere, [shape.radius, shape.radius, shape.radius]];
    } else if (shape.type === 'cylinder') {
      [geometry, scale] = [UNIT.cylinder, [shape.radius, shape.radius, shape.length]];
    } else {
      [geometry, scale] = [meshGeometry(shape.mesh, robot), shape.scale];
    }
    const object = new THREE.Mesh(geometry, material);
    object.matrixAutoUpdate = false;
    object.matrix.copy(matrix(shape.origin));
    object.matrix.multiply(new THREE.Matrix4().makeScale(scale[0], scale[1], scale[2]));
    return object;
  }
  function severityKey(worst) {
    return COLORS[worst] !== undefined ? worst : 'ok';
  }
  function overlay(material) {
    // Centres of mass and the robot's CoM are drawn through the parts, as a reviewer wants them.
    material.depthTest = false;
    material.transparent = true;
    return material;
  }

  function buildRobot(robot) {
    if (robotRoot) scene.remove(robotRoot);
    state.links.clear();
    state.drawnTriangles = 0;
    robotRoot = new THREE.Group();
    helpers = {visual: [], collision: [], com: [], inertia: [], robotCom: []};
    for (const link of robot.links) {
      const entry = {data: link, group: null, visuals: []};
      state.links.set(link.name, entry);
      if (!link.pose) continue;
      const group = new THREE.Group();
      group.matrixAutoUpdate = false;
      group.matrix.copy(matrix(link.pose));
      group.userData.link = link.name;
      const worst = severityKey(link.worst);
      for (const shape of link.visuals) {
        const object = shapeObject(shape, MATERIALS.visual[worst], robot);
        object.userData.link = link.name;
        entry.visuals.push(object);
        helpers.visual.push(object);
        group.add(object);
      }
      for (const shape of link.collisions) {
        const object = shapeObject(shape, MATERIALS.collision, robot);
        object.userData.link = link.name;
        helpers.collision.push(object);
        group.add(object);
      }
      const inertial = link.inertial || {};
      if (inertial.com && inertial.com_diameter) {
        const sphere = new THREE.Mesh(UNIT.sphere, MATERIALS.com[worst]);
        sphere.position.set(inertial.com[0], inertial.com[1], inertial.com[2]);
        sphere.scale.setScalar(inertial.com_diameter / 2);
        sphere.renderOrder = 3;
        sphere.userData.link = link.name;
        helpers.com.push(sphere);
        group.add(sphere);
      }
      if (inertial.box) {
        const size = inertial.box.size;
        const box = new THREE.Mesh(UNIT.box, MATERIALS.inertia[worst]);
        box.add(new THREE.LineSegments(UNIT.edges, MATERIALS.edges[worst]));
        box.matrixAutoUpdate = false;
        box.matrix.copy(matrix(inertial.box.transform));
        box.matrix.multiply(new THREE.Matrix4().makeScale(size[0], size[1], size[2]));
        box.userData.link = link.name;
        helpers.inertia.push(box);
        group.add(box);
      }
      entry.group = group;
      robotRoot.add(group);
    }
    scene.add(robotRoot);
    robotRoot.updateMatrixWorld(true);
    // Framed on what the parts look like: an inertia box of a wrong tensor can be metres wide.
    const bounds = new THREE.Box3();
    for (const object of helpers.visual.length ? helpers.visual : helpers.collision) {
      bounds.expandByObject(object);
    }
    for (const entry of state.links.values()) {
      if (entry.group) bounds.expandByPoint(new THREE.Vector3().setFromMatrixPosition(entry.group.matrix));
    }
    if (bounds.isEmpty()) bounds.set(new THREE.Vector3(-0.5, -0.5, 0), new THREE.Vector3(0.5, 0.5, 1));
    state.bounds = bounds;
    const radius = Math.max(0.05, bounds.getSize(new THREE.Vector3()).length() / 2);
    // The floor: z = 0 of the root frame, or below the lowest part (a humanoid's pelvis root).
    const floor = Math.min(0, bounds.min.z);
    if (robot.com) {
      const com = new THREE.Vector3(...robot.com);
      const material = overlay(new THREE.MeshBasicMaterial({color: COLORS.robotCom}));
      const sphere = new THREE.Mesh(new THREE.SphereGeometry(radius * 0.035, 24, 16), material);
      sphere.position.copy(com);
      sphere.renderOrder = 4;
      const ground = new THREE.Mesh(new THREE.CircleGeometry(radius * 0.06, 32), material);
      ground.position.set(com.x, com.y, floor);
      const drop = new THREE.Line(
        new THREE.BufferGeometry().setFromPoints([com, new THREE.Vector3(com.x, com.y, floor)]),
        overlay(new THREE.LineBasicMaterial({color: COLORS.robotCom})));
      for (const object of [sphere, ground, drop]) {
        helpers.robotCom.push(object);
        robotRoot.add(object);
      }
    }
    // Overlapping collision pairs (the self-collision check): a line between the two links.
    for (const pair of robot.pairs || []) {
      const ends = pair.links.map((name) => linkCentre(name));
      if (ends.some((end) => !end)) continue;
      const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints(ends),
                                  overlay(new THREE.LineBasicMaterial({color: COLORS.pair})));
      robotRoot.add(line);
    }
    const grid = new THREE.GridHelper(Math.max(1, Math.ceil(radius * 4)), 20, 0xb0b8c0, 0xd8dde3);
    grid.rotateX(Math.PI / 2);
    grid.position.z = floor;
    robotRoot.add(grid);
    applyToggles();
    fit();
  }
  function linkCentre(name) {
    const entry = state.links.get(name);
    if (!entry || !entry.group) return null;
    const com = (entry.data.inertial || {}).com || [0, 0, 0];
    return new THREE.Vector3(...com).applyMatrix4(entry.group.matrix);
  }
  function fit() {
    if (!renderer || !state.bounds) return;
    const centre = state.bounds.getCenter(new THREE.Vector3());
    const radius = Math.max(0.05, state.bounds.getSize(new THREE.Vector3()).length() / 2);
    // The bounding sphere fits in the narrower of the two fields of view.
    camera.aspect = $('view').clientWidth / Math.max(1, $('view').clientHeight);
    const vertical = camera.fov * Math.PI / 180;
    const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
    const distance = 0.95 * radius / Math.sin(Math.min(vertical, horizontal) / 2);
    const direction = new THREE.Vector3(1.0, -1.3, 0.75).normalize();
    camera.position.copy(centre).addScaledVector(direction, distance);
    camera.near = distance / 200;
    camera.far = distance * 20;
    camera.updateProjectionMatrix();
    controls.target.copy(centre);
    controls.update();
    resize();
  }
  function applyToggles() {
    if (!helpers) return;
    const show = {
      visual: $('show-visual').checked, collision: $('show-collision').checked,
      com: $('show-com').checked, inertia: $('show-inertia').checked,
      robotCom: $('show-robot-com').checked,
    };
    for (const kind of Object.keys(helpers)) {
      for (const object of helpers[kind]) object.visible = show[kind];
    }
    render();
  }
  for (const id of ['show-visual', 'show-collision', 'show-com', 'show-inertia', 'show-robot-com']) {
    $(id).addEventListener('change', applyToggles);
  }
  $('fit').addEventListener('click', fit);

  // Picking: a click (not a drag) on a part selects its link.
  const raycaster = new THREE.Raycaster();
  let pressed = null;
  canvas.addEventListener('pointerdown', (event) => { pressed = [event.clientX, event.clientY]; });
  canvas.addEventListener('pointerup', (event) => {
    if (!pressed || !renderer) return;
    const moved = Math.hypot(event.clientX - pressed[0], event.clientY - pressed[1]);
    pressed = null;
    if (moved > 4) return;
    const box = canvas.getBoundingClientRect();
    const pointer = new THREE.Vector2(((event.clientX - box.left) / box.width) * 2 - 1,
                                      -((event.clientY - box.top) / box.height) * 2 + 1);
    raycaster.setFromCamera(pointer, camera);
    const hits = raycaster.intersectObject(robotRoot, true).filter((hit) => isShown(hit.object));
    const hit = hits.find((candidate) => linkOf(candidate.object));
    selectLink(hit ? linkOf(hit.object) : null);
    if (hit) $('link-section').scrollIntoView({block: 'nearest'});
  });
  function isShown(object) {
    for (let node = object; node; node = node.parent) if (!node.visible) return false;
    return true;
  }
  function linkOf(object) {
    for (let node = object; node; node = node.parent) if (node.userData.link) return node.userData.link;
    return null;
  }

  // ---------------------------------------------------------------- panel
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
  function fillFacts(list, pairs) {
    list.replaceChildren();
    for (const [name, value] of pairs) list.append(el('dt', '', name), el('dd', '', value));
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
      ['overlapping pairs', (current.pairs || []).length ?
        current.pairs.map((pair) => pair.links.join(' / ')).join('; ') : 'not checked here'],
    ]);
    $('notes').replaceChildren(...current.notes.map((note) => el('li', '', note)));
    const rules = [...new Set(current.findings.map((finding) => finding.rule))].sort();
    $('rule-filter').replaceChildren(el('option', '', 'all rules'),
                                     ...rules.map((rule) => el('option', '', rule)));
    $('rule-filter').options[0].value = '';
    $('findings').replaceChildren(fragment(current.findings.map(findingItem)));
    applyFilters();
    buildTree(current);
    if (renderer) buildRobot(current);
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
    const previous = state.selected && state.links.get(state.selected);
    if (previous) {
      const material = MATERIALS.visual[severityKey(previous.data.worst)];
      for (const object of previous.visuals) object.material = material;
    }
    const entry = name === null || name === undefined ? null : state.links.get(name);
    state.selected = entry ? name : null;
    document.body.dataset.selectedLink = state.selected === null ? '' : state.selected;
    if (entry) for (const object of entry.visuals) object.material = MATERIALS.selected;
    for (const node of document.querySelectorAll('#tree .node')) {
      node.classList.toggle('current', node.dataset.link === state.selected);
    }
    $('link-name').textContent = entry ? name : '(none selected: click a part, a finding or ' +
                                             'a link of the tree)';
    const list = $('link-findings');
    if (!entry) {
      fillFacts($('link-facts'), []);
      list.replaceChildren();
      render();
      return;
    }
    const link = entry.data;
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
    const own = robot().findings.filter((finding) => finding.link === name);
    list.replaceChildren(fragment(own.length ? own.map(findingItem) : [el('li', '', 'no findings')]));
    for (const item of list.children) {
      item.classList.toggle('current', Number(item.dataset.id) === state.currentFinding);
    }
    render();
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
  resize();
  if (!renderer || !data.robots.length) markReady();  // else after the first frame is drawn
})();
