/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_polygon.h: the pair geometry functions of the convex polygon (contact_polygon.c),
 * entries of the registry in contact_geometry.c (see contact_shapes.h).
 */
#ifndef CLINK_KINEMATICS_CONTACT_POLYGON_H
#define CLINK_KINEMATICS_CONTACT_POLYGON_H

#include "kinematics/contact_shapes.h"

/* a line (A) against the polygon B: B's vertex sb->vertex - 1 (0: the deepest) */
int kinematics_pair_line_polygon(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const double rot_a[2], const kinematics_shape *sb,
                                 const kinematics_pose *pb, const double rot_b[2],
                                 kinematics_contact *out);
int kinematics_diff_line_polygon(const kinematics_shape *sa, const kinematics_pose *pa,
                                 const kinematics_shape *sb, const kinematics_pose *pb,
                                 kinematics_contact_diff *out);

/* the polygon A against the circle B: the closest feature of A's boundary */
int kinematics_pair_polygon_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const double rot_a[2], const kinematics_shape *sb,
                                   const kinematics_pose *pb, const double rot_b[2],
                                   kinematics_contact *out);
int kinematics_diff_polygon_circle(const kinematics_shape *sa, const kinematics_pose *pa,
                                   const kinematics_shape *sb, const kinematics_pose *pb,
                                   kinematics_contact_diff *out);

/* two polygons: a vertex of one (sa->vertex or sb->vertex) into the other */
int kinematics_pair_polygons(const kinematics_shape *sa, const kinematics_pose *pa,
                             const double rot_a[2], const kinematics_shape *sb,
                             const kinematics_pose *pb, const double rot_b[2],
                             kinematics_contact *out);
int kinematics_diff_polygons(const kinematics_shape *sa, const kinematics_pose *pa,
                             const kinematics_shape *sb, const kinematics_pose *pb,
                             kinematics_contact_diff *out);

/* the contact points: one per vertex of B (line-polygon), per vertex of A then of B
   (polygon-polygon) */
int kinematics_points_vertices_b(const clink_shape_def *a, const clink_shape_def *b);
void kinematics_point_vertex_b(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                               int *vb);
int kinematics_points_vertices_ab(const clink_shape_def *a, const clink_shape_def *b);
void kinematics_point_vertex_ab(const clink_shape_def *a, const clink_shape_def *b, int i, int *va,
                                int *vb);

#endif
