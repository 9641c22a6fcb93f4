/* B6: 100,000 [[box mutableArrayValueForKey: @"items"] addObject: x] with one
 * observer (new|old) on items. Box implements the KVC-compliant indexed
 * accessors (countOfItems, objectInItemsAtIndex:, insertObject:inItemsAtIndex:,
 * removeObjectFromItemsAtIndex:), GNUstep's best case: the proxy calls
 * insertObject:inItemsAtIndex:, which KVO wraps in will/didChange:valuesAtIndexes:
 * (insertion notifications). */
#import "common.h"

@interface Box : NSObject
{
  NSMutableArray *items;
}
- (NSUInteger) countOfItems;
- (id) objectInItemsAtIndex: (NSUInteger)i;
- (void) insertObject: (id)o inItemsAtIndex: (NSUInteger)i;
- (void) removeObjectFromItemsAtIndex: (NSUInteger)i;
@end

@implementation Box
- (id) init
{
  if ((self = [super init]) != nil)
    items = [NSMutableArray new];
  return self;
}
- (NSArray *) items { return items; }
- (NSUInteger) countOfItems { return [items count]; }
- (id) objectInItemsAtIndex: (NSUInteger)i { return [items objectAtIndex: i]; }
- (void) insertObject: (id)o inItemsAtIndex: (NSUInteger)i
{
  [items insertObject: o atIndex: i];
}
- (void) removeObjectFromItemsAtIndex: (NSUInteger)i
{
  [items removeObjectAtIndex: i];
}
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
  if ([box countOfItems] != (NSUInteger)n)
    fprintf(stderr, "B6: %lu items, expected %ld\n",
            (unsigned long)[box countOfItems], n);
  [box removeObserver: watcher forKeyPath: @"items"];
  report();
  [outer drain];
  return 0;
}
