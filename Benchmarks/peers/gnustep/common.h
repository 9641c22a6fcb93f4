/* Shared by the GNUstep peers of Benchmarks/scenarios/B*.kvo.
 * Built with: gcc -O2 $(gnustep-config --objc-flags) Bn.m $(gnustep-config --base-libs)
 * (GCC's Objective-C: manual retain/release, explicit @synthesize, no literals.)
 * Every peer prints the number of notifications its observers received, one
 * integer line on standard output, so the harness can check both sides did the
 * same work. */
#import <Foundation/Foundation.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long notifications = 0;

/* The observer: counts what it receives and does nothing else, like a kvo-run
 * observer under --quiet. */
@interface Watcher : NSObject
@end

@implementation Watcher
- (void) observeValueForKeyPath: (NSString *)keyPath
                       ofObject: (id)object
                         change: (NSDictionary *)change
                        context: (void *)context
{
  notifications++;
}
@end

static void report(void)
{
  printf("%lu\n", notifications);
  fflush(stdout);
}

/* Autorelease pools are drained every POOL_EVERY iterations: KVO's change
 * dictionaries are autoreleased, and a pool per iteration would measure the pool. */
#define POOL_EVERY 1000
