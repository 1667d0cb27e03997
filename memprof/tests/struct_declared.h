/* SPDX-License-Identifier: GPL-2.0-or-later */
/* struct_declared's particle, defined in a header of the program's own
   directory, as proxy apps keep their types. */
#define NVEL 3

typedef struct {
   double x, y, z;
   double v[NVEL];   /* vx, vy, vz */
   double mass, charge;
} particle_t;
