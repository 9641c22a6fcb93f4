/* B1: 1,000,000 sets of one property with one observer (new|old). */
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
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  Account *account = [Account new];
  Watcher *watcher = [Watcher new];
  [account addObserver: watcher forKeyPath: @"balance"
               options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
               context: NULL];
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  for (long i = 0; i < n; i++)
    {
      account.balance = i;
      if (i % POOL_EVERY == POOL_EVERY - 1)
        { [pool drain]; pool = [NSAutoreleasePool new]; }
    }
  [pool drain];
  [account removeObserver: watcher forKeyPath: @"balance"];
  report();
  [outer drain];
  return 0;
}
