/* SPDX-License-Identifier: BSD-3-Clause */
/* A program outside the clink tree, built against an installed clink. */
#include <clink/clink.h>

#include <stdio.h>
#include <string.h>

int main(void)
{
    if (strcmp(clink_version(), CLINK_VERSION_STRING) != 0) {
        fprintf(stderr, "header %s but library %s\n", CLINK_VERSION_STRING, clink_version());
        return 1;
    }
    printf("consumer linked clink %s: %s\n", clink_version(), clink_status_string(CLINK_OK));
    return 0;
}
