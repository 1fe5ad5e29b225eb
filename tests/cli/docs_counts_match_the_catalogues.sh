#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The counts the documentation states (laws, friction laws, joint types, contact elements,
# shapes, commands) and the README's list of commands are those of the catalogues, as
# `scripts/doc-counts` writes them; no page states such a count by hand
# (scripts/doc-counts --check, docs/development.md).
set -u
python3 "$CLINK_SOURCE_DIR/scripts/doc-counts" --check "$CLINK"
