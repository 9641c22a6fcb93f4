#ifndef KVO_BUILD_INFO_H
#define KVO_BUILD_INFO_H

/// The git revision kvo-run was built from ("unknown revision" when built
/// outside a git checkout, e.g. from a tarball, or without `make`).
const char *kvo_build_revision(void);

#endif
