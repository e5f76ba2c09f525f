# The bracket built on the XZ workplane where XY was meant.
import cadquery as cq

base = cq.Workplane("XZ").box(60, 30, 5, centered=False)
upright = cq.Workplane("XZ").box(5, 30, 40, centered=False)
hole = cq.Workplane("XZ").center(40, 15).circle(4).extrude(5)
result = base.union(upright).cut(hole)
