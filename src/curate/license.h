/*
 * license.h - a benchmark's licence as an SPDX id, read from the LICENSE
 * file its data ships with (issue 14 item 7, docs/formats.md
 * "Provenance and licence").
 *
 * Called by import_path() for the tasks an import adds.
 */
#ifndef ASSAY_LICENSE_H
#define ASSAY_LICENSE_H

#include <stddef.h>

/*
 * The SPDX id of a licence text: MIT, Apache-2.0, BSD-3-Clause,
 * BSD-2-Clause, ISC, MPL-2.0, GPL-2.0-only, GPL-3.0-only, LGPL-2.1-only,
 * LGPL-3.0-only, AGPL-3.0-only, CC-BY-4.0, CC-BY-SA-4.0, CC0-1.0,
 * Unlicense, told by phrases each one's text carries; "NOASSERTION"
 * (SPDX's word for "not determined") when none fits.  Static string.
 */
const char *license_spdx(const char *text, size_t len);

/*
 * The licence file of an import path: LICENSE, LICENSE.txt, LICENSE.md,
 * COPYING or LICENCE in path (a directory) or beside it (a file), else
 * in the folder above.  New string with the file's path, or NULL.
 */
char	*license_file(const char *path);

#endif
