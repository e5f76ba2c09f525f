import cadquery as cq

base = cq.Workplane("XY").cuboid(60, 30, 5)
upright = cq.Workplane("XY").box(5, 30, 40, centered=False)
result = base.union(upright)
