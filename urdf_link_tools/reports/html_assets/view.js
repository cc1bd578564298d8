/*
 * urdf-link-tools HTML report: the 3D view of one robot at its reference pose.
 * Copyright 2026 urdf_link_tools contributors. Licensed under the Apache License, Version 2.0.
 *
 * Draws the scene data of urdf_link_tools/reports/scene.py with the inlined three.js (global
 * THREE): the visual geometry coloured by each link's worst finding, the collision geometry,
 * the centres of mass, the equivalent inertia boxes, the robot's centre of mass and the
 * overlapping collision pairs. Transforms arrive as 4x4 matrices row by row, in the root link's
 * frame (z up, as in ROS). report.js drives it through UrdfReportView.create().
 */
'use strict';

window.UrdfReportView = (function () {
  const COLORS = {
    error: 0xd62728, warning: 0xf08c00, info: 0x1f77b4, ok: 0x9aa5b1, selected: 0x00c8ff,
    collision: 0x4c7fff, robotCom: 0xcc33cc, pair: 0xff0000, comOk: 0x444444,
  };
  function severityKey(worst) {
    return COLORS[worst] !== undefined ? worst : 'ok';
  }
  function partMaterial(link) {
    // Its own findings' colour; a paler one when only findings about several links list it.
    const own = severityKey(link.own);
    const worst = severityKey(link.worst);
    return own === worst || own !== 'ok' ? MATERIALS.visual[worst] : MATERIALS.pale[worst];
  }
  function overlay(material) {
    // Centres of mass and the robot's CoM are drawn through the parts, as a reviewer wants them.
    material.depthTest = false;
    material.transparent = true;
    return material;
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
  const MATERIALS = {visual: {}, pale: {}, com: {}, inertia: {}, edges: {}};
  for (const worst of ['error', 'warning', 'info', 'ok']) {
    const color = COLORS[worst];
    MATERIALS.visual[worst] = new THREE.MeshStandardMaterial({
      color, flatShading: true, metalness: 0.05, roughness: 0.75, side: THREE.DoubleSide});
    // A link only a robot-wide finding lists (meshes reused as collision on every link, a
    // copied placeholder): the same hue, paler, so that its own problems stand out.
    MATERIALS.pale[worst] = new THREE.MeshStandardMaterial({
      color: new THREE.Color(color).lerp(new THREE.Color(0xffffff), 0.6), flatShading: true,
      metalness: 0.05, roughness: 0.75, side: THREE.DoubleSide});
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


  /**
   * Make the view on a canvas.
   *
   * options: canvas, container (the element whose size the canvas takes), onPick(linkName or
   * null) for a click on a part, onFirstFrame() once the first frame is drawn.
   * Returns {available, frames, drawnTriangles, build(robot, key), setShown(show), highlight(name),
   * fit(), resize()}.
   */
  function create(options) {
    const {canvas, container, onPick, onFirstFrame} = options;
    let renderer = null;
    try {
      renderer = new THREE.WebGLRenderer({canvas, antialias: true, preserveDrawingBuffer: true});
    } catch (error) {
      const note = document.createElement('p');
      note.id = 'no-webgl';
      note.textContent = 'This browser cannot draw WebGL: the 3D view is off; the findings ' +
                         'beside it are complete.';
      canvas.replaceWith(note);
    }
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
    let highlighted = null;
    let shown = {visual: true};
    let robotKey = '';
    const links = new Map();
    const geometryCache = new Map();
    const api = {available: Boolean(renderer), frames: 0, drawnTriangles: 0, bounds: null};

    // One draw per animation frame however many changes asked for one: software WebGL takes
    // about a second for half a million triangles.
    let drawQueued = false;
    function render() {
      if (!renderer || drawQueued) return;
      drawQueued = true;
      requestAnimationFrame(() => {
        drawQueued = false;
        renderer.render(scene, camera);
        api.frames += 1;
        if (api.frames === 1 && onFirstFrame) onFirstFrame();
      });
    }
    function resize() {
      if (!renderer) return;
      renderer.setSize(container.clientWidth, container.clientHeight, false);
      camera.aspect = container.clientWidth / Math.max(1, container.clientHeight);
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
      const key = robotKey + ':' + index;
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
        api.drawnTriangles += mesh.triangles;
      }
      geometryCache.set(key, geometry);
      return geometry;
    }
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
    function build(robot, key) {
      if (robotRoot) scene.remove(robotRoot);
      links.clear();
      robotKey = key;
      api.drawnTriangles = 0;
      robotRoot = new THREE.Group();
      helpers = {visual: [], collision: [], com: [], inertia: [], robotCom: []};
      for (const link of robot.links) {
        const entry = {data: link, group: null, visuals: []};
        links.set(link.name, entry);
        if (!link.pose) continue;
        const group = new THREE.Group();
        group.matrixAutoUpdate = false;
        group.matrix.copy(matrix(link.pose));
        group.userData.link = link.name;
        const worst = severityKey(link.worst);
        const paint = partMaterial(link);
        for (const shape of link.visuals) {
          const object = shapeObject(shape, paint, robot);
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
          // the ball says the link's own findings (a robot-wide one alone leaves it grey)
          const sphere = new THREE.Mesh(UNIT.sphere, MATERIALS.com[severityKey(link.own)]);
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
      for (const entry of links.values()) {
        if (entry.group) bounds.expandByPoint(new THREE.Vector3().setFromMatrixPosition(entry.group.matrix));
      }
      if (bounds.isEmpty()) bounds.set(new THREE.Vector3(-0.5, -0.5, 0), new THREE.Vector3(0.5, 0.5, 1));
      api.bounds = bounds;
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
      // Overlapping collision pairs (the self-collision check): a line between the two links,
      // red for a warning, the info colour for links welded together (an info).
      for (const pair of robot.pairs || []) {
        const ends = pair.links.map((name) => linkCentre(name));
        if (ends.some((end) => !end)) continue;
        const color = pair.severity === 'info' ? COLORS.info : COLORS.pair;
        const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints(ends),
                                    overlay(new THREE.LineBasicMaterial({color})));
        robotRoot.add(line);
      }
      const grid = new THREE.GridHelper(Math.max(1, Math.ceil(radius * 4)), 20, 0xb0b8c0, 0xd8dde3);
      grid.rotateX(Math.PI / 2);
      grid.position.z = floor;
      robotRoot.add(grid);
      setShown(shown);
      fit();
    }
    function linkCentre(name) {
      const entry = links.get(name);
      if (!entry || !entry.group) return null;
      const com = (entry.data.inertial || {}).com || [0, 0, 0];
      return new THREE.Vector3(...com).applyMatrix4(entry.group.matrix);
    }
    function fit() {
      if (!renderer || !api.bounds) return;
      const centre = api.bounds.getCenter(new THREE.Vector3());
      const radius = Math.max(0.05, api.bounds.getSize(new THREE.Vector3()).length() / 2);
      // The bounding sphere fits in the narrower of the two fields of view.
      camera.aspect = container.clientWidth / Math.max(1, container.clientHeight);
      const vertical = camera.fov * Math.PI / 180;
      const horizontal = 2 * Math.atan(Math.tan(vertical / 2) * camera.aspect);
      // a tenth of room around it: the toggles and the legend lie over the canvas edges
      const distance = 1.1 * radius / Math.sin(Math.min(vertical, horizontal) / 2);
      const direction = new THREE.Vector3(1.0, -1.3, 0.75).normalize();
      camera.position.copy(centre).addScaledVector(direction, distance);
      camera.near = distance / 200;
      camera.far = distance * 20;
      camera.updateProjectionMatrix();
      controls.target.copy(centre);
      controls.update();
      resize();
    }
    function setShown(show) {
      shown = Object.assign({}, show);
      if (!helpers) return;
      for (const kind of Object.keys(helpers)) {
        for (const object of helpers[kind]) object.visible = Boolean(shown[kind]);
      }
      render();
    }
    function highlight(name) {
      if (highlighted) {
        const material = partMaterial(highlighted.data);
        for (const object of highlighted.visuals) object.material = material;
      }
      highlighted = links.get(name) || null;
      if (highlighted) for (const object of highlighted.visuals) object.material = MATERIALS.selected;
      render();
    }

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
      if (onPick) onPick(hit ? linkOf(hit.object) : null);
    });
    function isShown(object) {
      for (let node = object; node; node = node.parent) if (!node.visible) return false;
      return true;
    }
    function linkOf(object) {
      for (let node = object; node; node = node.parent) if (node.userData.link) return node.userData.link;
      return null;
    }
    Object.assign(api, {build, setShown, highlight, fit, resize});
    return api;
  }

  return {create};
})();
