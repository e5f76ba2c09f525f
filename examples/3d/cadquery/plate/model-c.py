import cadquery as cq

plate = cq.Workplane("XY").box(80, 50, 6, centered=(True, True, False))
result = plate.faces(">Z").workplane().rarray(25, 20, 3, 2).hole(hole_diameter)
