/* B5s: objc.io's LabColor (issue 7) with an object-valued color, as in the
 * article, whose -color returns a new UIColor on every call
 * ([UIColor colorWithRed: self.redComponent * 0.01 green: … blue: … alpha: 1.]).
 * Here -color returns a new NSString built with
 * [NSString stringWithFormat: @"rgb(%g, %g, %g)", …], the counterpart of the
 * scenario's string interpolation "rgb(\(r), \(g), \(b))". Dependencies as
 * in the article and B5 (red <- l; green <- l, a; blue <- l, b;
 * color <- red, green, blue), declared as in B5.m (see there why both the
 * modern and the older API). One observer on color (new|old), 100,000 sets of
 * lComponent = i % 101.
 *
 * The arithmetic is B5s.kvo's: multiples of 1/4, then / 100, L* in 0...100,
 * so every printed value has at most 6 significant digits and %g prints what
 * kvo-run's shortest round-trip form prints. The peer prints the final color
 * on the line before the count; the harness compares it with the scenario's. */
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
@property (nonatomic, readonly) NSString *color;
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
- (double) redComponent { return (lComponent + 16) * 0.75; }
- (double) greenComponent { return (lComponent + 16) * 0.75 + aComponent / 4; }
- (double) blueComponent { return (lComponent + 16) * 0.75 - bComponent / 4; }
- (NSString *) color
{
  return [NSString stringWithFormat: @"rgb(%g, %g, %g)",
                   [self redComponent] / 100, [self greenComponent] / 100,
                   [self blueComponent] / 100];
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
      labColor.lComponent = i % 101;
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  [pool drain];
  [labColor removeObserver: watcher forKeyPath: @"color"];
  printf("%s\n", [[labColor color] UTF8String]);
  report();
  [outer drain];
  return 0;
}
