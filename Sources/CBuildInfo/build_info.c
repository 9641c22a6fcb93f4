// The revision is a C macro because Swift's -D defines carry no value. `make`
// writes revision.h (git-ignored) beside this file and rewrites it only when
// the revision changes, so only this file recompiles; without it (a tarball,
// a plain `swift build`) the fallback applies.
#include "build_info.h"

#if __has_include("revision.h")
#include "revision.h"
#endif

#ifndef KVO_REVISION
#define KVO_REVISION "unknown revision"
#endif

const char *kvo_build_revision(void) {
    return KVO_REVISION;
}
