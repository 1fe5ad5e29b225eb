/* SPDX-License-Identifier: BSD-3-Clause */
/* Status codes and version: the public contract of include/clink/clink.h. */
#include "ensure.h"

#include "clink/clink.h"

TEST(status_ok_is_zero_and_reads_success)
{
    ENSURE(CLINK_OK == 0);
    ENSURE_STR_EQ(clink_status_string(CLINK_OK), "success");
    ENSURE_STR_EQ(clink_status_name(CLINK_OK), "CLINK_OK");
}

TEST(every_error_code_is_negative_and_has_its_own_message)
{
    static const clink_status errs[] = {
#define X_(name, value, message) name,
        CLINK_STATUS_LIST(X_)
#undef X_
    };
    size_t i, j, n = sizeof errs / sizeof errs[0];

    for (i = 0; i < n; i++) {
        ENSURE(strlen(clink_status_string(errs[i])) > 0);
        ENSURE(strncmp(clink_status_name(errs[i]), "CLINK_", 6) == 0);
        if (strncmp(clink_status_name(errs[i]), "CLINK_ERR_", 10) == 0)
            ENSURE((int) errs[i] < 0);
        for (j = i + 1; j < n; j++) {
            ENSURE((int) errs[i] != (int) errs[j]);
            ENSURE(strcmp(clink_status_string(errs[i]), clink_status_string(errs[j])) != 0);
        }
    }
}

TEST(unknown_status_value_reads_unknown_status)
{
    ENSURE_STR_EQ(clink_status_string((clink_status) -9999), "unknown status");
}

TEST(version_string_matches_the_header_macros)
{
    char buf[32];

    snprintf(buf, sizeof buf, "%d.%d.%d", CLINK_VERSION_MAJOR, CLINK_VERSION_MINOR,
             CLINK_VERSION_PATCH);
    ENSURE_STR_EQ(clink_version(), buf);
    ENSURE_STR_EQ(CLINK_VERSION_STRING, buf);
}
