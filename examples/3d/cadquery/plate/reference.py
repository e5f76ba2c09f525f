# A plate 80 x 50 x 6 centred on the origin in XY, from z = 0 to 6,
# with six 6 mm holes on a 3 x 2 grid, 25 mm apart in x, 20 mm in y.
import cadquery as cq

result = (cq.Workplane("XY").box(80, 50, 6, centered=(True, True, False))
          .faces(">Z").workplane().rarray(25, 20, 3, 2).hole(6))
