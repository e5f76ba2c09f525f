import cadquery as cq

flange = cq.Workplane("XY").circle(radius=30, segments=64).extrude(8)
body = cq.Workplane("XY").circle(15).extrude(40)
result = flange.union(body)
