# Only the outline: a face, not a solid.
import cadquery as cq

result = cq.Workplane("XY").rect(80, 50).extrude(6).faces(">Z").val()
