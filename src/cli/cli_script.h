/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * What `clink plot` and `clink animate` share: finding their Python script and
 * interpreter, running it, and the scene file (scene.json) that tells the
 * script what the bodies look like.
 */
#ifndef CLINK_CLI_SCRIPT_H
#define CLINK_CLI_SCRIPT_H

#include <stddef.h>

/*
 * The path of scripts/NAME (e.g. "plot_run.py"), or NULL: $ENV_VAR when set and
 * not empty; the installed copy next to the executable
 * (BIN/../share/clink/scripts/NAME); the source tree the binary was built from;
 * the configured install prefix. buf receives the path when it is built.
 */
const char *cli_script_find(const char *name, const char *env_var, char *buf, size_t size);

/* The interpreter: $CLINK_PYTHON, else /usr/bin/python3 when present, else python3. */
const char *cli_script_python(void);

/* path is a regular file (stat follows links) */
int cli_script_is_file(const char *path);

/*
 * Runs argv (argv[0] the interpreter, NULL-terminated) and waits for it. The
 * script's exit status maps to clink's: 0 -> 0; 1 and 4 -> 1; 2 -> 2; 3 -> 3;
 * anything else, a signal, or an interpreter that cannot be started -> 1 with a
 * line on stderr naming `command`.
 */
int cli_script_run(const char *command, char *const *argv);

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
