/* SPDX-License-Identifier: BSD-3-Clause */
int cmd_kinematics(int argc, char **argv);
int cmd_kinematics(int argc, char **argv)
{
    (void) argc;
    (void) argv;
    return 2;
}
