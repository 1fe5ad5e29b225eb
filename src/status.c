/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Status codes and version: the messages come from the one X-macro list in
 * include/clink/clink.h, so a code and its text cannot drift apart.
 */
#include "clink/clink.h"

const char *clink_version(void)
{
    return CLINK_VERSION_STRING;
}

const char *clink_status_string(clink_status status)
{
    switch (status) {
#define CLINK_STATUS_CASE_(name, value, message)                                                   \
    case name:                                                                                     \
        return message;
        CLINK_STATUS_LIST(CLINK_STATUS_CASE_)
#undef CLINK_STATUS_CASE_
    }
    return "unknown status";
}

const char *clink_status_name(clink_status status)
{
    switch (status) {
#define CLINK_STATUS_CASE_(name, value, message)                                                   \
    case name:                                                                                     \
        return #name;
        CLINK_STATUS_LIST(CLINK_STATUS_CASE_)
#undef CLINK_STATUS_CASE_
    }
    return "unknown status";
}
