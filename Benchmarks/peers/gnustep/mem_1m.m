/* Memory peer of Benchmarks/scenarios/mem_1m.kvo: 1,000,000 objects with 3
 * properties each, kept alive in an NSMutableArray; the harness reads the
 * peak resident set size. No observers: prints 0. */
#import "common.h"

@interface Point3 : NSObject
{
  long x, y, z;
}
@property (nonatomic) long x;
@property (nonatomic) long y;
@property (nonatomic) long z;
@end
@implementation Point3
@synthesize x, y, z;
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  NSMutableArray *ps = [NSMutableArray new];
  for (long i = 0; i < n; i++)
    {
      Point3 *p = [Point3 new];
      p.x = i; p.y = i; p.z = i;
      [ps addObject: p];
      [p release];
    }
  if ([ps count] != (NSUInteger)n)
    fprintf(stderr, "mem_1m: %lu objects\n", (unsigned long)[ps count]);
  report();
  [pool drain];
  return 0;
}
