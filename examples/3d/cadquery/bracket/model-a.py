# The same bracket from its L profile, extruded along +Y.
import cadquery as cq

profile = [(0, 0), (60, 0), (60, 5), (5, 5), (5, 40), (0, 40)]
bracket = cq.Workplane("XZ").polyline(profile).close().extrude(-30)
result = bracket.faces("<Z").workplane(centerOption="ProjectedOrigin",
                                       origin=(0, 0, 0)).center(40, -15).hole(8)
