# An L-bracket: a 60 x 30 x 5 base on the XY plane from the origin, a
# 5 x 30 x 40 upright at x = 0, and a 8 mm hole through the base at
# x = 40, y = 15.
import cadquery as cq

base = cq.Workplane("XY").box(60, 30, 5, centered=False)
upright = cq.Workplane("XY").box(5, 30, 40, centered=False)
hole = cq.Workplane("XY").center(40, 15).circle(4).extrude(5)
result = base.union(upright).cut(hole)
