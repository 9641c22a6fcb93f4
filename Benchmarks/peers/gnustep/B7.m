/* B7: one object observed for N different keys (one observer, new), then
 * each key set once through KVC, ROUNDS times: N * ROUNDS notifications.
 * The keys are undefined: setValue:forKey: calls setValue:forUndefinedKey:,
 * which sends the change itself. */
#import "common.h"

@interface Bag : NSObject
@end
@implementation Bag
/* setValue:forUndefinedKey: notifies by hand: GNUstep's KVO must not also
 * wrap setValue:forKey: in a change of its own. */
+ (BOOL) automaticallyNotifiesObserversForKey: (NSString *)key
{
  return NO;
}
- (id) valueForUndefinedKey: (NSString *)key
{
  return [NSNumber numberWithInt: 0];
}
- (void) setValue: (id)value forUndefinedKey: (NSString *)key
{
  [self willChangeValueForKey: key];
  [self didChangeValueForKey: key];
}
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 25000;
  long rounds = argc > 2 ? atol(argv[2]) : 1;
  Bag *bag = [Bag new];
  Watcher *watcher = [Watcher new];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (long i = 0; i < n; i++)
    {
      [bag addObserver: watcher
            forKeyPath: [NSString stringWithFormat: @"k%ld", i]
               options: NSKeyValueObservingOptionNew
               context: NULL];
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  for (long round = 0; round < rounds; round++)
    for (long i = 0; i < n; i++)
      {
        [bag setValue: [NSNumber numberWithLong: i]
               forKey: [NSString stringWithFormat: @"k%ld", i]];
        if (i % POOL_EVERY == POOL_EVERY - 1)
          { [pool drain]; pool = [NSAutoreleasePool new]; }
      }
  [pool drain];
  report();
  [outer drain];
  return 0;
}
