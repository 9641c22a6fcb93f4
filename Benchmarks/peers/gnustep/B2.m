/* B2: 1,000,000 notifications from 10,000 observers on one key of one object,
 * 100 sets. */
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
  long observers = argc > 1 ? atol(argv[1]) : 10000;
  long sets = argc > 2 ? atol(argv[2]) : 100;
  Account *account = [Account new];
  NSMutableArray *ws = [NSMutableArray new];
  for (long i = 0; i < observers; i++)
    {
      Watcher *w = [Watcher new];
      [ws addObject: w];
      [w release];
    }
  for (Watcher *w in ws)
    [account addObserver: w forKeyPath: @"balance"
                 options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
                 context: NULL];
  for (long i = 0; i < sets; i++)
    {
      NSAutoreleasePool *pool = [NSAutoreleasePool new];
      account.balance = i;
      [pool drain];
    }
  report();
  [outer drain];
  return 0;
}
