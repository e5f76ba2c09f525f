# The plate standing up: the XZ workplane where XY was meant.
import cadquery as cq

result = (cq.Workplane("XZ").box(80, 50, 6, centered=(True, True, False))
          .faces("<Y").workplane().rarray(25, 20, 3, 2).hole(6))
