/* Start-up peer of Benchmarks/scenarios/startup.kvo: the same 10-line story
 * (one observer, two changes, removal), so the harness times process start-up,
 * library loading and one KVO round trip. Prints 2. */
#import "common.h"

@interface Account : NSObject
{
  double balance;
}
@property (nonatomic) double balance;
@end
@implementation Account
@synthesize balance;
@end

int main(int argc, char **argv)
{
  NSAutoreleasePool *pool = [NSAutoreleasePool new];
  static char C;
  Account *account = [Account new];
  Watcher *alice = [Watcher new];
  account.balance = 100;
  [account addObserver: alice forKeyPath: @"balance"
               options: NSKeyValueObservingOptionNew | NSKeyValueObservingOptionOld
               context: &C];
  account.balance = 150;
  [account setValue: [NSNumber numberWithDouble: 175] forKey: @"balance"];
  [account removeObserver: alice forKeyPath: @"balance"];
  report();
  [pool drain];
  return 0;
}
