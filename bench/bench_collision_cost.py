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
What a collision mesh's faces and convexity cost FCL (coal) and MuJoCo, per query.

The numbers behind collision-mesh-too-complex's limits (docs/rules.md, "Collision mesh size
and convexity"): icospheres (convex) and tori (concave) against a 10 cm box with coal (the
FCL fork Pinocchio uses; MoveIt uses FCL's same bounding-volume trees), and two convex
meshes in MuJoCo. Run: scripts/env.sh python -m bench.bench_collision_cost
"""

import os
import tempfile
import time
from typing import Callable

import numpy as np
import trimesh


def per_call(function: Callable[[], object], count: int = 300) -> float:
    """Return the mean seconds of one call."""
    start = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - start) / count


def coal_costs(mesh: trimesh.Trimesh, distance_offset: float, touch_offset: float):
    """Return (distance, collide) seconds of the mesh against a 10 cm box."""
    import coal
    model = coal.BVHModelOBBRSS()
    model.beginModel(len(mesh.faces), len(mesh.vertices))
    for face in mesh.faces:
        a, b, c = (np.array(point, dtype=float) for point in mesh.vertices[face])
        model.addTriangle(a, b, c)
    model.endModel()
    box = coal.Box(0.1, 0.1, 0.1)
    here = coal.Transform3s()
    near, touching = coal.Transform3s(), coal.Transform3s()
    near.setTranslation(np.array([distance_offset, 0.0, 0.0]))
    touching.setTranslation(np.array([touch_offset, 0.0, 0.0]))
    request, result = coal.DistanceRequest(), coal.DistanceResult()
    crequest, cresult = coal.CollisionRequest(), coal.CollisionResult()

    def distance():
        result.clear()
        coal.distance(model, here, box, near, request, result)

    def collide():
        cresult.clear()
        coal.collide(model, here, box, touching, crequest, cresult)
    return per_call(distance), per_call(collide)


def mujoco_cost(mesh: trimesh.Trimesh, folder: str) -> float:
    """Return the seconds of one mj_collision between two copies of a mesh."""
    import mujoco
    path = os.path.join(folder, f'mesh{len(mesh.faces)}.stl')
    mesh.export(path)
    xml = (f'<mujoco><asset><mesh name="m" file="{path}"/></asset><worldbody>'
           '<body><freejoint/><geom type="mesh" mesh="m"/></body>'
           '<body pos="0.15 0.05 0"><freejoint/><geom type="mesh" mesh="m"/></body>'
           '</worldbody></mujoco>')
    model = mujoco.MjModel.from_xml_string(xml)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    return per_call(lambda: mujoco.mj_collision(model, data), 2000)


def main() -> None:
    """Print the table of docs/rules.md."""
    print('faces  shape    coal distance  coal collide  mujoco mj_collision')
    with tempfile.TemporaryDirectory() as folder:
        for subdivisions in (2, 3, 4, 5, 6):
            sphere = trimesh.creation.icosphere(subdivisions=subdivisions, radius=0.1)
            distance, collide = coal_costs(sphere, 0.18, 0.12)
            print(f'{len(sphere.faces):6d} convex  {distance * 1e6:10.1f} us  '
                  f'{collide * 1e6:9.1f} us  {mujoco_cost(sphere, folder) * 1e6:9.1f} us')
    for sections in (20, 40, 80, 160, 320):
        ring = trimesh.creation.torus(major_radius=0.1, minor_radius=0.02,
                                      major_sections=sections, minor_sections=sections // 2)
        distance, collide = coal_costs(ring, 0.0, 0.12)
        print(f'{len(ring.faces):6d} concave {distance * 1e6:10.1f} us  {collide * 1e6:9.1f} us')


if __name__ == '__main__':
    main()
