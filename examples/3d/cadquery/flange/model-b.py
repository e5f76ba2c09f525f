# The flange along +X: built on the YZ workplane where XY was meant.
import cadquery as cq

flange = cq.Workplane("YZ").circle(30).extrude(8)
body = cq.Workplane("YZ").circle(15).extrude(40)
part = flange.union(body)
bore = cq.Workplane("YZ").circle(8).extrude(40)
bolts = (cq.Workplane("YZ").polarArray(22.5, 0, 360, 4)
         .circle(3).extrude(8))
result = part.cut(bore).cut(bolts)
