/* B5chain: the simplest dependency chain, lComponent -> redComponent -> color;
 * one observer on color (new|old), 100,000 sets of lComponent.
 *
 * The dependencies are declared with the modern API,
 * +keyPathsForValuesAffectingValueForKey:, and also with the older
 * +setKeys:triggerChangeNotificationsForDependentKey:, because GNUstep Base
 * 1.28 (Debian 12) never consults the former: with it alone the observer of
 * color receives nothing (0 notifications). Its KVO machinery is driven by the
 * table the latter fills, and follows it transitively (lComponent notifies
 * redComponent, which notifies color). Should a runtime honour both, the
 * harness's notification-count check would show any double delivery. */
#import "common.h"

@interface LabColor : NSObject
{
  double lComponent;
}
@property (nonatomic) double lComponent;
@property (nonatomic, readonly) double redComponent;
@property (nonatomic, readonly) double color;
@end

@implementation LabColor
@synthesize lComponent;
+ (void) initialize
{
  if (self == [LabColor class])
    {
      [self setKeys: [NSArray arrayWithObject: @"lComponent"]
        triggerChangeNotificationsForDependentKey: @"redComponent"];
      [self setKeys: [NSArray arrayWithObject: @"redComponent"]
        triggerChangeNotificationsForDependentKey: @"color"];
    }
}
- (double) redComponent { return lComponent * 2; }
- (double) color { return [self redComponent] + 1; }
+ (NSSet *) keyPathsForValuesAffectingValueForKey: (NSString *)key
{
  if ([key isEqualToString: @"redComponent"])
    return [NSSet setWithObject: @"lComponent"];
  if ([key isEqualToString: @"color"])
    return [NSSet setWithObject: @"redComponent"];
  return [super keyPathsForValuesAffectingValueForKey: key];
}
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 100000;
  LabColor *labColor = [LabColor new];
  labColor.lComponent = 50;
  Watcher *watcher = [Watcher new];
  [labColor addObserver: watcher forKeyPath: @"color"
                options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
                context: NULL];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (long i = 0; i < n; i++)
    {
      labColor.lComponent = i;
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  [pool drain];
  [labColor removeObserver: watcher forKeyPath: @"color"];
  report();
  [outer drain];
  return 0;
}
