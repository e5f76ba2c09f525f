# A flanged cylinder along +Z from the origin: a flange of diameter 60
# and 8 mm thick, a body of diameter 30 up to z = 40, a 16 mm bore along
# the axis, and four 6 mm bolt holes on a 45 mm pitch circle.
import cadquery as cq

flange = cq.Workplane("XY").circle(30).extrude(8)
body = cq.Workplane("XY").circle(15).extrude(40)
part = flange.union(body)
bore = cq.Workplane("XY").circle(8).extrude(40)
bolts = (cq.Workplane("XY").polarArray(22.5, 0, 360, 4)
         .circle(3).extrude(8))
result = part.cut(bore).cut(bolts)
