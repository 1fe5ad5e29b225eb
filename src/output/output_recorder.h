/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * output_recorder.h: the run recorder of include/clink/output.h inside the library, shared
 * by its files: output.c (creating, finishing and releasing it, the files and their
 * protocol), output_columns.c (the columns of the time series), output_rows.c (sampling
 * the simulation into rows, which rows are kept) and output_summary.c (summary.json). The
 * format's files are written by its writer (output_writer.h).
 */
#ifndef CLINK_OUTPUT_RECORDER_H
#define CLINK_OUTPUT_RECORDER_H

#include "clink/output.h"

#include "output/output_file.h"
#include "output/output_writer.h"

enum {
    OUT_PATH_MAX = 4096,
    OUT_MSG = OUT_PATH_MAX + 256,
    OUT_FILES_MAX = OUTPUT_WRITER_FILES_MAX + 1 /* the format's, then summary.json */
};

struct clink_recorder {
    const clink_model *model;
    clink_output_options opt;  /* opt.rows: never CLINK_ROWS_AUTO (resolved at creation) */
    int rows_auto;             /* opt.rows was chosen by CLINK_ROWS_AUTO */
    const out_writer_ops *ops; /* the format's writer */
    void *w;                   /* its state; NULL once finished or released */
    int nfiles;                /* the format's files, then summary.json (index nfiles - 1) */
    char tmp[OUT_FILES_MAX][OUT_PATH_MAX];
    char final[OUT_FILES_MAX][OUT_PATH_MAX];
    int nbodies, njoints, ndrivers;
    int npairs, ncontacts; /* contact pairs; contacts (clink_model_contact_count) */
    int impacts_written;
    out_column *cols;
    int ncols;
    double *row;   /* the row being sampled, ncols values */
    int *phase;    /* each contact's phase column at the last row */
    double *onset; /* sim_output_walk's: onsets, force rates, scratch (4 per contact) */
    int *fn_col;   /* each contact's column of Fn */
    /* each contact's optional columns, read from the model once (output_row_layout):
       3 per contact, eccentricity (0 or 1), friction state z (0 or 1), element outputs */
    int *clayout;
    int *jlayout; /* 2 per joint: output_joint_friction's kind and dynamic (likewise) */
    double *pend; /* CLINK_ROWS_EVENTS: the rows of the grid interval, npend x ncols */
    int npend, cappend;
    double *last;  /* the last row written */
    int have_last; /* nonzero once a row was written */
    int kind;      /* the row kind being sampled */
    long rows;
    double max_pos, max_vel, max_balance, last_balance;
    int finished;
    char msg[OUT_MSG];
    /* Poincare sections (output_sections.c): the table's columns and rows */
    clink_section_def sec[CLINK_SECTIONS_MAX];
    int nsec, sec_added;
    out_column *scols;
    int nscols;
    double *srows; /* nsrows x nscols */
    long nsrows, capsrows;
    int sec_err; /* out of memory while keeping a sample */
};

/* contact k's name for headers and the impact log (clink_model_contact_name) */
void output_contact_name(const clink_recorder *r, int k, char *buf, size_t size);
/* nonzero if contact k has the eccentricity columns (a revolute clearance joint's) */
int output_contact_ecc(const clink_recorder *r, int k);
/* the number of its element's own outputs that follow contact k (after its last contact) */
int output_contact_extras(const clink_recorder *r, int k);
/* r->clayout and r->jlayout from the model (after r->ncontacts and r->njoints are known); -1
   when out of memory */
int output_row_layout(clink_recorder *r);

/* joint j's friction columns: 0 none, 1 a revolute joint's torque, 2 a translational
   joint's force; *dynamic 1 when a column z follows */
int output_joint_friction(const clink_recorder *r, int j, int *dynamic);

/* the columns of the time series in order into r->cols, r->ncols (counted only while
   r->cols is NULL); each contact's Fn column into r->fn_col when it is not NULL */
void output_list_columns(clink_recorder *r);

/* the beam elements' columns after the contacts' (output_beam.c): added to r->cols as
   output_list_columns does; their values at sim's row appended at *p */
void output_beam_columns(clink_recorder *r);
clink_status output_beam_sample(const clink_recorder *r, const clink_sim *sim, double **p);

/* the impacts recorded by sim since the last call, handed to the writer */
clink_status output_write_impacts(clink_recorder *r, const clink_sim *sim);

/* writes the pending rows: all when keep_all or when the optional ones are needed, else the
   grid and event rows alone */
clink_status output_flush_pending(clink_recorder *r, int keep_all);

/* Poincare sections (output_sections.c): the table's columns (0, or -1 out of memory); the
   sections added to sim at its first advance; the table handed to the writer at finish;
   nonzero when file i of the format is the table's and the run has no sections; freed */
int output_sections_setup(clink_recorder *r);
clink_status output_sections_attach(clink_recorder *r, clink_sim *sim);
clink_status output_sections_write(clink_recorder *r);
int output_sections_absent(const clink_recorder *r, int i);
void output_sections_free(clink_recorder *r);

/* summary.json's text into f (a file in memory), followed by a NUL not counted in f->len */
void output_write_summary(clink_recorder *r, out_file *f, const clink_sim *sim,
                          const clink_run_info *in);

#endif
