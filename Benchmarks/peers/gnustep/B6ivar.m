/* B6ivar: B6 with the ivar-only proxy. 100,000
 * [[box mutableArrayValueForKey: @"items"] addObject: x] with one observer
 * (new|old) on items, where Box has the NSMutableArray ivar `items` and no
 * accessor at all: no -items, no -setItems:, no indexed accessors. KVC finds
 * the ivar (+accessInstanceVariablesDirectly is YES), so the proxy works on
 * the ivar's array directly; the harness checks the insertion notifications
 * arrive as in B6. */
#import "common.h"

@interface Box : NSObject
{
  NSMutableArray *items;
}
- (NSUInteger) itemCount;
@end

@implementation Box
- (id) init
{
  if ((self = [super init]) != nil)
    items = [NSMutableArray new];
  return self;
}
/* Read by main() only, to check the adds arrived; not a KVC accessor. */
- (NSUInteger) itemCount { return [items count]; }
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 100000;
  Box *box = [Box new];
  Watcher *watcher = [Watcher new];
  [box addObserver: watcher forKeyPath: @"items"
           options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
           context: NULL];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (long i = 0; i < n; i++)
    {
      [[box mutableArrayValueForKey: @"items"]
        addObject: [NSNumber numberWithLong: i]];
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  [pool drain];
  if ([box itemCount] != (NSUInteger)n)
    fprintf(stderr, "B6ivar: %lu items, expected %ld\n",
            (unsigned long)[box itemCount], n);
  [box removeObserver: watcher forKeyPath: @"items"];
  report();
  [outer drain];
  return 0;
}
