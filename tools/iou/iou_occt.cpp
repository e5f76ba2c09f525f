/*
 * iou_occt.cpp - assay-iou, the cad env's geometry helper (OCCT 7.6).
 *
 * Reads two STEP files and prints the volumetric IoU of their solids,
 * V(A & B) / (V(A) + V(B) - V(A & B)), with the intersection an exact
 * B-rep boolean (BRepAlgoAPI_Common) and the volumes from GProp, as one
 * line:
 *
 *   vA=1000.000000 vB=1000.000000 vInter=500.000000 vUnion=1500.000000
 *   IoU=0.333333
 *
 * then the two solids' tight bounding boxes (min and max corners):
 *
 *   bbox: A=0.000000,0.000000,0.000000,10.000000,10.000000,10.000000
 *   B=5.000000,0.000000,0.000000,15.000000,10.000000,10.000000
 *
 * It also writes simple solids as STEP, for tests and examples:
 *
 * With --orient MIN after the two files, and an IoU below MIN, it also
 * tries the 23 other right-angle orientations of A (each signed
 * permutation of the axes with determinant +1), turned about the origin
 * and about A's own centre of mass, and prints the best on a second line:
 *
 *   orient: rotation="90 about X" about=origin IoU=1.000000
 *
 * (the Euler-angle mistakes of CadQuery answers: a solid built on the XZ
 * workplane where XY was meant).  Nothing is printed when no turn raises
 * the IoU.
 *
 * With --mesh last, it also prints the solids' surfaces as triangles
 * (BRepMesh_IncrementalMesh, a linear deflection of 1/200 of the larger
 * bounding box's diagonal, 0.35 rad angular), one line per solid, for
 * the workbench's 3D sheet (src/ui/panes/solid.c):
 *
 *   mesh: A N x1 y1 z1 x2 y2 z2 x3 y3 z3 ...    (A, the candidate)
 *   mesh: B N ...                               (B, the reference)
 *   mesh: T N ...                               (A turned as orient: says)
 *
 * N triangles of nine numbers each, in the files' units, counter-
 * clockwise seen from outside.  A solid of more than MESH_MAX triangles
 * is printed as "mesh: A too-many N" instead.  The mesh lines come
 * first and the result lines (vA=, bbox:, orient:) after them, so that
 * the tail of a log shows the result.
 *
 *   assay-iou --box X Y Z DX DY DZ OUT.step
 *   assay-iou --make OUT.step box X Y Z DX DY DZ [- cyl X Y Z R H] ...
 *
 * (--make: a first primitive, then "-" to cut or "+" to fuse the next;
 * cyl stands on the plane z = Z along +z), and says which kernel it is
 * built on with --version.  src/envs/cad.c runs it as a stage inside the
 * sandbox and reads its line and exit status; toolchains.md section 5
 * has the verified commands.
 *
 * Exit status: 0 done; 1 bad usage or a file that cannot be written;
 * 2 a STEP file that cannot be read (missing, not a regular file, not
 * STEP, or holding no shape); 3 an invalid shape (BRepCheck_Analyzer,
 * BOPAlgo_ArgumentAnalyzer), only faces or an open shell, or a solid
 * inside out (negative volume); 4 no solid at all or one of no volume;
 * 5 the boolean failed (or OCCT raised); 6 out of memory.  Errors are one
 * line, "assay-iou: FILE: what", on standard error.
 *
 * OCCT prints its own messages (the STEP writer's statistics, in colour)
 * to standard output: the message printers are removed and both standard
 * streams point at /dev/null while OCCT works, so the result line is the
 * only output.  An OCCT exception becomes an error line, not a crash.
 */
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <BOPAlgo_ArgumentAnalyzer.hxx>
#include <BOPAlgo_CheckResult.hxx>
#include <BRepAlgoAPI_Common.hxx>
#include <BRepAlgoAPI_Cut.hxx>
#include <BRepAlgoAPI_Fuse.hxx>
#include <BRepBndLib.hxx>
#include <BRepCheck_Analyzer.hxx>
#include <BRepGProp.hxx>
#include <BRepPrimAPI_MakeBox.hxx>
#include <BRepPrimAPI_MakeCylinder.hxx>
#include <Bnd_Box.hxx>
#include <GProp_GProps.hxx>
#include <IFSelect_ReturnStatus.hxx>
#include <Interface_Static.hxx>
#include <Message.hxx>
#include <Message_Messenger.hxx>
#include <STEPControl_Reader.hxx>
#include <STEPControl_Writer.hxx>
#include <Standard_Failure.hxx>
#include <Standard_Version.hxx>
#include <TopExp_Explorer.hxx>
#include <TopTools_ListOfShape.hxx>
#include <TopoDS.hxx>
#include <TopoDS_Shape.hxx>
#include <BRepBuilderAPI_Transform.hxx>
#include <BRepBndLib.hxx>
#include <BRepMesh_IncrementalMesh.hxx>
#include <BRep_Tool.hxx>
#include <Bnd_Box.hxx>
#include <Poly_Triangulation.hxx>
#include <TopLoc_Location.hxx>
#include <TopoDS_Face.hxx>
#include <gp_Ax2.hxx>
#include <gp_Mat.hxx>
#include <gp_Pnt.hxx>
#include <gp_Trsf.hxx>

enum {
	EXIT_USAGE = 1,
	EXIT_UNREADABLE = 2,
	EXIT_INVALID = 3,
	EXIT_EMPTY = 4,
	EXIT_BOOLEAN = 5,
	EXIT_MEMORY = 6
};

/* Our own output: the standard streams as they were before OCCT ran. */
static FILE *out = stdout, *err = stderr;

/* An error: the reason and its exit status. */
struct failure {
	int		 code;
	std::string	 file, msg;
};

/*
 * Point fds 1 and 2 at /dev/null and keep copies for our own lines: OCCT
 * writes to std::cout in places the messenger does not cover.
 */
static void
silence(void)
{
	int o = dup(1), e = dup(2), null = open("/dev/null", O_WRONLY);

	Message::DefaultMessenger()->ChangePrinters().Clear();
	if (o < 0 || e < 0 || null < 0)
		return;
	fflush(stdout);
	fflush(stderr);
	out = fdopen(o, "w");
	err = fdopen(e, "w");
	if (out == NULL || err == NULL) {
		out = stdout;
		err = stderr;
		return;
	}
	dup2(null, 1);
	dup2(null, 2);
	close(null);
}

static int
fail(const failure &f)
{
	fprintf(err, "assay-iou: %s: %s\n", f.file.c_str(), f.msg.c_str());
	fflush(err);
	return f.code;
}

static failure
failed(int code, const char *file, const std::string &msg)
{
	failure f;

	f.code = code;
	f.file = file;
	f.msg = msg;
	return f;
}

/* Why: an exception's text names the failing OCCT class, not the file. */
static std::string
what(const Standard_Failure &e)
{
	const char *m = e.GetMessageString();

	return std::string(e.DynamicType()->Name()) + (m != NULL &&
	    *m != '\0' ? std::string(": ") + m : "");
}

static double
volume(const TopoDS_Shape &s)
{
	GProp_GProps props;

	BRepGProp::VolumeProperties(s, props);
	return props.Mass();
}

/*
 * What BRepCheck_Analyzer does not look for and the booleans trip on:
 * faces that cut each other, edges off their faces.  0, or -1 with f.
 */
static int
analyze(const TopTools_ListOfShape &solids, failure &f, const char *path)
{
	for (TopTools_ListOfShape::Iterator i(solids); i.More(); i.Next()) {
		BOPAlgo_ArgumentAnalyzer a;
		const char *why = "faulty";

		a.SetShape1(i.Value());
		a.ArgumentTypeMode() = Standard_True;
		a.SelfInterMode() = Standard_True;
		a.CurveOnSurfaceMode() = Standard_True;
		a.StopOnFirstFaulty() = Standard_True;
		a.Perform();
		if (!a.HasFaulty())
			continue;
		if (!a.GetCheckResult().IsEmpty())
			switch (a.GetCheckResult().First().GetCheckStatus()) {
			case BOPAlgo_SelfIntersect:
				why = "faces that intersect each other";
				break;
			case BOPAlgo_InvalidCurveOnSurface:
				why = "edges that are off their faces";
				break;
			default:
				break;
			}
		f = failed(EXIT_INVALID, path, std::string("invalid solid: ") +
		    why + " (BOPAlgo_ArgumentAnalyzer)");
		return -1;
	}
	return 0;
}

/*
 * The solid of a STEP file: every solid it holds, fused into one when
 * there are several (a compound of overlapping solids would count their
 * overlap twice).  0, or -1 with f filled.
 */
static int
load(const char *path, TopoDS_Shape &shape, double &vol, failure &f)
{
	STEPControl_Reader reader;
	TopTools_ListOfShape solids;
	TopoDS_Shape all;
	struct stat sb;
	int n = 0;

	/* A link could point a script's output at the reference. */
	if (lstat(path, &sb) != 0 || access(path, R_OK) != 0) {
		f = failed(EXIT_UNREADABLE, path, std::string("cannot open: ") +
		    strerror(errno));
		return -1;
	}
	if (!S_ISREG(sb.st_mode)) {
		f = failed(EXIT_UNREADABLE, path, "not a regular file");
		return -1;
	}
	if (reader.ReadFile(path) != IFSelect_RetDone) {
		f = failed(EXIT_UNREADABLE, path, "cannot read STEP (not an"
		    " ISO 10303-21 file, or a malformed one)");
		return -1;
	}
	if (reader.TransferRoots() == 0) {
		f = failed(EXIT_UNREADABLE, path, "the STEP file holds no shape"
		    " that can be transferred");
		return -1;
	}
	all = reader.OneShape();
	if (all.IsNull()) {
		f = failed(EXIT_UNREADABLE, path, "the STEP file holds no"
		    " shape");
		return -1;
	}
	if (!BRepCheck_Analyzer(all).IsValid()) {
		f = failed(EXIT_INVALID, path, "invalid shape"
		    " (BRepCheck_Analyzer finds faults in its topology or"
		    " geometry)");
		return -1;
	}
	for (TopExp_Explorer x(all, TopAbs_SOLID); x.More(); x.Next()) {
		solids.Append(x.Current());
		n++;
	}
	if (n == 0) {
		TopExp_Explorer faces(all, TopAbs_FACE);

		/* The reader turns a solid with a face missing into a shell. */
		f = failed(faces.More() ? EXIT_INVALID : EXIT_EMPTY, path,
		    faces.More() ? "no closed solid, only faces or an open"
		    " shell" : "no solid in the STEP file");
		return -1;
	}
	if (analyze(solids, f, path) < 0)
		return -1;
	if (n == 1) {
		shape = solids.First();
	} else {
		BRepAlgoAPI_Fuse fuse;
		TopTools_ListOfShape first, rest = solids;

		first.Append(rest.First());
		rest.RemoveFirst();
		fuse.SetArguments(first);
		fuse.SetTools(rest);
		fuse.Build();
		if (!fuse.IsDone() || fuse.HasErrors()) {
			f = failed(EXIT_BOOLEAN, path, "cannot fuse its " +
			    std::to_string(n) + " solids into one");
			return -1;
		}
		shape = fuse.Shape();
	}
	vol = volume(shape);
	if (vol < 0) {
		f = failed(EXIT_INVALID, path, "the solid is inside out"
		    " (negative volume " + std::to_string(vol) + ")");
		return -1;
	}
	if (vol < 1e-9) {
		f = failed(EXIT_EMPTY, path, "the solid has no volume");
		return -1;
	}
	return 0;
}

/* The volume A and B have in common; NaN when the boolean fails. */
static double
common_volume(const TopoDS_Shape &a, const TopoDS_Shape &b)
{
	BRepAlgoAPI_Common common(a, b);

	if (!common.IsDone() || common.HasErrors())
		return NAN;
	return volume(common.Shape());
}

/* A right-angle rotation in words: "90 about X", or where the axes go. */
static std::string
rotation_name(const int m[3][3])
{
	static const char *const ax = "XYZ";
	char buf[96];

	for (int k = 0; k < 3; k++) {
		int i = (k + 1) % 3, j = (k + 2) % 3;

		if (m[k][k] != 1)
			continue;
		if (m[i][i] == -1 && m[j][j] == -1)
			snprintf(buf, sizeof buf, "180 about %c", ax[k]);
		else if (m[j][i] == 1 && m[i][j] == -1)
			snprintf(buf, sizeof buf, "90 about %c", ax[k]);
		else if (m[j][i] == -1 && m[i][j] == 1)
			snprintf(buf, sizeof buf, "270 about %c", ax[k]);
		else
			continue;
		return buf;
	}
	/* Columns: where x, y and z go. */
	std::string s = "x->", names[3];
	for (int c = 0; c < 3; c++)
		for (int r = 0; r < 3; r++)
			if (m[r][c] != 0)
				names[c] = std::string(m[r][c] < 0 ? "-" : "") +
				    (char)('x' + r);
	return s + names[0] + " y->" + names[1] + " z->" + names[2];
}

/*
 * The best IoU of A turned by a right angle (23 orientations, about the
 * origin and about A's centre of mass) against B; prints it when it is
 * above the IoU as it stands (base).
 */
static void
orient(const TopoDS_Shape &a, const TopoDS_Shape &b, double va, double vb,
    double base, gp_Trsf *best_turn)
{
	static const int perm[6][3] = { {0, 1, 2}, {0, 2, 1}, {1, 0, 2},
	    {1, 2, 0}, {2, 0, 1}, {2, 1, 0} };
	GProp_GProps props;
	gp_Pnt centre;
	double best = base;
	std::string best_name, best_about;

	BRepGProp::VolumeProperties(a, props);
	centre = props.CentreOfMass();
	for (int p = 0; p < 6; p++)
		for (int sgn = 0; sgn < 8; sgn++) {
			int m[3][3] = { {0, 0, 0}, {0, 0, 0}, {0, 0, 0} };
			double det;

			for (int c = 0; c < 3; c++)
				m[perm[p][c]][c] = (sgn >> c & 1) ? -1 : 1;
			det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
			    m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
			    m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
			if (det < 0 || (p == 0 && sgn == 0))
				continue;
			for (int about = 0; about < 2; about++) {
				gp_Trsf t;
				gp_Mat mat(m[0][0], m[0][1], m[0][2], m[1][0],
				    m[1][1], m[1][2], m[2][0], m[2][1], m[2][2]);
				gp_XYZ c = centre.XYZ(), shift(0, 0, 0);
				double vi, v;

				if (about == 1) {
					gp_XYZ mc = c;
					mc.Multiply(mat);
					shift = c - mc;
				}
				t.SetValues(m[0][0], m[0][1], m[0][2], shift.X(),
				    m[1][0], m[1][1], m[1][2], shift.Y(),
				    m[2][0], m[2][1], m[2][2], shift.Z());
				BRepBuilderAPI_Transform turned(a, t, true);
				vi = common_volume(turned.Shape(), b);
				if (std::isnan(vi))
					continue;
				v = va + vb - vi > 0 ? vi / (va + vb - vi) : 0;
				if (v > best + 1e-9) {
					best = v;
					best_name = rotation_name(m);
					best_about = about ? "centre" : "origin";
					*best_turn = t;
				}
			}
		}
	if (!best_name.empty())
		fprintf(out, "orient: rotation=\"%s\" about=%s IoU=%.6f\n",
		    best_name.c_str(), best_about.c_str(), best);
}

/* A shape's tight axis-aligned box (its geometry, no tolerance gap) into
 * v: xmin ymin zmin xmax ymax zmax.  0, or -1 when it has none. */
static int
tight_box(const TopoDS_Shape &s, double v[6])
{
	Bnd_Box box;

	BRepBndLib::AddOptimal(s, box, Standard_False, Standard_False);
	if (box.IsVoid())
		return -1;
	box.Get(v[0], v[1], v[2], v[3], v[4], v[5]);
	return 0;
}

/*
 * The two solids' bounding boxes, for the run's counterexample
 * (docs/envs/cad.md):
 *   bbox: A=XMIN,YMIN,ZMIN,XMAX,YMAX,ZMAX B=XMIN,...
 * Nothing when either has no box.
 */
static void
bbox_line(const TopoDS_Shape &a, const TopoDS_Shape &b)
{
	double ba[6], bb[6];

	if (tight_box(a, ba) < 0 || tight_box(b, bb) < 0)
		return;
	fprintf(out, "bbox: A=%.6f,%.6f,%.6f,%.6f,%.6f,%.6f"
	    " B=%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", ba[0], ba[1], ba[2], ba[3],
	    ba[4], ba[5], bb[0], bb[1], bb[2], bb[3], bb[4], bb[5]);
}

/* Triangles of a solid beyond which its mesh line is not printed. */
#define MESH_MAX 20000

/*
 * Print s's surface as one "mesh: NAME N x y z ..." line, meshed with
 * the linear deflection defl.
 */
static void
print_mesh(const char *name, const TopoDS_Shape &s, double defl)
{
	std::string line;
	size_t n = 0;
	char num[48];

	BRepMesh_IncrementalMesh mesher(s, defl, false, 0.35, false);
	for (TopExp_Explorer ex(s, TopAbs_FACE); ex.More(); ex.Next()) {
		const TopoDS_Face &face = TopoDS::Face(ex.Current());
		TopLoc_Location loc;
		Handle(Poly_Triangulation) tri = BRep_Tool::Triangulation(face,
		    loc);
		int rev = face.Orientation() == TopAbs_REVERSED;

		if (tri.IsNull())
			continue;
		for (int i = 1; i <= tri->NbTriangles(); i++) {
			int v[3];

			tri->Triangle(i).Get(v[0], v[1], v[2]);
			if (rev)
				std::swap(v[1], v[2]);
			for (int k = 0; k < 3; k++) {
				gp_Pnt p = tri->Node(v[k]).Transformed(
				    loc.Transformation());

				snprintf(num, sizeof num, " %.6g %.6g %.6g",
				    p.X(), p.Y(), p.Z());
				line += num;
			}
			n++;
		}
	}
	if (n > MESH_MAX)
		fprintf(out, "mesh: %s too-many %zu\n", name, n);
	else
		fprintf(out, "mesh: %s %zu%s\n", name, n, line.c_str());
}

/* The --mesh lines of a, b and a turned by turn (when has_turn). */
static void
meshes(const TopoDS_Shape &a, const TopoDS_Shape &b, int has_turn,
    const gp_Trsf &turn)
{
	Bnd_Box box;
	double defl;

	BRepBndLib::Add(a, box);
	BRepBndLib::Add(b, box);
	defl = box.IsVoid() ? 0.1 : sqrt(box.SquareExtent()) / 200;
	if (!(defl > 0))
		defl = 0.1;
	print_mesh("A", a, defl);
	print_mesh("B", b, defl);
	if (has_turn) {
		BRepBuilderAPI_Transform turned(a, turn, true);

		print_mesh("T", turned.Shape(), defl);
	}
}

static int
iou(const char *a_path, const char *b_path, double orient_below, int mesh)
{
	TopoDS_Shape a, b;
	double va = 0, vb = 0, vi, vu;
	gp_Trsf turn;
	int has_turn = 0;
	failure f;
	FILE *held = NULL, *real = out;
	char *held_buf = NULL;
	size_t held_len = 0;

	try {
		if (load(a_path, a, va, f) < 0 || load(b_path, b, vb, f) < 0)
			return fail(f);
		vi = common_volume(a, b);
		if (std::isnan(vi))
			return fail(failed(EXIT_BOOLEAN, a_path, std::string(
			    "the intersection with ") + b_path + " failed"));
	} catch (const Standard_Failure &e) {
		return fail(failed(EXIT_BOOLEAN, a_path, "OCCT raised " +
		    what(e)));
	} catch (const std::bad_alloc &) {
		return fail(failed(EXIT_MEMORY, a_path, "out of memory"));
	} catch (const std::exception &e) {
		return fail(failed(EXIT_BOOLEAN, a_path, std::string("OCCT"
		    " raised ") + e.what()));
	}
	/* Round-off can leave a sliver of either sign where none is. */
	if (vi < 0)
		vi = 0;
	vu = va + vb - vi;
	/* With --mesh the result lines are held and printed after the long
	 * mesh lines, so that a log's tail still shows them. */
	if (mesh)
		held = open_memstream(&held_buf, &held_len);
	if (held != NULL) {
		fflush(out);
		real = out;
		out = held;
	}
	fprintf(out, "vA=%.6f vB=%.6f vInter=%.6f vUnion=%.6f IoU=%.6f\n",
	    va, vb, vi, vu, vu > 0 ? vi / vu : 0.0);
	try {
		bbox_line(a, b);
	} catch (...) {
		/* The boxes are feedback: the IoU line stands. */
	}
	fflush(out);
	/* A turn cannot mend volumes that differ by more than the bar. */
	if (vu > 0 && vi / vu < orient_below && va > 0 && vb > 0 &&
	    (va < vb ? va / vb : vb / va) >= orient_below) {
		try {
			gp_Trsf none;

			orient(a, b, va, vb, vi / vu, &turn);
			has_turn = turn.Form() != none.Form() ||
			    turn.TranslationPart().Modulus() > 0;
		} catch (...) {
			/* The hint is a hint: the IoU line stands. */
		}
		fflush(out);
	}
	if (held != NULL) {
		fclose(held);
		out = real;
	}
	if (mesh) {
		try {
			meshes(a, b, has_turn, turn);
		} catch (...) {
			/* The pictures are pictures: the IoU line stands. */
		}
		fflush(out);
	}
	if (held_buf != NULL) {
		fwrite(held_buf, 1, held_len, out);
		free(held_buf);
	}
	fflush(out);
	return 0;
}

static int
write_step(const TopoDS_Shape &s, const char *path)
{
	STEPControl_Writer w;

	Interface_Static::SetCVal("write.step.schema", "AP214IS");
	if (w.Transfer(s, STEPControl_AsIs) != IFSelect_RetDone ||
	    w.Write(path) != IFSelect_RetDone)
		return fail(failed(EXIT_USAGE, path, "cannot write STEP"));
	return 0;
}

/* A number argument, or -1 with a message. */
static int
number(const char *s, double &v)
{
	char *end;

	errno = 0;
	v = strtod(s, &end);
	if (*s == '\0' || *end != '\0' || errno != 0 || !std::isfinite(v)) {
		fprintf(err, "assay-iou: '%s' is not a number\n", s);
		return -1;
	}
	return 0;
}

/* One primitive at av[*i]: box X Y Z DX DY DZ, or cyl X Y Z R H. */
static int
primitive(int ac, char **av, int *i, TopoDS_Shape &s)
{
	double v[6];
	int n;

	if (*i >= ac)
		return -1;
	if (strcmp(av[*i], "box") == 0)
		n = 6;
	else if (strcmp(av[*i], "cyl") == 0)
		n = 5;
	else {
		fprintf(err, "assay-iou: want box or cyl, not '%s'\n", av[*i]);
		return -1;
	}
	if (*i + n >= ac) {
		fprintf(err, "assay-iou: %s wants %d numbers\n", av[*i], n);
		return -1;
	}
	for (int k = 0; k < n; k++)
		if (number(av[*i + 1 + k], v[k]) < 0)
			return -1;
	for (int k = 3; k < n; k++)
		if (v[k] <= 0) {
			fprintf(err, "assay-iou: %s: sizes must be > 0\n",
			    av[*i]);
			return -1;
		}
	if (n == 6)
		s = BRepPrimAPI_MakeBox(gp_Pnt(v[0], v[1], v[2]), v[3], v[4],
		    v[5]).Shape();
	else
		s = BRepPrimAPI_MakeCylinder(gp_Ax2(gp_Pnt(v[0], v[1], v[2]),
		    gp::DZ()), v[3], v[4]).Shape();
	*i += n + 1;
	return 0;
}

/* --make OUT box ... [- cyl ...] [+ box ...] */
static int
make(int ac, char **av)
{
	TopoDS_Shape s, t;
	int i = 1;

	try {
		if (primitive(ac, av, &i, s) < 0)
			return EXIT_USAGE;
		while (i < ac) {
			int cut = strcmp(av[i], "-") == 0;

			if (!cut && strcmp(av[i], "+") != 0) {
				fprintf(err, "assay-iou: want - or +, not"
				    " '%s'\n", av[i]);
				return EXIT_USAGE;
			}
			i++;
			if (primitive(ac, av, &i, t) < 0)
				return EXIT_USAGE;
			if (cut)
				s = BRepAlgoAPI_Cut(s, t).Shape();
			else
				s = BRepAlgoAPI_Fuse(s, t).Shape();
		}
		return write_step(s, av[0]);
	} catch (const Standard_Failure &e) {
		return fail(failed(EXIT_BOOLEAN, av[0], "OCCT raised " +
		    what(e)));
	}
}

static int
usage(void)
{
	fprintf(err, "usage: assay-iou A.step B.step [--orient MIN] [--mesh]\n"
	    "       assay-iou --box X Y Z DX DY DZ OUT.step\n"
	    "       assay-iou --make OUT.step box X Y Z DX DY DZ"
	    " [-|+ cyl X Y Z R H] ...\n"
	    "       assay-iou --version\n");
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	silence();
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		fprintf(out, "Open CASCADE Technology %s\n",
		    OCC_VERSION_COMPLETE);
		return 0;
	}
	if (argc == 9 && strcmp(argv[1], "--box") == 0) {
		char *av[] = { argv[8], (char *)"box", argv[2], argv[3],
		    argv[4], argv[5], argv[6], argv[7] };

		return make(8, av);
	}
	if (argc >= 4 && strcmp(argv[1], "--make") == 0)
		return make(argc - 2, argv + 2);
	{
		int mesh = argc >= 4 && strcmp(argv[argc - 1], "--mesh") == 0;
		int ac = argc - mesh;

		if (ac == 3 && argv[1][0] != '-')
			return iou(argv[1], argv[2], 0, mesh);
		if (ac == 5 && argv[1][0] != '-' &&
		    strcmp(argv[3], "--orient") == 0) {
			double min;

			if (number(argv[4], min) < 0)
				return usage();
			return iou(argv[1], argv[2], min, mesh);
		}
	}
	return usage();
}
