/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `clink plot` and `clink animate` share: finding their viewer (the
 * Python modules viz.plot and viz.animate, python/clink/viz) and interpreter,
 * running it, and the scene file (scene.json) that tells the viewer what the
 * bodies look like.
 */
#ifndef CLINK_CLI_SCRIPT_H
#define CLINK_CLI_SCRIPT_H

#include <stddef.h>

/*
 * The folder holding the viewer package viz (the package folder clink), or
 * NULL: $CLINK_VIEWER_PATH when set and not empty; the installed package next
 * to the executable (the site directory that `cmake --install` recorded in
 * BIN/../share/clink/python-site, + /clink); python/clink of the source tree
 * the binary was built from; the package recorded under the configured install
 * prefix. buf receives the path when it is built.
 */
const char *cli_viewer_dir(char *buf, size_t size);

/* The interpreter: $CLINK_PYTHON, else /usr/bin/python3 when present, else python3. */
const char *cli_script_python(void);

/* path is a regular file (stat follows links) */
int cli_script_is_file(const char *path);

/*
 * dir is the output directory of a run that `command` (plot, animate) can read:
 * a directory holding timeseries.csv, or results.h5 of a `--format hdf5` run.
 * Otherwise prints "clink: COMMAND: ..." (the directory is missing, is not one,
 * the run did not finish and left only .incomplete files, or it holds no run)
 * and returns CLI_EXIT_USAGE; CLI_EXIT_OK when readable.
 */
int cli_script_check_run(const char *command, const char *dir);

/*
 * Runs argv (NULL-terminated: the interpreter, "-m", the module, its
 * arguments) with dir (cli_viewer_dir) first on $PYTHONPATH, so that the
 * module viz.NAME is imported alone, without the package clink and its
 * library; waits for it. The viewer's exit status maps to clink's: 0 -> 0;
 * 1 and 4 -> 1; 2 -> 2; 3 -> 3; anything else, a signal, or an interpreter that
 * cannot be started -> 1 with a line on stderr naming `command`.
 */
int cli_script_run(const char *command, const char *dir, char *const *argv);

/*
 * Creates an empty temporary file for a scene ($TMPDIR, else /tmp:
 * clink-scene-XXXXXX, mkstemp) and puts its name in path: 0, or -1 with errno.
 */
int cli_scene_temp(char *path, size_t size);

/*
 * The model of the run in run_dir: model_path when not NULL, else the "source"
 * recorded in run_dir/summary.json. Writes scene_path, a JSON file of what the
 * renderers draw (schema in docs/cli.md, "Scene file"): every body with its
 * contact shapes and joint points in body coordinates, the joints, clearance
 * joints, contact pairs, drivers and point-to-point forces. On failure prints
 * "clink: COMMAND: ..." on stderr (unless quiet) and returns CLI_EXIT_USAGE (the
 * model cannot be found or loaded) or CLI_EXIT_IO (scene_path cannot be written).
 */
int cli_scene_write(const char *command, const char *run_dir, const char *model_path,
                    const char *scene_path, int quiet);

#endif /* CLINK_CLI_SCRIPT_H */
