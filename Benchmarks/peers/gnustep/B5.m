/* B5: objc.io's LabColor (issue 7, "Key-Value Coding and Observing"): stored
 * l, a, b; red, green and blue computed from them; color computed from the
 * three, with the article's dependencies (red <- l; green <- l, a;
 * blue <- l, b; color <- red, green, blue). The Lab -> RGB conversion is
 * reduced to its arithmetic core, as in B5.kvo. One observer on color
 * (new|old), 100,000 sets of lComponent.
 *
 * The dependencies are declared with the modern API,
 * +keyPathsForValuesAffectingValueForKey:, and also with the older
 * +setKeys:triggerChangeNotificationsForDependentKey:, because GNUstep Base
 * 1.28 (Debian 12) never consults the former: with it alone the observer of
 * color receives nothing. Its KVO machinery follows the latter's table
 * transitively (lComponent notifies red, green and blue, which notify color).
 * Should a runtime honour both, the harness's notification-count check would
 * show any double delivery. */
#import "common.h"

@interface LabColor : NSObject
{
  double lComponent, aComponent, bComponent;
}
@property (nonatomic) double lComponent;
@property (nonatomic) double aComponent;
@property (nonatomic) double bComponent;
@property (nonatomic, readonly) double redComponent;
@property (nonatomic, readonly) double greenComponent;
@property (nonatomic, readonly) double blueComponent;
@property (nonatomic, readonly) double color;
@end

@implementation LabColor
@synthesize lComponent, aComponent, bComponent;
+ (void) initialize
{
  if (self == [LabColor class])
    {
      [self setKeys: [NSArray arrayWithObject: @"lComponent"]
        triggerChangeNotificationsForDependentKey: @"redComponent"];
      [self setKeys: [NSArray arrayWithObjects: @"lComponent", @"aComponent", nil]
        triggerChangeNotificationsForDependentKey: @"greenComponent"];
      [self setKeys: [NSArray arrayWithObjects: @"lComponent", @"bComponent", nil]
        triggerChangeNotificationsForDependentKey: @"blueComponent"];
      [self setKeys: [NSArray arrayWithObjects: @"redComponent", @"greenComponent",
                                                @"blueComponent", nil]
        triggerChangeNotificationsForDependentKey: @"color"];
    }
}
- (double) redComponent { return (lComponent + 16) / 116; }
- (double) greenComponent { return (lComponent + 16) / 116 + aComponent / 500; }
- (double) blueComponent { return (lComponent + 16) / 116 - bComponent / 200; }
- (double) color
{
  return [self redComponent] * 0.01 + [self greenComponent] * 0.01
    + [self blueComponent] * 0.01;
}
+ (NSSet *) keyPathsForValuesAffectingValueForKey: (NSString *)key
{
  if ([key isEqualToString: @"redComponent"])
    return [NSSet setWithObject: @"lComponent"];
  if ([key isEqualToString: @"greenComponent"])
    return [NSSet setWithObjects: @"lComponent", @"aComponent", nil];
  if ([key isEqualToString: @"blueComponent"])
    return [NSSet setWithObjects: @"lComponent", @"bComponent", nil];
  if ([key isEqualToString: @"color"])
    return [NSSet setWithObjects: @"redComponent", @"greenComponent",
                                  @"blueComponent", nil];
  return [super keyPathsForValuesAffectingValueForKey: key];
}
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 100000;
  LabColor *labColor = [LabColor new];
  labColor.lComponent = 50;
  labColor.aComponent = 10;
  labColor.bComponent = -10;
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
