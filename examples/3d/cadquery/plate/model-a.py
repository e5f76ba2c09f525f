import cadquery as cq

holes = [(x, y) for x in (-25, 0, 25) for y in (-10, 10)]
plate = cq.Workplane("XY").rect(80, 50).extrude(6)
result = plate.faces(">Z").workplane().pushPoints(holes).hole(6)
