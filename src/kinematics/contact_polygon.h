/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * contact_polygon.h: the pair geometry functions of the convex polygon (contact_polygon.c),
 * entries of the registry in contact_geometry.c (see contact_shapes.h).
 */
#ifndef CLINK_KINEMATICS_CONTACT_POLYGON_H
#define CLINK_KINEMATICS_CONTACT_POLYGON_H

#include "kinematics/contact_shapes.h"

/* a line (A) against the polygon B: B's vertex sb->vertex - 1 (0: the deepest) */
kinematics_pair_eval_fn kinematics_pair_line_polygon;
kinematics_pair_diff_fn kinematics_diff_line_polygon;

/* the polygon A against the circle B: the closest feature of A's boundary */
kinematics_pair_eval_fn kinematics_pair_polygon_circle;
kinematics_pair_diff_fn kinematics_diff_polygon_circle;

/* two polygons: a vertex of one (sa->vertex or sb->vertex) into the other */
kinematics_pair_eval_fn kinematics_pair_polygons;
kinematics_pair_diff_fn kinematics_diff_polygons;

/* the contact points: one per vertex of B (line-polygon), per vertex of A then of B
   (polygon-polygon) */
kinematics_pair_npoints_fn kinematics_points_vertices_b, kinematics_points_vertices_ab;
kinematics_pair_point_fn kinematics_point_vertex_b, kinematics_point_vertex_ab;

#endif
