/* B3: add then remove N observers on one key of one object (N = argv[1],
 * default 100,000), removing in the order they were added; then one set,
 * which must notify nobody (prints 0). argv[2] is the number of
 * add-then-remove rounds (default 1), the measured phase: the harness also
 * runs it with 0 rounds (objects created, nothing registered) and subtracts. */
#import "common.h"

@interface Account : NSObject
{
  long balance;
}
@property (nonatomic) long balance;
@end
@implementation Account
@synthesize balance;
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *outer = [NSAutoreleasePool new];
  long n = argc > 1 ? atol(argv[1]) : 100000;
  long rounds = argc > 2 ? atol(argv[2]) : 1;
  Account *account = [Account new];
  NSMutableArray *ws = [NSMutableArray new];
  for (long i = 0; i < n; i++)
    {
      Watcher *w = [Watcher new];
      [ws addObject: w];
      [w release];
    }
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  long i = 0;
  for (long r = 0; r < rounds; r++)
    {
      for (Watcher *w in ws)
        {
          [account addObserver: w forKeyPath: @"balance"
                       options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
                       context: NULL];
          if (++i % POOL_EVERY == 0)
            { [pool drain]; pool = [NSAutoreleasePool new]; }
        }
      for (Watcher *w in ws)
        {
          [account removeObserver: w forKeyPath: @"balance"];
          if (++i % POOL_EVERY == 0)
            { [pool drain]; pool = [NSAutoreleasePool new]; }
        }
    }
  account.balance = 1;
  [pool drain];
  report();
  [outer drain];
  return 0;
}
