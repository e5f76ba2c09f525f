# The flange revolved from its half section, then drilled.
import cadquery as cq

section = [(8, 0), (30, 0), (30, 8), (15, 8), (15, 40), (8, 40)]
part = cq.Workplane("XZ").polyline(section).close().revolve(360, (0, 0, 0), (0, 1, 0))
pts = [(22.5, 0), (0, 22.5), (-22.5, 0), (0, -22.5)]
result = part.faces("<Z").workplane(origin=(0, 0, 0)).pushPoints(pts).hole(6, 8)
